// SPDX-License-Identifier: MIT
/*
 * procmem.c - parse and read the kernel's memory accounting files
 * (procmem.h): "Name:   value kB" lines (smaps_rollup, meminfo),
 * "name value" lines (ksm_stat, vmstat).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procmem.h"
#include "sysroot.h"

struct field {
	const char *name;         /* up to the ':' or the space */
	size_t offset;            /* of its long long in the struct */
};

/*
 * Each line "NAME: V" or "NAME V" of @text whose NAME is in @f sets the
 * field at @base + offset. Returns how many lines matched.
 */
static int parse_fields(const char *text, const struct field *f, size_t nf, void *base)
{
	const char *line = text;
	int matched = 0;
	size_t i, n;

	while (line && *line) {
		n = strcspn(line, ": \t\n");
		for (i = 0; i < nf; i++) {
			if (strlen(f[i].name) != n || strncmp(line, f[i].name, n))
				continue;
			*(long long *)((char *)base + f[i].offset) =
				strtoll(line + n + strspn(line + n, ": \t"), NULL, 10);
			matched++;
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return matched;
}

#define F(T, name, field) { name, offsetof(T, field) }

int smaps_rollup_parse(const char *text, struct smaps_rollup *r)
{
	static const struct field f[] = {
		F(struct smaps_rollup, "Rss", rss),
		F(struct smaps_rollup, "Pss", pss),
		F(struct smaps_rollup, "Pss_Anon", pss_anon),
		F(struct smaps_rollup, "Pss_File", pss_file),
		F(struct smaps_rollup, "Pss_Shmem", pss_shmem),
		F(struct smaps_rollup, "Anonymous", anonymous),
		F(struct smaps_rollup, "AnonHugePages", anon_huge),
		F(struct smaps_rollup, "KSM", ksm),
		F(struct smaps_rollup, "Swap", swap),
		F(struct smaps_rollup, "Private_Clean", private_clean),
		F(struct smaps_rollup, "Private_Dirty", private_dirty),
		F(struct smaps_rollup, "Shared_Clean", shared_clean),
		F(struct smaps_rollup, "Shared_Dirty", shared_dirty),
	};

	memset(r, 0xff, sizeof(*r));      /* every field -1 */
	parse_fields(text, f, sizeof(f) / sizeof(f[0]), r);
	if (r->private_clean >= 0 && r->private_dirty >= 0)
		r->uss = r->private_clean + r->private_dirty;
	if (r->shared_clean >= 0 && r->shared_dirty >= 0)
		r->shared = r->shared_clean + r->shared_dirty;
	return r->rss < 0 ? -EINVAL : 0;
}

int meminfo_parse(const char *text, struct meminfo *m)
{
	static const struct field f[] = {
		F(struct meminfo, "MemTotal", mem_total),
		F(struct meminfo, "MemFree", mem_free),
		F(struct meminfo, "MemAvailable", mem_available),
		F(struct meminfo, "AnonPages", anon_pages),
		F(struct meminfo, "AnonHugePages", anon_huge),
	};

	memset(m, 0xff, sizeof(*m));
	parse_fields(text, f, sizeof(f) / sizeof(f[0]), m);
	return m->mem_available < 0 ? -EINVAL : 0;
}

int ksm_stat_parse(const char *text, struct ksm_stat *k)
{
	static const struct field f[] = {
		F(struct ksm_stat, "ksm_rmap_items", rmap_items),
		F(struct ksm_stat, "ksm_zero_pages", zero_pages),
		F(struct ksm_stat, "ksm_merging_pages", merging_pages),
		F(struct ksm_stat, "ksm_process_profit", process_profit),
	};

	memset(k, 0xff, sizeof(*k));
	return parse_fields(text, f, sizeof(f) / sizeof(f[0]), k) ? 0 : -EINVAL;
}

int thp_split_parse(const char *text, struct thp_split *t)
{
	const char *line = text;
	size_t n;

	t->n = 0;
	for (; line && *line && t->n < PROCMEM_THP_MAX; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		n = strcspn(line, " \n");
		if (strncmp(line, "thp_split_", 10) || n >= sizeof(t->name[0]) ||
		    line[n] != ' ')
			continue;
		memcpy(t->name[t->n], line, n);
		t->name[t->n][n] = '\0';
		t->value[t->n++] = strtoll(line + n + 1, NULL, 10);
	}
	return t->n ? 0 : -ENOENT;
}

long procmem_pread(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len - 1) {
		n = pread(fd, buf + got, len - 1 - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	return got == len - 1 ? -E2BIG : (long)got;
}

long procmem_read(const char *path, char *buf, size_t len)
{
	int fd = sysroot_open(path, O_RDONLY | O_CLOEXEC);
	long n;

	if (fd < 0)
		return -errno;
	n = procmem_pread(fd, buf, len);
	close(fd);
	return n;
}

int meminfo_read(struct meminfo *m)
{
	char buf[8192];
	long n = procmem_read("/proc/meminfo", buf, sizeof(buf));

	return n < 0 ? (int)n : meminfo_parse(buf, m);
}

long long zoneinfo_pcp_parse(const char *text)
{
	const char *line = text;
	long long pages = 0;
	int seen = 0;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		line += strspn(line, " \t");
		if (strncmp(line, "count:", 6))
			continue;
		pages += strtoll(line + 6, NULL, 10);
		seen = 1;
	}
	return seen ? pages : -EINVAL;
}

long long pcp_free_read(void)
{
	size_t len = 1 << 20;       /* zoneinfo grows with CPUs: 5 kB on 2 here */
	char *buf = malloc(len);
	long long pages;
	long n;

	if (!buf)
		return -ENOMEM;
	n = procmem_read("/proc/zoneinfo", buf, len);
	pages = n < 0 ? n : zoneinfo_pcp_parse(buf);
	free(buf);
	return pages < 0 ? pages : pages * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Whether the /proc/PID/stat open as @fd (-1: not there) says ended. */
static int stat_ended(int fd)
{
	char st[1024], *rp;
	long n = fd < 0 ? -1 : procmem_pread(fd, st, sizeof(st));

	if (fd >= 0)
		close(fd);
	return n <= 0 || !(rp = strrchr(st, ')')) || rp[1] != ' ' || rp[2] == 'Z' ||
	       rp[2] == 'X';
}

/**
 * procmem_ended() - whether process @pid has ended: its /proc/PID/stat
 * (under the sysroot) is gone, or says it is a zombie (Z) or dead (X), as
 * a killed QEMU not yet reaped by cvmbench is. Returns 1 or 0.
 */
int procmem_ended(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	return stat_ended(sysroot_open(path, O_RDONLY | O_CLOEXEC));
}

/**
 * procmem_ended_here() - procmem_ended() of this machine's real /proc,
 * whatever CVMBENCH_SYSROOT says: for a process cvmbench itself started.
 */
int procmem_ended_here(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	return stat_ended(open(path, O_RDONLY | O_CLOEXEC));
}
