// SPDX-License-Identifier: MIT
/*
 * plan-inputs.c - a plan's measurements from the database (plan-inputs.h).
 * A platform's cells: the current row of each (run, cell key), status ok,
 * of the plan's run (or every run), whose backend, confidential type as
 * obtained (analysis/cell-series.h: what the guest reported, else what the
 * cell asked for; a model's regular guest is "model") and KSM setting
 * (absent: unchanged) match the [platform] section. Per cell of the
 * function (never a step of `cvmbench minmem`, experiment minmem-step: its
 * memory is squeezed on purpose; never a replay cell: its calls follow a
 * trace through a pool):
 *   memory   mode = warm cells: the hostmem probe's cell-window figure,
 *            memcg_usage_kb where the cell has it, else pss_kb (both sums
 *            over the cell's processes), divided by the cell's instances:
 *            one warm instance as the cell ran it (a VM holding k
 *            instances counts 1/k of its VM for each); with the
 *            platform's memory = minmem instead the function's minimum
 *            guest memory on the platform's VM type, the newest answer of
 *            `cvmbench minmem` (table minmem): what a VM provisioned as
 *            the study provisions it holds (QEMU's own memory not counted)
 *   cold     container starts (runc_start.cold_start_ns: fork to the first
 *            reply); else VM boots (vm_boot ready - qemu-spawn, host clock)
 *            plus the cell's first successful call; else the measured,
 *            successful cold calls (latency_ns)
 *   warm     the measured, successful warm calls (latency_ns)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "cell-series.h"
#include "exitcode.h"
#include "hostmem-metrics.h"
#include "log.h"
#include "plan-inputs.h"

#define CELLS_CTE \
	"WITH c0 AS (SELECT c.id, c.run_id, c.cell_key, c.workload, c.backend, c.mode," \
	" c.instances, " CELL_SERIES_CONF " AS conf," \
	" COALESCE(" CELL_SERIES_PARAM("ksm") ", 'unchanged') AS ksm FROM cell c" \
	" WHERE c.id IN (SELECT max(id) FROM cell GROUP BY run_id, cell_key)" \
	" AND c.status = 'ok' AND (?1 = 0 OR c.run_id = ?1)" \
	" AND c.experiment != 'minmem-step' AND NOT EXISTS (SELECT 1 FROM cell_param" \
	"  WHERE cell_id = c.id AND key = 'replay-schedule' AND value != ''))," \
	" pc AS (SELECT * FROM c0 WHERE (?2 = '' OR backend = ?2)" \
	" AND (?3 = '' OR conf = ?3) AND (?4 = '' OR ksm = ?4)) "

static const char sql_workloads[] = CELLS_CTE "SELECT DISTINCT workload FROM pc";
static const char sql_cells[] = CELLS_CTE
	"SELECT id, run_id, cell_key, mode, instances FROM pc WHERE workload = ?5 ORDER BY id";
static const char sql_mem[] =
	"SELECT name, value FROM metric WHERE cell_id = ?1 AND probe = '" HOSTMEM_PROBE "'"
	" AND invocation_id IS NULL AND name IN ('" HOSTMEM_MEMCG "', '" HOSTMEM_PSS "')"
	" ORDER BY name = '" HOSTMEM_PSS "'";
static const char sql_warm[] =
	"SELECT latency_ns FROM invocation WHERE cell_id = ?1 AND start = 'warm'"
	" AND phase = 'measured' AND ok = 1 AND latency_ns IS NOT NULL";
#define HAS_RUNC "EXISTS (SELECT 1 FROM runc_start WHERE cell_id = ?1 AND cold_start_ns IS NOT NULL)"
#define FIRST_CALL "(SELECT latency_ns FROM invocation WHERE cell_id = ?1 AND ok = 1" \
	" AND latency_ns IS NOT NULL ORDER BY seq, id LIMIT 1)"
#define BOOTS "FROM vm_boot b JOIN vm_boot s ON s.cell_id = b.cell_id AND s.vm_idx = b.vm_idx" \
	" AND s.phase = 'qemu-spawn' AND s.clock = 'host-monotonic' WHERE b.cell_id = ?1" \
	" AND b.phase = 'ready' AND b.clock = 'host-monotonic'"
static const char sql_cold[] =
	"SELECT 'runc_start', cold_start_ns FROM runc_start WHERE cell_id = ?1"
	" AND cold_start_ns IS NOT NULL "
	"UNION ALL SELECT 'vm_boot+first-call', b.t_ns - s.t_ns + " FIRST_CALL " " BOOTS
	" AND NOT " HAS_RUNC " AND " FIRST_CALL " IS NOT NULL "
	"UNION ALL SELECT 'cold-invocation', latency_ns FROM invocation WHERE cell_id = ?1"
	" AND start = 'cold' AND phase = 'measured' AND ok = 1 AND latency_ns IS NOT NULL"
	" AND NOT " HAS_RUNC " AND NOT EXISTS (SELECT 1 " BOOTS ")";

static int prep(sqlite3 *h, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(h, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	pr_err("plan: reading the database: %s", sqlite3_errmsg(h));
	return EXIT_FAILED;
}

static void bind_platform(sqlite3_stmt *st, const struct plan_config *c, int p)
{
	sqlite3_bind_int64(st, 1, c->run_id);
	sqlite3_bind_text(st, 2, c->plat[p].backend, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, c->plat[p].conf, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, c->plat[p].ksm, -1, SQLITE_STATIC);
}

static int push(double **v, size_t *n, double x)
{
	double *p = realloc(*v, (*n + 1) * sizeof(**v));

	if (!p)
		return -ENOMEM;
	p[(*n)++] = x;
	*v = p;
	return 0;
}

/* Append ",@x" (or "@x") to the list @s unless it is there. */
static int list_add(char **s, long long x)
{
	char item[32], *p;
	size_t len = *s ? strlen(*s) : 0;

	snprintf(item, sizeof(item), "%lld", x);
	if (*s) {
		char pat[34];

		snprintf(pat, sizeof(pat), ",%s,", item);
		p = malloc(len + 3);
		if (!p)
			return -ENOMEM;
		snprintf(p, len + 3, ",%s,", *s);
		len = !!strstr(p, pat);
		free(p);
		if (len)
			return 0;
		len = strlen(*s);
	}
	p = realloc(*s, len + strlen(item) + 2);
	if (!p)
		return -ENOMEM;
	snprintf(p + len, strlen(item) + 2, "%s%s", len ? "," : "", item);
	*s = p;
	return 0;
}

/* The rows of @st (bound to @cell) as seconds from ns into @v; the source into @src. */
static int read_ns(sqlite3_stmt *st, sqlite3_int64 cell, int col, double **v, size_t *n,
		   char *src, size_t srclen)
{
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, cell);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *s = col ? (const char *)sqlite3_column_text(st, 0) : NULL;

		if (push(v, n, sqlite3_column_double(st, col) / 1e9))
			return -ENOMEM;
		if (s && !strstr(src, s))
			snprintf(src + strlen(src), srclen - strlen(src), "%s%s", *src ? "+" : "", s);
	}
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/* The memory of one warm instance of cell @cell (run with @inst instances). */
static int read_mem(sqlite3_stmt *st, sqlite3_int64 cell, int inst, struct plan_meas *m)
{
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, cell);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? 0 : -EIO;
	if (!strcmp((const char *)sqlite3_column_text(st, 0), HOSTMEM_MEMCG))
		m->n_memcg++;
	else
		m->n_pss++;
	return push(&m->mem_kb, &m->nmem, sqlite3_column_double(st, 1) / (inst > 0 ? inst : 1));
}

struct meas_stmts {
	sqlite3_stmt *cells, *mem, *warm, *cold;
};

/* One cell of the platform and function; its memory unless it comes from minmem. */
static int read_cell(struct meas_stmts *q, struct plan_meas *m, int minmem)
{
	sqlite3_int64 id = sqlite3_column_int64(q->cells, 0);
	int warm_mode = !strcmp((const char *)sqlite3_column_text(q->cells, 3), "warm");
	int r = list_add(&m->cells, id) ?: list_add(&m->runs, sqlite3_column_int64(q->cells, 1));

	if (!r && warm_mode && !minmem)
		r = read_mem(q->mem, id, sqlite3_column_int(q->cells, 4), m);
	if (!r)
		r = read_ns(q->warm, id, 0, &m->warm, &m->nwarm, NULL, 0);
	if (!r)
		r = read_ns(q->cold, id, 1, &m->cold, &m->ncold, m->cold_src, sizeof(m->cold_src));
	return r;
}

/* the newest search's answer: none when that search found none (an older one is stale) */
static const char sql_minmem[] =
	"SELECT min_mib FROM minmem WHERE workload = ?1 AND vm_type = ?2 ORDER BY id DESC LIMIT 1";

/* memory = minmem: the newest minimum of @wl on the platform's VM type, if any. */
static int read_minmem(sqlite3 *h, const struct plan_platform_conf *pc, const char *wl,
		       struct plan_meas *m)
{
	sqlite3_stmt *st;
	int rc, r = 0;

	m->minmem = 1;
	r = prep(h, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'minmem'", &st);
	if (r)
		return r;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? 0 : -EIO;    /* a database from before minmem */
	r = prep(h, sql_minmem, &st);
	if (r)
		return r;
	sqlite3_bind_text(st, 1, wl, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, pc->conf, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		r = push(&m->mem_kb, &m->nmem, sqlite3_column_double(st, 0) * 1024);
	else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = -EIO;
	sqlite3_finalize(st);
	return r;
}

static int read_meas(sqlite3 *h, const struct plan_config *c, int p, const char *wl,
		     struct plan_meas *m)
{
	struct meas_stmts q = { 0 };
	int r, rc;

	r = prep(h, sql_cells, &q.cells) ?: prep(h, sql_mem, &q.mem) ?:
		prep(h, sql_warm, &q.warm) ?: prep(h, sql_cold, &q.cold);
	if (!r) {
		bind_platform(q.cells, c, p);
		sqlite3_bind_text(q.cells, 5, wl, -1, SQLITE_STATIC);
		while (!r && (rc = sqlite3_step(q.cells)) == SQLITE_ROW)
			r = read_cell(&q, m, c->plat[p].minmem);
		if (!r && rc != SQLITE_DONE)
			r = -EIO;
		if (!r && c->plat[p].minmem)
			r = read_minmem(h, &c->plat[p], wl, m);
		if (r)
			pr_err("plan: reading platform %s, function %s: %s", c->plat[p].name, wl,
			       r == -ENOMEM ? "out of memory" : sqlite3_errmsg(h));
		r = r ? EXIT_FAILED : 0;
	}
	sqlite3_finalize(q.cells);
	sqlite3_finalize(q.mem);
	sqlite3_finalize(q.warm);
	sqlite3_finalize(q.cold);
	return r;
}

static int wl_add(struct plan_inputs *in, const char *wl)
{
	char (*p)[64];
	int i;

	for (i = 0; i < in->nwl; i++)
		if (!strcmp(in->wl[i], wl))
			return 0;
	if (in->nwl == PLAN_MAX_WORKLOADS) {
		pr_err("plan: more than %d workloads: name some with workloads = in [plan]",
		       PLAN_MAX_WORKLOADS);
		return EXIT_USAGE;
	}
	p = realloc(in->wl, (size_t)(in->nwl + 1) * sizeof(*p));
	if (!p)
		return EXIT_FAILED;
	in->wl = p;
	snprintf(in->wl[in->nwl++], sizeof(*p), "%s", wl);
	return 0;
}

static int wl_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The functions: the config's, else every workload of any platform's cells. */
static int read_workloads(sqlite3 *h, const struct plan_config *c, struct plan_inputs *in)
{
	sqlite3_stmt *st;
	int p, r = 0;

	for (p = 0; p < c->nworkloads && !r; p++)
		r = wl_add(in, c->workloads[p]);
	for (p = 0; p < c->nplat && !c->nworkloads && !r; p++) {
		r = prep(h, sql_workloads, &st);
		if (r)
			break;
		bind_platform(st, c, p);
		while (!r && sqlite3_step(st) == SQLITE_ROW)
			r = wl_add(in, (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	if (!r && !in->nwl) {
		pr_err("plan: no cell of any platform of %s in the database: run the cells the "
		       "[platform] sections name (backend, confidential, ksm) first", c->path);
		r = EXIT_USAGE;
	}
	qsort(in->wl, (size_t)in->nwl, sizeof(*in->wl), wl_cmp);
	return r;
}

/* Name what a platform lacks for a function and the cells to run; 1 if anything. */
static int refuse_missing(const struct plan_platform_conf *p, const char *wl,
			  const struct plan_meas *m)
{
	char lack[200] = "";

	if (!m->nmem && m->minmem)
		snprintf(lack, sizeof(lack), ", a minimum memory on %s (run cvmbench minmem %s "
			 "--vm-type %s)", p->conf, wl, p->conf);
	else if (!m->nmem)
		strcat(lack, ", host memory (hostmem rows of a mode = warm cell)");
	if (!m->ncold)
		strcat(lack, ", cold starts (runc_start, vm_boot or cold calls)");
	if (!m->nwarm)
		strcat(lack, ", warm calls");
	if (!*lack)
		return 0;
	pr_err("plan: platform %s lacks for function %s:%s. Cells %s%s; run cells with "
	       "workload = %s, backend = %s, confidential = %s, ksm = %s, probes including "
	       "hostmem, mode = warm (and a cold start: mode = cold, or a VM boot)", p->name,
	       wl, lack + 1, m->cells ? "seen: " : "seen: none", m->cells ? m->cells : "",
	       wl, *p->backend ? p->backend : "any", *p->conf ? p->conf : "any",
	       *p->ksm ? p->ksm : "any");
	return 1;
}

int plan_inputs_read(sqlite3 *h, const struct plan_config *c, struct plan_inputs *in)
{
	int p, w, r, missing = 0;

	memset(in, 0, sizeof(*in));
	r = read_workloads(h, c, in);
	if (r)
		return r;
	in->nplat = c->nplat;
	in->m = calloc((size_t)(c->nplat * in->nwl), sizeof(*in->m));
	if (!in->m)
		return EXIT_FAILED;
	for (p = 0; p < c->nplat && !r; p++)
		for (w = 0; w < in->nwl && !r; w++) {
			r = read_meas(h, c, p, in->wl[w], &in->m[p * in->nwl + w]);
			if (!r)
				missing |= refuse_missing(&c->plat[p], in->wl[w],
							  &in->m[p * in->nwl + w]);
		}
	return r ? r : missing ? EXIT_USAGE : 0;
}

double plan_meas_mem(const struct plan_meas *m)
{
	double s = 0;
	size_t i;

	for (i = 0; i < m->nmem; i++)
		s += m->mem_kb[i];
	return m->nmem ? s / (double)m->nmem : 0;
}

const char *plan_meas_source(const struct plan_meas *m)
{
	if (m->minmem)
		return "minmem";
	return m->n_memcg && m->n_pss ? "memcg+pss" : m->n_memcg ? "memcg" : "pss";
}

void plan_inputs_free(struct plan_inputs *in)
{
	int i;

	for (i = 0; in->m && i < in->nplat * in->nwl; i++) {
		free(in->m[i].mem_kb);
		free(in->m[i].cold);
		free(in->m[i].warm);
		free(in->m[i].cells);
		free(in->m[i].runs);
	}
	free(in->m);
	free(in->wl);
	memset(in, 0, sizeof(*in));
}
