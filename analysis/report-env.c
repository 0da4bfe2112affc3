// SPDX-License-Identifier: MIT
/*
 * report-env.c - the environment of the run at the end of the report,
 * grouped by what a reader looks for: CPU, kernel, hypervisor / CVM,
 * idle, memory / KSM, tools, and the rest. Each group can be folded; one
 * of more than FOLD_ROWS facts starts folded. Long values (kernel.cmdline)
 * wrap in the page (report-html.c), the database keeps them whole.
 */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report.h"
#include "summary.h"

#define FOLD_ROWS 12

struct env_group {
	const char *title;
	const char *prefixes[6];      /* key prefixes, NULL-terminated */
};

static const struct env_group groups[] = {
	{ "CPU", { "cpu.", "topology.", "pmu.", NULL } },
	{ "Kernel", { "kernel.", "thp.", "tracefs.", "machine.", NULL } },
	{ "Hypervisor and CVM", { "hypervisor.", "cvm.", "kvm.", "guest.", NULL } },
	{ "Idle", { "cpuidle.", "idle.", NULL } },
	{ "Memory and KSM", { "memory.", "ksm.", NULL } },
	{ "Tools", { "tools.", NULL } },
};

#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

/* The group of @key; NGROUPS for the rest. */
static size_t group_of(const char *key)
{
	size_t g, i;

	for (g = 0; g < NGROUPS; g++)
		for (i = 0; groups[g].prefixes[i]; i++)
			if (!strncmp(key, groups[g].prefixes[i], strlen(groups[g].prefixes[i])))
				return g;
	return NGROUPS;
}

static void env_group(FILE *f, const struct report_ops *ops, const cJSON *env,
		      size_t g, const char *title)
{
	static const char *const head[] = { "key", "value", "source" };
	char summary[96];
	const cJSON *o;
	int n = 0;

	cJSON_ArrayForEach(o, env)
		n += group_of(summary_str(o, "key", "")) == g;
	if (!n)
		return;
	snprintf(summary, sizeof(summary), "%s (%d fact%s)", title, n, n == 1 ? "" : "s");
	ops->fold_begin(f, summary, n <= FOLD_ROWS);
	ops->table_begin(f, head, 3);
	cJSON_ArrayForEach(o, env) {
		const char *row[] = { summary_str(o, "key", "-"), summary_str(o, "value", "-"),
				      summary_str(o, "source", "-") };

		if (group_of(row[0]) == g)
			ops->table_row(f, row, 3);
	}
	ops->table_end(f);
	ops->fold_end(f);
}

/**
 * report_env() - write the Environment section for the facts @env
 * ([{key, value, source}]) of the run @rid (< 0: the one run of the report,
 * report_heading()), grouped and foldable (see the top of this file).
 */
void report_env(FILE *f, const struct report_ops *ops, const cJSON *env, long long rid)
{
	size_t g;

	report_heading(f, ops, rid, "environment", "Environment");
	if (!cJSON_GetArraySize(env)) {
		ops->para(f, "No environment facts were recorded for this run.");
		return;
	}
	for (g = 0; g < NGROUPS; g++)
		env_group(f, ops, env, g, groups[g].title);
	env_group(f, ops, env, NGROUPS, "Other");
}
