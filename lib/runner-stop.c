// SPDX-License-Identifier: MIT
/*
 * runner-stop.c - the stop request of a run: the flag SIGINT and SIGTERM
 * set, which the runner (runner.c) and the cell (cell-run.c) check.
 */
#include <signal.h>
#include <stddef.h>

#include "runner-stop.h"

volatile sig_atomic_t runner_stop;

static void on_signal(int sig)
{
	(void)sig;
	runner_stop = 1;
}

void runner_stop_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}
