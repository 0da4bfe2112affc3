// SPDX-License-Identifier: MIT
/*
 * cmd-list.c - `cvmbench list [--json]`: workloads, probes, backends and
 * the experiments in configs/, each with "supported here" or the reason
 * it is not; for an experiment, also the probe skips its run would record
 * ("would skip: PROBE: REASON").
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cell-check.h"
#include "command.h"
#include "config.h"
#include "cvm-host.h"
#include "exitcode.h"
#include "opts.h"
#include "paths.h"
#include "probe.h"
#include "rootfs-list.h"
#include "svc-list.h"
#include "svc-proc.h"
#include "workload-registry.h"

enum { LIST_JSON, LIST_CONFIGS, LIST_KEYS, LIST_MAX_CELLS };

static const struct opt list_opts[] = {
	{ "json", 0, NULL, "machine-readable output", LIST_JSON },
	{ "configs", 1, "DIR", "where the experiment configs are (default configs/)",
	  LIST_CONFIGS },
	{ "keys", 0, NULL, "the config keys: type, default, allowed values", LIST_KEYS },
	{ "max-cells", 1, "N", "a config of more than N cells is an error (default "
	  CONFIG_MAX_CELLS_STR ")", LIST_MAX_CELLS },
	OPT_END
};

struct list_args {
	int json;
	int keys;
	const char *configs;
	size_t max_cells;
};

static int on_list_opt(void *ctx, int id, const char *arg)
{
	struct list_args *a = ctx;

	if (id == LIST_JSON)
		a->json = 1;
	else if (id == LIST_KEYS)
		a->keys = 1;
	else if (id == LIST_MAX_CELLS)
		return opts_count("list", "max-cells", arg, &a->max_cells);
	else
		a->configs = arg;
	return 0;
}

static const char *const key_type_names[] = {
	[KEY_STRING] = "text", [KEY_INT] = "int", [KEY_DOUBLE] = "number",
	[KEY_ENUM] = "enum", [KEY_NAME] = "name", [KEY_LIST] = "list",
	[KEY_BACKEND] = "enum",
};

/* Allowed values of the name keys, written as the enums' are ("a|b|c"). */
static const char *const name_allowed[][2] = {
	{ "workload", "a workload of cvmbench list" },
	{ "wait", "spin|block|hybrid[:US]" },
	{ "idle", "default|hlt|poll|spin|haltpoll:NANOSECONDS" },
	{ "probes", "probes of cvmbench list, comma-separated" },
};

/* The allowed values of @k in one notation into @buf ("" when any value). */
static void key_allowed(const struct config_key *k, char *buf, size_t len)
{
	size_t i;

	buf[0] = '\0';
	if (k->type == KEY_BACKEND)
		backend_names(buf, len);
	else if (k->allowed)
		snprintf(buf, len, "%s", k->allowed);
	else if (k->type == KEY_INT || k->type == KEY_DOUBLE)
		snprintf(buf, len, "%.10g..%.10g", k->min, k->max);
	for (i = 0; i < sizeof(name_allowed) / sizeof(name_allowed[0]); i++)
		if (!strcmp(k->name, name_allowed[i][0]))
			snprintf(buf, len, "%s", name_allowed[i][1]);
}

/* @help without a trailing ": a, b, c" that repeats the allowed values. */
static void key_about(const struct config_key *k, char *buf, size_t len)
{
	const char *colon = strstr(k->help, ": ");
	size_t i;

	snprintf(buf, len, "%s", k->help);
	for (i = 0; i < sizeof(name_allowed) / sizeof(name_allowed[0]); i++)
		if (!strcmp(k->name, name_allowed[i][0]) && colon &&
		    (size_t)(colon - k->help) < len)
			buf[colon - k->help] = '\0';
}

static cJSON *key_item(const char *name, const char *type, const char *def, int dim,
		       const char *allowed, const char *about)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "type", type);
	cJSON_AddStringToObject(o, "default", def);
	cJSON_AddBoolToObject(o, "dimension", dim);
	cJSON_AddStringToObject(o, "allowed", allowed);
	cJSON_AddStringToObject(o, "about", about);
	return o;
}

static void list_keys(cJSON *arr)
{
	char allowed[512], about[256];
	size_t i;

	for (i = 0; i < config_key_count; i++) {
		const struct config_key *k = &config_keys[i];

		key_allowed(k, allowed, sizeof(allowed));
		key_about(k, about, sizeof(about));
		cJSON_AddItemToArray(arr, key_item(k->name, key_type_names[k->type],
						   k->def ? k->def : "(required)", k->matrix,
						   allowed, about));
	}
	/* in every cell's spec and cell_param, set by cvmbench: not config keys */
	cJSON_AddItemToArray(arr, key_item("experiment", "name", "(set)", 0, "",
					   "set from [experiment NAME]; the cell key's prefix"));
	cJSON_AddItemToArray(arr, key_item("repeat", "int", "(set)", 0, "0..repeats-1",
					   "which repeat of the cell this is (set per cell "
					   "from repeats; cell.repeat_index in the database)"));
}

static void print_keys(const cJSON *arr)
{
	const cJSON *o;

	printf("%-17s %-6s %-12s %-3s %-28s %s\n", "KEY", "TYPE", "DEFAULT", "DIM",
	       "ALLOWED", "MEANING");
	cJSON_ArrayForEach(o, arr)
		printf("%-17s %-6s %-12s %-3s %-28s %s\n",
		       cJSON_GetObjectItem(o, "name")->valuestring,
		       cJSON_GetObjectItem(o, "type")->valuestring,
		       cJSON_GetObjectItem(o, "default")->valuestring,
		       cJSON_IsTrue(cJSON_GetObjectItem(o, "dimension")) ? "yes" : "no",
		       cJSON_GetObjectItem(o, "allowed")->valuestring,
		       cJSON_GetObjectItem(o, "about")->valuestring);
	printf("\nDIM yes: a comma list of values (threads = 1, 2, 4) makes a dimension of\n"
	       "the experiment's matrix, one cell per value; no: one value for every cell.\n"
	       "ALLOWED: a|b|c one of these names, MIN..MAX a number in this range.\n"
	       "(set): set by cvmbench in every cell, not written in a config.\n");
}

static void print_json(const cJSON *root)
{
	char *s = cJSON_Print(root);

	puts(s);
	free(s);
}

static int cmd_list_keys(int json)
{
	cJSON *arr = cJSON_CreateArray();

	list_keys(arr);
	if (json)
		print_json(arr);
	else
		print_keys(arr);
	cJSON_Delete(arr);
	return EXIT_OK;
}

static cJSON *item(cJSON *arr, const char *name, const char *about, const char *why)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "about", about);
	cJSON_AddBoolToObject(o, "supported", !why || !*why);
	if (why && *why)
		cJSON_AddStringToObject(o, "reason", why);
	cJSON_AddItemToArray(arr, o);
	return o;
}

static void list_workloads(cJSON *arr)
{
	size_t i;

	for (i = 0; i < workload_count(); i++) {
		const struct workload_info *w = workload_at(i);
		cJSON *o = item(arr, w->name, w->description, NULL);

		cJSON_AddStringToObject(o, "origin", w->origin);
	}
}

/*
 * The system suite's services (svc-list.h): whether they run natively here,
 * or the program missing (runc, crun and qemu cells run them from the
 * `system` rootfs: see the rootfs section).
 */
static void list_services(cJSON *arr)
{
	char why[256], dir[PATH_MAX];
	int i;

	for (i = 0; i < svc_count(); i++) {
		const struct svc_info *s = svc_at(i);
		cJSON *o;

		why[0] = '\0';
		o = item(arr, s->name, s->help,
			 svc_found(s, exe_dir(dir, sizeof(dir)) ? NULL : dir, why, sizeof(why)) ?
			 NULL : why);
		cJSON_AddStringToObject(o, "parser", s->parser);
	}
}

static void list_probes(cJSON *arr)
{
	char why[256];
	size_t i;

	for (i = 0; i < probe_count(); i++) {
		const struct probe_ops *p = probe_at(i);

		why[0] = '\0';
		item(arr, p->name, p->measures, probe_supported(p, why, sizeof(why)) ? NULL : why);
	}
}

/* What this host offers each confidential guest type (backend = qemu). */
static void list_confidential(cJSON *arr)
{
	static const char *const types[][2] = {
		{ "sev-snp", "AMD SEV-SNP guest (confidential = sev-snp)" },
		{ "tdx", "Intel TDX guest (confidential = tdx)" },
	};
	char why[2048];
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (cvm_host_check(types[i][0], NULL, NULL, why, sizeof(why)))
			why[0] = '\0';
		item(arr, types[i][0], types[i][1], why);
	}
}

/* How many cells share each distinct reason (as many as fit; the rest counted). */
#define TALLY_REASONS 16
struct reason_tally {
	size_t total, distinct, other;
	struct {
		char why[512];
		size_t n;
	} r[TALLY_REASONS];
};

/*
 * Cells of one experiment that cannot run, and the probe skips ("PROBE:
 * REASON", each counted once per cell) the others would record.
 */
struct cell_tally {
	size_t count, probe_cells;
	struct reason_tally unsupported, probe;
};

static void reason_add(struct reason_tally *t, const char *why)
{
	size_t i;

	t->total++;
	for (i = 0; i < t->distinct; i++)
		if (!strcmp(t->r[i].why, why)) {
			t->r[i].n++;
			return;
		}
	if (t->distinct == TALLY_REASONS) {
		t->other++;
		return;
	}
	snprintf(t->r[t->distinct].why, sizeof(t->r[0].why), "%s", why);
	t->r[t->distinct++].n = 1;
}

/* A cell_probe_skip_fn: one probe skip of a cell, as "PROBE: REASON". */
static void probe_skip_add(void *ctx, const char *probe, const char *why)
{
	char key[512];

	snprintf(key, sizeof(key), "%s: %s", probe, why);
	reason_add(ctx, key);
}

/* The same checks as `run` (cell-check.c), so both give the same reasons. */
static void tally_cell(const struct cell *c, struct cell_tally *t)
{
	char why[512];

	t->count++;
	if (!cell_runnable(c, why, sizeof(why)))
		reason_add(&t->unsupported, why);
	else if (cell_probe_skips(c, probe_skip_add, &t->probe))
		t->probe_cells++;
}

/* "A" for one reason; "A (2 cells); B (1 cell)" for several. */
static size_t reasons_text(const struct reason_tally *t, char *out, size_t len)
{
	size_t i, used = 0;

	for (i = 0; i < t->distinct && used < len; i++) {
		if (t->distinct == 1 && !t->other)
			used += (size_t)snprintf(out + used, len - used, "%s", t->r[i].why);
		else
			used += (size_t)snprintf(out + used, len - used, "%s%s (%zu cell%s)",
						 i ? "; " : "", t->r[i].why, t->r[i].n,
						 t->r[i].n == 1 ? "" : "s");
	}
	if (t->other && used < len)
		used += (size_t)snprintf(out + used, len - used, "; other reasons (%zu cells)",
					 t->other);
	return used < len ? used : len;
}

/* "would skip: P: R[ (N of M cells)]" for each probe skip, "; " between. */
static size_t probe_skips_text(const struct cell_tally *t, char *out, size_t len)
{
	const struct reason_tally *p = &t->probe;
	size_t i, used = 0;
	char part[64];

	for (i = 0; i < p->distinct && used < len; i++) {
		part[0] = '\0';
		if (p->r[i].n < t->count)
			snprintf(part, sizeof(part), " (%zu of %zu cells)", p->r[i].n, t->count);
		used += (size_t)snprintf(out + used, len - used, "%swould skip: %s%s",
					 i ? "; " : "", p->r[i].why, part);
	}
	if (p->other && used < len)
		used += (size_t)snprintf(out + used, len - used, "; would skip: other probes "
					 "(%zu more)", p->other);
	return used < len ? used : len;
}

/*
 * "" when every cell runs with every probe; else which cells do not run
 * and why, then the probe skips the others would record: "supported here,
 * would skip: vmexit: R" when every cell runs.
 */
static void tally_reason(const struct cell_tally *t, char *why, size_t len)
{
	size_t used = 0;

	why[0] = '\0';
	if (t->unsupported.total && t->unsupported.total < t->count)
		used = (size_t)snprintf(why, len, "%zu of %zu cells not here: ",
					t->unsupported.total, t->count);
	if (t->unsupported.total && used < len)
		used += reasons_text(&t->unsupported, why + used, len - used);
	if (t->probe.total && used < len)
		used += (size_t)snprintf(why + used, len - used, "%s",
					 used ? "; " : "supported here, ");
	if (t->probe.total && used < len)
		probe_skips_text(t, why + used, len - used);
}

/*
 * [{"reason": R, "cells": N}, ...]: each distinct reason and its count;
 * with @probe, "probe" too, split from the "PROBE: REASON" it was kept as.
 */
static void add_reasons(cJSON *o, const char *key, const struct reason_tally *t, int probe)
{
	cJSON *arr = cJSON_AddArrayToObject(o, key), *r;
	const char *sep;
	char name[64];
	size_t i;

	for (i = 0; i < t->distinct; i++) {
		r = cJSON_CreateObject();
		sep = probe ? strstr(t->r[i].why, ": ") : NULL;
		if (sep) {
			snprintf(name, sizeof(name), "%.*s", (int)(sep - t->r[i].why),
				 t->r[i].why);
			cJSON_AddStringToObject(r, "probe", name);
		}
		cJSON_AddStringToObject(r, "reason", sep ? sep + 2 : t->r[i].why);
		cJSON_AddNumberToObject(r, "cells", (double)t->r[i].n);
		cJSON_AddItemToArray(arr, r);
	}
	if (t->other) {
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "reason", "other reasons");
		cJSON_AddNumberToObject(r, "cells", (double)t->other);
		cJSON_AddItemToArray(arr, r);
	}
}

static void describe_experiment(cJSON *arr, const char *file,
				const struct config_section *s, const struct cell *cells,
				size_t n)
{
	struct cell_tally t = { 0 };
	char why[8192], name[400];
	const char *desc = "";
	size_t i;
	cJSON *o;

	for (i = 0; i < s->nentries; i++)
		if (!strcmp(s->entries[i].key, "description"))
			desc = s->entries[i].value;
	for (i = 0; i < n; i++)
		if (!strcmp(cells[i].experiment, s->name))
			tally_cell(&cells[i], &t);
	tally_reason(&t, why, sizeof(why));
	snprintf(name, sizeof(name), "%s:%s", file, s->name);
	o = item(arr, name, desc, why);
	cJSON_AddNumberToObject(o, "cells", (double)t.count);
	cJSON_AddNumberToObject(o, "cells_unsupported", (double)t.unsupported.total);
	/* cells that run but would record a probe skip; each skip and its cells */
	cJSON_AddNumberToObject(o, "cells_probe_skips", (double)t.probe_cells);
	add_reasons(o, "unsupported_reasons", &t.unsupported, 0);
	add_reasons(o, "probe_skip_reasons", &t.probe, 1);
}

static void list_config(cJSON *arr, const char *dir, const char *file, size_t max_cells)
{
	char path[PATH_MAX], err[1600];
	struct config *cfg;
	struct cell *cells;
	size_t n, i;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (config_load(path, &cfg, err, sizeof(err))) {
		item(arr, file, "", err);
		return;
	}
	if (max_cells)
		cfg->max_cells = max_cells;
	if (config_expand(cfg, &cells, &n, err, sizeof(err))) {
		item(arr, file, "", err);
		config_free(cfg);
		return;
	}
	for (i = 0; i < cfg->nsections; i++)
		if (!cfg->sections[i].is_defaults)
			describe_experiment(arr, file, &cfg->sections[i], cells, n);
	config_cells_free(cells, n);
	config_free(cfg);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_ini(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && !strcmp(d->d_name + n - 4, ".ini");
}

static void list_configs(cJSON *arr, const char *dir, size_t max_cells)
{
	struct dirent **names;
	int n = scandir(dir, &names, is_ini, by_name), i;

	for (i = 0; i < n; i++) {
		list_config(arr, dir, names[i]->d_name, max_cells);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

static void print_section(const char *title, const cJSON *arr)
{
	const cJSON *o;

	printf("%s:\n", title);
	cJSON_ArrayForEach(o, arr) {
		const cJSON *why = cJSON_GetObjectItem(o, "reason");

		printf("  %-40s %s\n", cJSON_GetObjectItem(o, "name")->valuestring,
		       why ? why->valuestring : "supported here");
	}
}

int cmd_list(int argc, char **argv)
{
	struct list_args a = { 0 };
	char configs[PATH_MAX];
	cJSON *root, *w, *p, *e;
	int first, ret = opts_parse(argc, argv, "list [--json] [--keys] [--configs DIR] [--max-cells N]", list_opts, on_list_opt, &a,
				    &first);

	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (a.keys)
		return cmd_list_keys(a.json);
	if (!a.configs) {
		find_configs_dir(configs, sizeof(configs));
		a.configs = configs;
	}
	root = cJSON_CreateObject();
	w = cJSON_AddArrayToObject(root, "workloads");
	p = cJSON_AddArrayToObject(root, "probes");
	e = cJSON_AddArrayToObject(root, "experiments");
	list_workloads(w);
	list_services(cJSON_AddArrayToObject(root, "services"));
	list_probes(p);
	list_configs(e, a.configs, a.max_cells);
	list_confidential(cJSON_AddArrayToObject(root, "confidential"));
	rootfs_list_json(cJSON_AddArrayToObject(root, "rootfs"), a.configs);
	if (a.json) {
		print_json(root);
	} else {
		print_section("workloads", w);
		print_section("services (the system suite: workload = NAME; supported here = natively; "
			      "runc, crun and qemu cells need the system rootfs)",
			      cJSON_GetObjectItem(root, "services"));
		print_section("probes", p);
		print_section("experiments", e);
		print_section("confidential guests (backend = qemu; a cell also needs its firmware)",
			      cJSON_GetObjectItem(root, "confidential"));
		print_section("rootfs (configs/rootfs/*.list; supported here = built here)",
			      cJSON_GetObjectItem(root, "rootfs"));
	}
	cJSON_Delete(root);
	return EXIT_OK;
}
