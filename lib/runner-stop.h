/* SPDX-License-Identifier: MIT */
/*
 * runner-stop.h - the stop request of a run (runner-stop.c): SIGINT or
 * SIGTERM sets it; the runner and the cell being measured check it between
 * calls, so the call in flight completes and its rows are kept.
 */
#ifndef CVMBENCH_RUNNER_STOP_H
#define CVMBENCH_RUNNER_STOP_H

#include <signal.h>

/* Set by SIGINT / SIGTERM: the runner stops after the call in flight. */
extern volatile sig_atomic_t runner_stop;

/**
 * runner_stop_catch_signals() - SIGINT and SIGTERM set runner_stop from
 * now on; SIGPIPE is ignored (a write to a closed pipe fails with EPIPE).
 */
void runner_stop_catch_signals(void);

#endif
