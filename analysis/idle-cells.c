// SPDX-License-Identifier: MIT
/*
 * idle-cells.c - per-cell idle-policy numbers of a run, read from the
 * results database: the cell's `idle` key (cell_param; "default" for runs
 * before the key existed), its VM type (idle-cells.h), its measured
 * latencies (quantiles by lib/stats.c), its host-side VM exits
 * (idle-exits.c), and the cell-level metrics of the idle probe
 * (halt_entries_per_invocation, idle_entries) and the cpu probe (burnt,
 * burnt_pct), and where the idle entries came from (cell_param
 * idle.entries_source). Also the study-layout tables built from them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "analysis.h"
#include "cell-series.h"
#include "cpu-metrics.h"
#include "figures.h"
#include "idle-cells.h"
#include "idle-exits.h"
#include "idle-metrics.h"
#include "stats.h"

/* The VM type of a cell (idle-cells.h), from the columns of sql_cells' inner query. */
#define IDLE_VMTYPE CELL_SERIES_VMTYPE("ownvm", "conf", "hv", "backend")
#define IDLE_VMRANK CELL_SERIES_VMRANK("vt")

static const char sql_cells[] =
	"SELECT *, " IDLE_VMRANK " FROM (SELECT *, " IDLE_VMTYPE " AS vt FROM ("
	"SELECT c.id, c.workload, c.size, coalesce(p.value, 'default'), c.experiment, "
	"c.threads, "
	"(SELECT value FROM metric m WHERE m.cell_id = c.id AND m.invocation_id IS NULL "
	" AND m.probe = '" IDLE_PROBE "' AND m.name = '" IDLE_HALT_PER_INVOCATION "'), "
	"(SELECT value FROM metric m WHERE m.cell_id = c.id AND m.invocation_id IS NULL "
	" AND m.probe = '" IDLE_PROBE "' AND m.name = '" IDLE_ENTRIES "'), "
	"(SELECT value FROM metric m WHERE m.cell_id = c.id AND m.invocation_id IS NULL "
	" AND m.probe = '" CPU_PROBE "' AND m.name = '" CPU_BURNT_PCT "'), "
	"(SELECT value FROM metric m WHERE m.cell_id = c.id AND m.invocation_id IS NULL "
	" AND m.probe = '" CPU_PROBE "' AND m.name = '" CPU_BURNT "'), c.probes, "
	"(SELECT value FROM cell_param s WHERE s.cell_id = c.id AND "
	" s.key = '" IDLE_PROBE "." IDLE_NOTE_SOURCE "'), "
	CELL_SERIES_CONF " AS conf, c.backend AS backend, "
	CELL_SERIES_OWNVM " AS ownvm, " CELL_SERIES_HV " AS hv, c.repeat_index AS rep, p.value AS pv "
	"FROM cell c LEFT JOIN cell_param p ON p.cell_id = c.id AND p.key = 'idle' "
	"WHERE c.run_id = ?1 AND c.mode = 'warm')) "
	"ORDER BY 2, 3, 6, 20, "
	"CASE coalesce(pv, 'default') WHEN 'default' THEN 0 WHEN 'hlt' THEN 1 "
	"WHEN 'poll' THEN 3 ELSE 2 END, pv, rep, 1";

static const char sql_lat[] =
	"SELECT latency_ns / 1e6 FROM invocation WHERE cell_id = ?1 AND "
	"phase = 'measured' AND ok = 1 AND latency_ns IS NOT NULL";

static double col_num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN :
	       sqlite3_column_double(st, i);
}

/* Labels keep their text: gp-string.c makes them safe for gnuplot. */
static void col_text(char *dst, size_t len, sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	snprintf(dst, len, "%s", s ? s : "");
}

/* Whether the comma-separated list @probes names @name. */
static int probe_listed(const char *probes, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = probes; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		p += strspn(p, " \t");
		if (!strncmp(p, name, n) && (!p[n] || strchr(", \t", p[n])))
			return 1;
	}
	return 0;
}

/* The latency summary of one cell; 0 with c->n = 0 when it has none. */
static int load_latency(sqlite3 *h, struct idle_cell *c)
{
	struct stats_summary sum;
	sqlite3_stmt *st;
	double *v = NULL, *nv;
	size_t n = 0;
	int rc;

	if (analysis_prepare(h, sql_lat, c->id, &st))
		return -EINVAL;
	while ((rc = analysis_step(st)) == SQLITE_ROW) {
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		v[n++] = sqlite3_column_double(st, 0);
	}
	sqlite3_finalize(st);
	c->n = n;
	if (n) {
		stats_summarize(v, n, &sum);
		c->mean_ms = sum.mean;
		c->median_ms = sum.median;
		c->p25_ms = sum.p25;
		c->p75_ms = sum.p75;
	}
	free(v);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

static void read_cell(sqlite3_stmt *st, struct idle_cell *c)
{
	const char *probes;

	memset(c, 0, sizeof(*c));
	c->id = sqlite3_column_int64(st, 0);
	col_text(c->workload, sizeof(c->workload), st, 1);
	col_text(c->size, sizeof(c->size), st, 2);
	col_text(c->idle, sizeof(c->idle), st, 3);
	col_text(c->experiment, sizeof(c->experiment), st, 4);
	c->threads = sqlite3_column_int(st, 5);
	c->halt_per_inv = col_num(st, 6);
	c->idle_per_inv = col_num(st, 7);
	c->burnt_pct = col_num(st, 8);
	c->burnt_ms = col_num(st, 9);
	probes = (const char *)sqlite3_column_text(st, 10);
	c->idle_probes = probe_listed(probes, IDLE_PROBE) || probe_listed(probes, CPU_PROBE);
	col_text(c->source, sizeof(c->source), st, 11);
	col_text(c->vmtype, sizeof(c->vmtype), st, 18);
	c->vmrank = sqlite3_column_int(st, 19);
	c->source[strcspn(c->source, "(")] = '\0';     /* its name, not the detail */
	while (*c->source && c->source[strlen(c->source) - 1] == ' ')
		c->source[strlen(c->source) - 1] = '\0';
}

int idle_cells_load(sqlite3 *h, int64_t run_id, struct idle_cell **out, size_t *n)
{
	struct idle_cell c, *v = NULL, *nv;
	sqlite3_stmt *st;
	int rc, ret = 0;

	*n = 0;
	if (analysis_prepare(h, sql_cells, run_id, &st))
		return -EINVAL;
	while (!ret && (rc = analysis_step(st)) == SQLITE_ROW) {
		read_cell(st, &c);
		ret = load_latency(h, &c);
		if (ret || !c.n)
			continue;
		ret = idle_exits_load(h, &c);
		c.idle_per_inv /= (double)c.n;
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv) {
			ret = -ENOMEM;
			break;
		}
		v = nv;
		v[(*n)++] = c;
	}
	sqlite3_finalize(st);
	*out = v;
	return ret;
}

int idle_cell_of_policy(const struct idle_cell *c)
{
	return c->idle_probes || (!isnan(c->exits) && strcmp(c->idle, "default"));
}

int idle_vmtypes(const struct idle_cell *v, size_t n)
{
	size_t i, j;
	int k = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && strcmp(v[j].vmtype, v[i].vmtype); j++)
			;
		k += j == i;
	}
	return k;
}

const char *idle_common_source(const struct idle_cell *v, size_t n)
{
	const char *src = "";
	size_t i;

	for (i = 0; i < n; i++) {
		if (isnan(v[i].halt_per_inv) || !v[i].source[0])
			continue;
		if (*src && strcmp(src, v[i].source))
			return NULL;
		src = v[i].source;
	}
	return src;
}

/* The name of policy @idle: its text up to a blank, ',', ':' or '('. */
static int policy_is(const char *idle, const char *name)
{
	size_t n = strcspn(idle, " \t,:(");

	return n == strlen(name) && !strncmp(idle, name, n);
}

unsigned int idle_policy_rgb(const char *idle)
{
	static const struct { const char *name; unsigned int rgb; } map[] = {
		{ "default", 0x888888 }, { "hlt", 0xd62728 }, { "haltpoll", 0xff7f0e },
		{ "poll", 0x1f77b4 }, { "spin", 0x9467bd },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (policy_is(idle, map[i].name))
			return map[i].rgb;
	return 0x8c564b;
}

/* The first skip reason of @probe in @run_id, on one line; 1 if there is one. */
static int skip_reason(sqlite3 *h, int64_t run_id, const char *probe, char *buf,
		       size_t len)
{
	sqlite3_stmt *st;
	int found = 0;

	buf[0] = '\0';
	if (analysis_prepare(h, "SELECT reason FROM skip WHERE run_id = ?1 AND "
			     "probe = ?2 ORDER BY id LIMIT 1", run_id, &st))
		return 0;
	sqlite3_bind_text(st, 2, probe, -1, SQLITE_STATIC);
	if (analysis_step(st) == SQLITE_ROW) {
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0) ?: "");
		found = 1;
	}
	sqlite3_finalize(st);
	return found;             /* control characters: figure_var_text() */
}

void idle_halt_vars(struct figure_ctx *ctx, const struct idle_cell *v, size_t n)
{
	const char *src = idle_common_source(v, n);
	char reason[200], note[260] = "";
	int havehalt = 0;
	size_t i;

	for (i = 0; i < n; i++)
		havehalt |= !isnan(v[i].halt_per_inv);
	if (havehalt)
		;
	else if (skip_reason(ctx->h, ctx->run_id, IDLE_PROBE, reason, sizeof(reason)))
		snprintf(note, sizeof(note), "No halt entries: the idle probe was skipped: %s",
			 reason);
	else
		snprintf(note, sizeof(note), "No halt entries: no cell ran the idle probe.");
	figure_var_int(ctx, "havehalt", havehalt);
	figure_var_str(ctx, "haltsource", src ? src : "");
	figure_var_text(ctx, "haltnote", note, 44);
}
