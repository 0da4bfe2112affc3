/* SPDX-License-Identifier: MIT */
/*
 * memstat.h - resident and proportional memory of a process, from
 * /proc/PID/smaps_rollup (falls back to /proc/PID/status for RSS).
 */
#ifndef CVMFN_MEMSTAT_H
#define CVMFN_MEMSTAT_H

#include <sys/types.h>

struct memstat {
	long rss_kb;              /* -1 when unknown */
	long pss_kb;              /* -1 when unknown */
};

/** memstat_read() - @pid 0 means this process. 0 or -errno. */
int memstat_read(pid_t pid, struct memstat *m);

#endif
