// SPDX-License-Identifier: MIT
/*
 * zygote-mem.c - zygote-mem.h: /proc/PID/maps gives the ranges, pagemap
 * one 64-bit entry per page (bit 63 present, bits 0-54 the frame);
 * smaps_rollup the PSS, USS and Private_Dirty; stat the parent. Linked
 * by cvmbench (backend zygote) and the guest agent (agent-seed.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procmem.h"
#include "zygote-mem.h"

#define PM_PRESENT (1ULL << 63)
#define PM_PFN ((1ULL << 55) - 1)

typedef int (*frame_fn)(void *ctx, uint64_t pfn);

/* Call @fn on the frame of every present page of one range. */
static int walk_range(int pm, unsigned long lo, unsigned long hi, long page, frame_fn fn,
		      void *ctx)
{
	uint64_t e[512];
	unsigned long a;

	for (a = lo; a < hi;) {
		size_t want = (hi - a) / (unsigned long)page, i;
		ssize_t n;

		if (want > 512)
			want = 512;
		n = pread(pm, e, want * 8, (off_t)(a / (unsigned long)page * 8));
		if (n <= 0)
			return 0;     /* [vsyscall] and the like: not readable */
		for (i = 0; i < (size_t)n / 8; i++)
			if ((e[i] & PM_PRESENT) && fn(ctx, e[i] & PM_PFN))
				return -ENOMEM;
		a += (unsigned long)n / 8 * (unsigned long)page;
	}
	return 0;
}

/* Every present page of @pid through @fn. 0 or -errno. */
static int walk_frames(pid_t pid, frame_fn fn, void *ctx)
{
	char path[64], line[512];
	long page = sysconf(_SC_PAGESIZE);
	unsigned long lo, hi;
	FILE *maps;
	int pm, ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	maps = fopen(path, "re");
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	pm = open(path, O_RDONLY | O_CLOEXEC);
	if (!maps || pm < 0) {
		ret = -errno;
		goto out;
	}
	while (!ret && fgets(line, sizeof(line), maps))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			ret = walk_range(pm, lo, hi, page, fn, ctx);
out:
	if (maps)
		fclose(maps);
	if (pm >= 0)
		close(pm);
	return ret;
}

struct grow {
	struct frame_set *fs;
	size_t cap;
	int nonzero;
};

static int add_frame(void *ctx, uint64_t pfn)
{
	struct grow *g = ctx;

	if (g->fs->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 4096;
		uint64_t *p = realloc(g->fs->pfn, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		g->fs->pfn = p;
		g->cap = cap;
	}
	g->fs->pfn[g->fs->n++] = pfn;
	g->nonzero |= pfn != 0;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int frame_set_load(pid_t pid, struct frame_set *fs)
{
	struct grow g = { .fs = fs };
	size_t i, u = 0;
	int ret;

	memset(fs, 0, sizeof(*fs));
	ret = walk_frames(pid, add_frame, &g);
	if (!ret && fs->n && !g.nonzero)
		ret = -EPERM;
	if (ret) {
		frame_set_free(fs);
		return ret;
	}
	qsort(fs->pfn, fs->n, sizeof(*fs->pfn), cmp_u64);
	for (i = 0; i < fs->n; i++)
		if (!u || fs->pfn[u - 1] != fs->pfn[i])
			fs->pfn[u++] = fs->pfn[i];
	fs->n = u;
	return 0;
}

void frame_set_free(struct frame_set *fs)
{
	free(fs->pfn);
	fs->pfn = NULL;
	fs->n = 0;
}

struct common {
	const struct frame_set *fs;
	long long pages;
};

static int count_common(void *ctx, uint64_t pfn)
{
	struct common *c = ctx;

	if (bsearch(&pfn, c->fs->pfn, c->fs->n, sizeof(pfn), cmp_u64))
		c->pages++;
	return 0;
}

long long frame_set_common_kb(pid_t pid, const struct frame_set *fs)
{
	struct common c = { .fs = fs };
	int ret = walk_frames(pid, count_common, &c);

	return ret ? ret : c.pages * (sysconf(_SC_PAGESIZE) / 1024);
}

void proc_mem_read(pid_t pid, struct proc_mem *m)
{
	char path[64], text[4096];
	struct smaps_rollup r;

	m->pss_kb = m->uss_kb = m->private_dirty_kb = -1;
	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	if (procmem_read(path, text, sizeof(text)) < 0 || smaps_rollup_parse(text, &r))
		return;
	m->pss_kb = r.pss;
	m->private_dirty_kb = r.private_dirty;
	if (r.private_clean >= 0 && r.private_dirty >= 0)
		m->uss_kb = r.private_clean + r.private_dirty;
}

/* The parent of @pid from /proc/PID/stat (after the command's ')'), or -1. */
static long long parent_of(pid_t pid)
{
	char path[64], text[1024], *p;
	long long ppid;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (procmem_read(path, text, sizeof(text)) < 0 || !(p = strrchr(text, ')')))
		return -1;
	return sscanf(p + 1, " %*c %lld", &ppid) == 1 ? ppid : -1;
}

int seed_mem_sample(pid_t seed, const pid_t *kids, int n, struct seed_child_mem *out,
		    long long *seed_pss_kb)
{
	struct frame_set fs;
	struct proc_mem m;
	int i, frames = frame_set_load(seed, &fs);

	proc_mem_read(seed, &m);
	*seed_pss_kb = m.pss_kb;
	for (i = 0; i < n; i++) {
		out[i].pid = kids[i];
		out[i].ppid = parent_of(kids[i]);
		proc_mem_read(kids[i], &out[i].m);
		out[i].seed_shared_kb = frames ? -1 : frame_set_common_kb(kids[i], &fs);
		if (out[i].seed_shared_kb < 0)
			out[i].seed_shared_kb = -1;
	}
	if (!frames)
		frame_set_free(&fs);
	return frames;
}

const char *seed_mem_why(int frames)
{
	return frames == -EPERM ? "not measured: /proc/PID/pagemap gives no frame numbers "
		"without CAP_SYS_ADMIN" : "not measured: /proc/PID/pagemap unreadable";
}
