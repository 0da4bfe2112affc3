// SPDX-License-Identifier: MIT
/*
 * hostmem-memcg.c - what the hostmem probe reads from the instance
 * processes' memory cgroups (hostmem-memcg.h): memory.current (v2) or
 * memory.usage_in_bytes (v1), and memory.stat's anon/rss, file/cache,
 * shmem, unevictable and kernel lines. Side: host.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "hostmem-check.h"
#include "hostmem-memcg.h"
#include "hostmem-metrics.h"
#include "sink.h"

void hm_memcg_open(struct hm_memcg *m, const struct memcg_host *h, pid_t pid)
{
	int others;

	memset(m, 0, sizeof(*m));
	m->usage = -1;
	m->version = h->version;
	if (h->version == MEMCG_NONE) {
		snprintf(m->why, sizeof(m->why), "%s", h->why);
		return;
	}
	if (memcg_of_pid(h, pid, m->path, sizeof(m->path))) {
		snprintf(m->why, sizeof(m->why), "pid %d: its memory cgroup not found in "
			 "/proc/%d/cgroup", (int)pid, (int)pid);
		m->path[0] = '\0';
		return;
	}
	others = memcg_others(m->path, pid);
	if (others) {
		snprintf(m->why, sizeof(m->why), "pid %d shares its memory cgroup %.200s "
			 "(%d other processes): its figure would not be the process's own",
			 (int)pid, m->path, others);
		m->path[0] = '\0';
	}
}

void hm_memcg_sample(struct hm_memcg *m)
{
	if (!m->path[0])
		return;
	m->usage = memcg_usage_kb(m->path, m->version);
	if (m->usage >= 0 && memcg_stat_read(m->path, m->version, &m->st))
		m->usage = -1;
}

static const struct {
	const char *name;
	size_t off;
} stat_fields[] = {
	{ "memcg_anon_kb", offsetof(struct memcg_stat, anon) },
	{ "memcg_file_kb", offsetof(struct memcg_stat, file) },
	{ "memcg_shmem_kb", offsetof(struct memcg_stat, shmem) },
	{ "memcg_unevictable_kb", offsetof(struct memcg_stat, unevictable) },
	{ "memcg_kernel_kb", offsetof(struct memcg_stat, kernel) },
};
#define NSTAT (sizeof(stat_fields) / sizeof(stat_fields[0]))

static long long stat_of(const struct memcg_stat *st, size_t f)
{
	return *(const long long *)((const char *)st + stat_fields[f].off);
}

/* procN.NAME for every process, NAME summed when each has it. */
static void emit_one(struct sink *s, const struct hm_memcg *m, int n, const char *key,
		     long long (*get)(const struct hm_memcg *, size_t), size_t f)
{
	char name[80];
	long long v, sum = 0;
	int i, all = 1;

	for (i = 0; i < n; i++) {
		v = get(&m[i], f);
		if (v < 0) {
			all = 0;
			continue;
		}
		snprintf(name, sizeof(name), "proc%d.%s", i, key);
		sink_metric(s, name, (double)v, "kB");
		sum += v;
	}
	if (all)
		sink_metric(s, key, (double)sum, "kB");
}

static long long get_usage(const struct hm_memcg *m, size_t f)
{
	(void)f;
	return m->usage;
}

static long long get_stat(const struct hm_memcg *m, size_t f)
{
	return m->usage < 0 ? -1 : stat_of(&m->st, f);
}

void hm_memcg_emit(struct sink *s, const struct hm_memcg *m, int n, long long pss_sum,
		   int vms)
{
	char why[400];
	long long usage = 0;
	size_t f;
	int i;

	for (i = 0; i < n; i++) {
		if (m[i].usage >= 0) {
			usage += m[i].usage;
			continue;
		}
		snprintf(why, sizeof(why), "memcg_usage_kb: instance process %d: %s", i,
			 m[i].why[0] ? m[i].why : "its memory cgroup could not be read");
		if (vms)
			sink_skip(s, why);
		else
			sink_note(s, "memcg", why);   /* not started in one: nothing missed */
		return;
	}
	if (!n)
		return;
	sink_note(s, "memcg.version", m[0].version == MEMCG_V2 ? "2" : "1");
	emit_one(s, m, n, HOSTMEM_MEMCG, get_usage, 0);
	for (f = 0; f < NSTAT; f++)
		emit_one(s, m, n, stat_fields[f].name, get_stat, f);
	if (pss_sum < 0)
		return;
	sink_metric(s, "pss_vs_memcg_pct", hostmem_diff_pct(pss_sum, usage), "%");
	sink_metric(s, "flag_memcg_pss_disagree",
		    hostmem_disagree(pss_sum, usage, HOSTMEM_DISAGREE_PCT), "flag");
}
