// SPDX-License-Identifier: MIT
/*
 * compare-load.c - read what `compare` needs from one results database
 * into memory: its runs with their environment, its measured cells ('ok')
 * with their spec, the latencies of their measured successful invocations
 * (v_invocation_measured), the mean memory of their instances, their notes
 * (cell_param keys with a dot), vmexit rates where the vmexit probe
 * measured them, and the metrics a service parser (compare-catalog.c)
 * wrote for each measured, successful window (an invocation of a service
 * cell). Several databases load into one struct cmp_data.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "analysis.h"
#include "compare.h"
#include "exitcode.h"
#include "log.h"

typedef int (*row_fn)(struct cmp_data *d, struct sqlite3_stmt *st, size_t first);

static char *col_dup(struct sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return strdup(t ? (const char *)t : "");
}

/* Run @fn on each row of @sql; @first is the first run or cell of this db. */
static int each_row(struct cmp_data *d, struct sqlite3 *h, const char *sql,
		    row_fn fn, size_t first)
{
	struct sqlite3_stmt *st;
	int rc, ret = 0;

	if (analysis_prepare(h, sql, 0, &st))
		return -EINVAL;
	while (!ret && (rc = analysis_step(st)) == SQLITE_ROW)
		ret = fn(d, st, first);
	if (!ret && rc != SQLITE_DONE)
		ret = -EIO;               /* reported by analysis_step() */
	sqlite3_finalize(st);
	return ret;
}

/**
 * cmp_grow() - room for element @n of the array *@v of @size-byte
 * elements: capacity 8, then doubled at each power of two. 0 or -ENOMEM.
 */
int cmp_grow(void **v, size_t n, size_t size)
{
	void *nv;

	if (n && (n < 8 || (n & (n - 1))))
		return 0;
	nv = realloc(*v, (n < 8 ? 8 : 2 * n) * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	return 0;
}

static int add_run(struct cmp_data *d, struct sqlite3_stmt *st, size_t db)
{
	struct cmp_run *r;

	if (cmp_grow((void **)&d->runs, d->nruns, sizeof(*r)))
		return -ENOMEM;
	r = &d->runs[d->nruns++];
	memset(r, 0, sizeof(*r));
	r->db = db;
	r->id = sqlite3_column_int64(st, 0);
	r->vantage = col_dup(st, 1);
	r->version = col_dup(st, 2);
	r->identity = col_dup(st, 3);
	return r->vantage && r->version && r->identity ? 0 : -ENOMEM;
}

/* The run @id of the runs from @first on (one database's), or NULL. */
static struct cmp_run *run_of(struct cmp_data *d, size_t first, int64_t id)
{
	size_t i;

	for (i = first; i < d->nruns; i++)
		if (d->runs[i].id == id)
			return &d->runs[i];
	return NULL;
}

static int kv_add(struct cmp_kv **v, size_t *n, struct sqlite3_stmt *st, int col)
{
	if (cmp_grow((void **)v, *n, sizeof(**v)))
		return -ENOMEM;
	(*v)[*n].key = col_dup(st, col);
	(*v)[*n].value = col_dup(st, col + 1);
	(*n)++;
	return (*v)[*n - 1].key && (*v)[*n - 1].value ? 0 : -ENOMEM;
}

static int add_env(struct cmp_data *d, struct sqlite3_stmt *st, size_t first)
{
	struct cmp_run *r = run_of(d, first, sqlite3_column_int64(st, 0));

	return r ? kv_add(&r->env, &r->nenv, st, 1) : 0;
}

static int add_cell(struct cmp_data *d, struct sqlite3_stmt *st, size_t first)
{
	struct cmp_run *r = run_of(d, first, sqlite3_column_int64(st, 1));
	struct cmp_cell *c;
	int i;

	if (!r)
		return 0;
	if (cmp_grow((void **)&d->cells, d->ncells, sizeof(*c)))
		return -ENOMEM;
	c = &d->cells[d->ncells++];
	memset(c, 0, sizeof(*c));
	c->id = sqlite3_column_int64(st, 0);
	c->run = (size_t)(r - d->runs);
	c->repeat = sqlite3_column_int(st, 9);
	c->mem_kb = NAN;
	char **f[] = { &c->cell_key, &c->experiment, &c->workload, &c->size,
		       &c->backend, &c->mode, &c->spec };
	for (i = 0; i < 7; i++)
		if (!(*f[i] = col_dup(st, i + 2)))
			return -ENOMEM;
	return 0;
}

/* The cell @id among the cells from @first on (sorted by id), or NULL. */
static struct cmp_cell *cell_of(struct cmp_data *d, size_t first, int64_t id)
{
	size_t lo = first, hi = d->ncells, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d->cells[mid].id == id)
			return &d->cells[mid];
		if (d->cells[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int add_latency(struct cmp_data *d, struct sqlite3_stmt *st, size_t first)
{
	struct cmp_cell *c = cell_of(d, first, sqlite3_column_int64(st, 0));

	if (!c)
		return 0;
	if (cmp_grow((void **)&c->lat_ns, c->nlat, sizeof(double)))
		return -ENOMEM;
	c->lat_ns[c->nlat++] = sqlite3_column_double(st, 1);
	return 0;
}

static int add_memory(struct cmp_data *d, struct sqlite3_stmt *st, size_t first)
{
	struct cmp_cell *c = cell_of(d, first, sqlite3_column_int64(st, 0));

	if (c)
		c->mem_kb = sqlite3_column_double(st, 1);
	return 0;
}

static int add_note(struct cmp_data *d, struct sqlite3_stmt *st, size_t first)
{
	struct cmp_cell *c = cell_of(d, first, sqlite3_column_int64(st, 0));

	return c ? kv_add(&c->notes, &c->nnotes, st, 1) : 0;
}

static int add_exit(struct cmp_data *d, struct sqlite3_stmt *st, size_t first)
{
	struct cmp_cell *c = cell_of(d, first, sqlite3_column_int64(st, 0));

	return c ? kv_add(&c->exits, &c->nexits, st, 1) : 0;
}

static int add_svc(struct cmp_data *d, struct sqlite3_stmt *st, size_t first)
{
	struct cmp_cell *c = cell_of(d, first, sqlite3_column_int64(st, 0));
	const unsigned char *parser = sqlite3_column_text(st, 1);
	const unsigned char *name = sqlite3_column_text(st, 2);

	if (!c || !parser || !name)
		return 0;
	return cmp_cell_svc_add(c, (const char *)parser, (const char *)name,
				sqlite3_column_double(st, 3));
}

/*
 * The metrics of the catalog's parsers on measured, successful windows:
 * the query with the parsers' names (constants of the catalog, never
 * from a database) as its IN list, into @buf; NULL when it does not fit.
 */
static const char *svc_query(char *buf, size_t len)
{
	const struct cmp_metric_def *m;
	size_t i, l;
	int n;

	n = snprintf(buf, len, "SELECT m.cell_id, m.probe, m.name, m.value FROM metric AS m "
		     "JOIN invocation AS i ON i.id = m.invocation_id WHERE i.phase = "
		     "'measured' AND i.ok = 1 AND m.probe IN (");
	for (i = 0; n > 0 && (size_t)n < len && (m = cmp_catalog_at(i)); i++) {
		if (i && !strcmp(cmp_catalog_at(i - 1)->parser, m->parser))
			continue;
		l = (size_t)n;
		n += snprintf(buf + l, len - l, "%s'%s'", i ? ", " : "", m->parser);
	}
	l = (size_t)n;
	if (n < 0 || l >= len)
		return NULL;
	n += snprintf(buf + l, len - l, ") ORDER BY m.cell_id, m.probe, m.name, i.id");
	return n > 0 && (size_t)n < len ? buf : NULL;
}

/* What a row function's @first is: this database's index, first run or cell. */
enum { FIRST_DB, FIRST_RUN, FIRST_CELL };

static const struct {
	const char *sql;
	row_fn fn;
	int first;
} queries[] = {
	{ "SELECT id, vantage, cvmbench_version, started_at || char(10) || "
	  "coalesce(hostname, '') || char(10) || command_line FROM run ORDER BY id", add_run,
	  FIRST_DB },
	{ "SELECT run_id, key, value FROM environment ORDER BY run_id, key", add_env,
	  FIRST_RUN },
	{ "SELECT id, run_id, cell_key, experiment, workload, size, backend, mode, "
	  "spec, repeat_index FROM cell WHERE status = 'ok' ORDER BY id", add_cell,
	  FIRST_RUN },
	{ "SELECT cell_id, latency_ns FROM v_invocation_measured "
	  "ORDER BY cell_id, invocation_id", add_latency, FIRST_CELL },
	{ "SELECT cell_id, avg(coalesce(pss_kb, rss_kb)) FROM instance "
	  "WHERE coalesce(pss_kb, rss_kb) IS NOT NULL GROUP BY cell_id", add_memory,
	  FIRST_CELL },
	{ "SELECT cell_id, key, value FROM cell_param WHERE instr(key, '.') > 0 "
	  "ORDER BY cell_id, key", add_note, FIRST_CELL },
	/* the vmexit probe's per-cell rates (unit 1/s), one per exit class */
	{ "SELECT cell_id, name, printf('%.6g', avg(value)) FROM metric "
	  "WHERE probe = 'vmexit' AND invocation_id IS NULL AND unit = '1/s' "
	  "GROUP BY cell_id, name ORDER BY cell_id, name", add_exit, FIRST_CELL },
};

/**
 * cmp_load_handle() - add the runs and measured cells of the open database
 * @h (with the views of analysis/views.sql), called @name in the output,
 * to @d. Returns 0, -ENOMEM or -EIO (reported).
 */
int cmp_load_handle(struct cmp_data *d, struct sqlite3 *h, const char *name)
{
	size_t first[3] = { d->npaths, d->nruns, d->ncells }, i;
	const char *svc;
	char sql[2048];
	int ret = 0;

	d->paths[d->npaths++] = name;
	for (i = 0; i < sizeof(queries) / sizeof(queries[0]) && !ret; i++)
		ret = each_row(d, h, queries[i].sql, queries[i].fn, first[queries[i].first]);
	svc = svc_query(sql, sizeof(sql));
	if (!ret)
		ret = svc ? each_row(d, h, svc, add_svc, first[FIRST_CELL]) : -ENOMEM;
	if (ret)
		pr_err("%s: %s", name, ret == -ENOMEM ? "out of memory" : "cannot be read");
	return ret;
}

/**
 * cmp_load() - add the runs and measured cells of the database @path to
 * @d. Returns EXIT_OK, or EXIT_USAGE (a file that is missing or not a
 * cvmbench database: reported, naming it) or EXIT_FAILED.
 */
int cmp_load(struct cmp_data *d, const char *path)
{
	struct analysis an;
	int ret;

	ret = analysis_open(&an, path);
	if (ret)
		return ret;
	ret = cmp_load_handle(d, an.h, path);
	return analysis_finish(&an, ret ? EXIT_FAILED : EXIT_OK);
}

/* Whether runs @a and @b are one run (merged or copied): identity and facts. */
static int same_run(const struct cmp_run *a, const struct cmp_run *b)
{
	size_t i, j, na = 0, nb = 0;

	if (strcmp(a->identity, b->identity) || strcmp(a->version, b->version))
		return 0;
	for (i = 0, j = 0; i < a->nenv || j < b->nenv;) {
		/* the merge.* facts a merge adds are not the run's own */
		if (i < a->nenv && !strncmp(a->env[i].key, "merge.", 6)) {
			i++;
			continue;
		}
		if (j < b->nenv && !strncmp(b->env[j].key, "merge.", 6)) {
			j++;
			continue;
		}
		if (i == a->nenv || j == b->nenv || strcmp(a->env[i].key, b->env[j].key) ||
		    strcmp(a->env[i].value, b->env[j].value))
			return 0;
		i++, j++, na++, nb++;
	}
	return na == nb;
}

/**
 * cmp_dedupe() - count a run once when it is in several of the databases
 * (a merged database and one of its inputs, or one file given twice):
 * the cells of every later copy are dropped from @d, with a note.
 */
void cmp_dedupe(struct cmp_data *d)
{
	size_t i, j, k;

	for (i = 0; i < d->nruns; i++)
		for (j = 0; j < i && !d->runs[i].dup; j++)
			if (!d->runs[j].dup && same_run(&d->runs[j], &d->runs[i])) {
				d->runs[i].dup = 1;
				pr_info("compare: run %lld of %s is run %lld of %s: counted once",
					(long long)d->runs[i].id, d->paths[d->runs[i].db],
					(long long)d->runs[j].id, d->paths[d->runs[j].db]);
			}
	for (i = 0, k = 0; i < d->ncells; i++) {
		if (d->runs[d->cells[i].run].dup) {
			cmp_cell_free(&d->cells[i]);
			continue;
		}
		d->cells[k++] = d->cells[i];
	}
	d->ncells = k;
}
