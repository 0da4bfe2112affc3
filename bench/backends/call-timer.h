/* SPDX-License-Identifier: MIT */
/*
 * call-timer.h - a deadline for a blocking read() without a system call per
 * call. A poll() before each read costs a system call on every round trip
 * (and system calls are expensive in the guests measured here); instead a
 * watchdog thread sleeps until the deadline of the call in flight and, if
 * that call is still blocked then, interrupts the read with SIGALRM. While
 * calls follow each other the watchdog wakes once per timeout, not per call.
 */
#ifndef CVMBENCH_CALL_TIMER_H
#define CVMBENCH_CALL_TIMER_H

/**
 * call_timer_arm() - the calling thread is about to block until
 * @deadline_ns (CLOCK_MONOTONIC). Returns the call's generation for
 * call_timer_disarm(), or 0 when no watchdog could be started (then the
 * read has no timeout: callers poll() instead).
 */
unsigned long call_timer_arm(long long deadline_ns);
/** call_timer_disarm() - the read returned; 1 if the deadline interrupted it. */
int call_timer_disarm(unsigned long gen);

#endif
