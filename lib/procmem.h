/* SPDX-License-Identifier: MIT */
/*
 * procmem.h - the kernel's memory accounting as text: a process's
 * /proc/PID/smaps_rollup and /proc/PID/ksm_stat, the host's /proc/meminfo
 * and the thp_split_* counters of /proc/vmstat. Parsers take the text (so
 * tests feed them fixture files); readers take a path under the sysroot
 * (sysroot.h). Sizes in kB as the kernel prints them; a field the kernel
 * did not print is -1, never 0.
 */
#ifndef CVMBENCH_PROCMEM_H
#define CVMBENCH_PROCMEM_H

#include <stddef.h>
#include <sys/types.h>

/* The fields of smaps_rollup this tool stores, kB; -1: not printed. */
struct smaps_rollup {
	long long rss, pss, pss_anon, pss_file, pss_shmem, anonymous;
	long long anon_huge, ksm, swap;
	long long private_clean, private_dirty;   /* their sum: the USS */
	long long shared_clean, shared_dirty;     /* pages another process maps too */
	long long uss, shared;    /* Private_*, Shared_* summed (-1: a line missing) */
};

/* /proc/meminfo fields, kB; -1: not printed. */
struct meminfo {
	long long mem_total, mem_free, mem_available, anon_pages, anon_huge;
};

/* /proc/PID/ksm_stat; -1: not printed by this kernel. */
struct ksm_stat {
	long long rmap_items, zero_pages, merging_pages, process_profit;
};

#define PROCMEM_THP_MAX 16

/* The thp_split_* lines of /proc/vmstat, in the kernel's order. */
struct thp_split {
	char name[PROCMEM_THP_MAX][40];
	long long value[PROCMEM_THP_MAX];
	int n;
};

/** smaps_rollup_parse() - @text into @r. 0, or -EINVAL when it has no Rss line. */
int smaps_rollup_parse(const char *text, struct smaps_rollup *r);
/** meminfo_parse() - @text into @m. 0, or -EINVAL without MemAvailable. */
int meminfo_parse(const char *text, struct meminfo *m);
/** ksm_stat_parse() - @text into @k. 0, or -EINVAL when no field is known. */
int ksm_stat_parse(const char *text, struct ksm_stat *k);
/** thp_split_parse() - the thp_split_* counters of @text (vmstat) into @t. 0 or -ENOENT. */
int thp_split_parse(const char *text, struct thp_split *t);

/**
 * procmem_pread() - the whole text of an open /proc file (read again from
 * offset 0, which makes the kernel generate it anew) into @buf. Returns
 * its length or -errno (-E2BIG when it does not fit).
 */
long procmem_pread(int fd, char *buf, size_t len);
/**
 * procmem_read() - the whole text of @path (under the sysroot) into @buf.
 * Returns its length or -errno.
 */
long procmem_read(const char *path, char *buf, size_t len);
/** procmem_ended() - 1 when process @pid has ended (or is a zombie), else 0. */
int procmem_ended(pid_t pid);
/** procmem_ended_here() - procmem_ended() of the real /proc, not the sysroot's. */
int procmem_ended_here(pid_t pid);
/** meminfo_read() - /proc/meminfo into @m. 0 or -errno. */
int meminfo_read(struct meminfo *m);
/**
 * zoneinfo_pcp_parse() - the free pages held on per-CPU lists: the sum of
 * the `count:` lines of @text (/proc/zoneinfo's pagesets), in pages.
 * -EINVAL when it has no such line.
 */
long long zoneinfo_pcp_parse(const char *text);
/**
 * pcp_free_read() - zoneinfo_pcp_parse() of /proc/zoneinfo (under the
 * sysroot), in kB; -errno when unreadable. These pages are free but in
 * neither MemFree nor MemAvailable: since Linux 6.7 a CPU that freed much
 * keeps up to its `high_max` pages (seen here: 120 MB on 2 CPUs after a
 * test's QEMUs exited), hands them out first and lets the rest decay over
 * seconds, so a MemAvailable drop read across that time is off by them.
 */
long long pcp_free_read(void);

#endif
