/* SPDX-License-Identifier: MIT */
/*
 * idle-wake.h - do power:cpu_idle events fire on every CPU? A sleeper
 * pinned to each CPU must produce at least one event within a second; on
 * some guests they fire on one CPU only (26 on cpu0, 0 on cpu1), and then
 * they cannot count idle entries. Decided once, when the idle probe opens.
 */
#ifndef CVMBENCH_IDLE_WAKE_H
#define CVMBENCH_IDLE_WAKE_H

#include <stddef.h>
#include <stdint.h>

/* Reads the events counted so far on each of the @n CPUs into @out. */
typedef void (*idle_wake_count_fn)(void *ctx, uint64_t *out);

/**
 * idle_wake_check() - pin a sleeper thread to each of @cpus (n of them),
 * read the counts through @count until every CPU has at least one new
 * event or @timeout_ms passed. @seen receives the new events per CPU.
 * Return: 1 if events fired on every CPU, 0 if not, -errno on error.
 */
int idle_wake_check(const int *cpus, int n, idle_wake_count_fn count, void *ctx,
		    int timeout_ms, uint64_t *seen);
/**
 * idle_wake_verdict() - the reason power:cpu_idle cannot count entries
 * ("fired 26 times on cpu0 and 0 on cpu1 in 1 s ..."), or "" if it fired
 * on every CPU. Return: 1 usable, 0 not (reason in @why).
 */
int idle_wake_verdict(const int *cpus, const uint64_t *seen, int n, int timeout_ms,
		      char *why, size_t len);

#endif
