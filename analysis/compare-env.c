// SPDX-License-Identifier: MIT
/*
 * compare-env.c - what differs between the two sides of a pair, apart from
 * the pairing dimension: every environment fact of their runs (CPU model,
 * microcode, kernel, cmdline, QEMU, cpuidle driver, THP, ...), the
 * cvmbench version and vantage of the runs, and the notes of their cells
 * (cell_param keys with a dot: how a probe measured, the guest image, ...).
 * Each run and cell is compared with the first baseline cell and its run.
 *
 * Not compared: facts that change from one moment to the next (free
 * memory, KSM counters, whether tracefs was mounted), the machine's
 * identity and a merge's origin (two machines are the point of a cloud
 * pair), notes that name a process (*.agent); and, when pairing by
 * confidential, the facts a CVM changes by being one (cvm.*, the sev and
 * tdx_guest CPU flags, the highest CPUID leaves, which the TDX module and
 * SEV firmware filter, MemTotal, which a CVM kernel lowers by its bounce
 * buffers and unaccepted memory).
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare.h"

static const char *const volatile_facts[] = {
	"memory.available", "memory.hugepages.free", "ksm.pages_*", "ksm.full_scans",
	"ksm.general_profit", "ksm.ksm_zero_pages", "ksm.stable_node_*",
	"tracefs.mounted", "tracefs.mounted_by_run", "machine.*", "merge.*", "*.agent",
	/* which cells a run was asked for (run --shard, --only): not the machine */
	"run.shard", "run.only",
	NULL
};

static const char *const cvm_facts[] = {
	"cvm.*", "cpu.flag.sev", "cpu.flag.sev_es", "cpu.flag.sev_snp",
	"cpu.flag.tdx_guest", "cpu.cpuid_max_leaf", "cpu.cpuid_max_ext_leaf",
	"memory.total", "guest.cvm.type", NULL
};

static int listed(const char *const *pat, const char *key)
{
	for (; *pat; pat++)
		if (!fnmatch(*pat, key, 0))
			return 1;
	return 0;
}

static int ignored(const char *key, const struct cmp_opts *o)
{
	return listed(volatile_facts, key) ||
	       (!strcmp(o->pair_by, "confidential") && listed(cvm_facts, key));
}

/* Add "KEY: 'A' vs 'B'" to @out unless a line for KEY is there already. */
static void differ(cJSON *out, const char *key, const char *a, const char *b)
{
	char line[1024];
	size_t kl = strlen(key);
	const cJSON *e;

	cJSON_ArrayForEach(e, out)
		if (!strncmp(e->valuestring, key, kl) && e->valuestring[kl] == ':')
			return;
	snprintf(line, sizeof(line), "%s: %s%s%s vs %s%s%s", key, a ? "'" : "",
		 a ? a : "absent", a ? "'" : "", b ? "'" : "", b ? b : "absent", b ? "'" : "");
	cJSON_AddItemToArray(out, cJSON_CreateString(line));
}

/* Facts of @a missing or different in @b, and facts of @b missing in @a. */
static void diff_kv(const struct cmp_kv *a, size_t na, const struct cmp_kv *b, size_t nb,
		    const struct cmp_opts *o, int both_only, cJSON *out)
{
	const char *v;
	size_t i;

	for (i = 0; i < na; i++) {
		if (ignored(a[i].key, o))
			continue;
		v = cmp_kv_get(b, nb, a[i].key);
		if ((v || !both_only) && (!v || strcmp(v, a[i].value)))
			differ(out, a[i].key, a[i].value, v);
	}
	for (i = 0; i < nb && !both_only; i++)
		if (!ignored(b[i].key, o) && !cmp_kv_get(a, na, b[i].key))
			differ(out, b[i].key, NULL, b[i].value);
}

static void diff_runs(const struct cmp_run *a, const struct cmp_run *b,
		      const struct cmp_opts *o, cJSON *out)
{
	if (a == b)
		return;
	if (strcmp(a->version, b->version))
		differ(out, "run.cvmbench_version", a->version, b->version);
	if (strcmp(a->vantage, b->vantage))
		differ(out, "run.vantage", a->vantage, b->vantage);
	diff_kv(a->env, a->nenv, b->env, b->nenv, o, 0, out);
}

static void diff_side(const struct cmp_data *d, const struct cmp_cell *ref,
		      const struct cmp_side *s, const struct cmp_opts *o, cJSON *out)
{
	const struct cmp_cell *c;
	size_t i;

	for (i = 0; i < s->n; i++) {
		c = &d->cells[s->cells[i]];
		diff_runs(&d->runs[ref->run], &d->runs[c->run], o, out);
		/* a note one side has and the other lacks is a probe run on one side only */
		diff_kv(ref->notes, ref->nnotes, c->notes, c->nnotes, o, 1, out);
	}
}

/**
 * cmp_env_diff() - add to the array @out one line "KEY: 'A' vs 'B'" per
 * fact in which a cell of @a or @b (or its run) differs from the first
 * cell of @a, apart from the pairing dimension and the facts listed above.
 * Returns the number of lines in @out.
 */
int cmp_env_diff(const struct cmp_data *d, const struct cmp_side *a,
		 const struct cmp_side *b, const struct cmp_opts *o, cJSON *out)
{
	const struct cmp_cell *ref = &d->cells[a->cells[0]];

	diff_side(d, ref, a, o, out);
	diff_side(d, ref, b, o, out);
	return cJSON_GetArraySize(out);
}
