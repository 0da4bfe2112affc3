// SPDX-License-Identifier: MIT
/*
 * replay-check.c - a live replay against the simulator (replay-check.h).
 * The simulator (sim.c) serves the function's compressed arrivals under
 * POLICY_TTL with the replay's TTL, no budget, cold and warm latencies
 * drawn from the cell's own measured cold and warm calls (the same
 * latencies the live pool saw, so a disagreement is the policy's, not the
 * latency model's). Where calls do not overlap the cold counts must agree
 * exactly; where a live call arrived while the one before still ran
 * the pool, which serves one call at a time, and the simulator, which
 * starts a second instance, differ by design and the row says so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db.h"
#include "exitcode.h"
#include "log.h"
#include "replay-check.h"
#include "sim.h"
#include "stats.h"

struct lat {
	double *v;
	size_t n;
};

static int push(struct lat *l, double x)
{
	double *p = realloc(l->v, (l->n + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	l->v = p;
	l->v[l->n++] = x;
	return 0;
}

static const char sql_cell[] =
	"SELECT c.id, c.status, (SELECT value FROM cell_param WHERE cell_id = c.id AND "
	"key = 'replay.overlapped_calls') FROM cell c JOIN cell_param p ON p.cell_id = c.id AND "
	"p.key = 'experiment' AND p.value = ?2 WHERE c.run_id = ?1 ORDER BY c.id DESC LIMIT 1";
static const char sql_calls[] =
	"SELECT start, ok, latency_ns FROM invocation WHERE cell_id = ?1 AND phase = 'measured' "
	"ORDER BY seq";

/* The live side of function @i: its cell, calls, cold starts, latencies. */
static int read_live(sqlite3 *h, int64_t run, size_t i, struct replay_row *r,
		     struct lat *cold, struct lat *warm)
{
	sqlite3_stmt *st;
	char exp[32];
	int rc;

	snprintf(exp, sizeof(exp), "replay-%zu", i);
	if (sqlite3_prepare_v2(h, sql_cell, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_text(st, 2, exp, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		r->cell_id = sqlite3_column_int64(st, 0);
		snprintf(r->status, sizeof(r->status), "%s", sqlite3_column_text(st, 1));
		r->overlapped = sqlite3_column_int(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? -ENOENT : -EIO;
	if (sqlite3_prepare_v2(h, sql_calls, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, r->cell_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int is_cold = !strcmp((const char *)sqlite3_column_text(st, 0), "cold");
		double s = sqlite3_column_double(st, 2) / 1e9;

		r->calls++;
		r->live_cold += is_cold;
		if (!sqlite3_column_int(st, 1) || sqlite3_column_type(st, 2) == SQLITE_NULL)
			continue;
		r->calls_ok++;
		if (push(is_cold ? cold : warm, s))
			rc = SQLITE_NOMEM;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/* The simulator on @f's arrivals: its cold starts and p50 into @r. */
static int simulate(const struct replay_fn *f, double ttl, uint64_t seed,
		    const struct lat *cold, const struct lat *warm, struct replay_row *r)
{
	const struct lat *c = cold->n ? cold : warm, *w = warm->n ? warm : cold;
	struct sim_dist dc = { c->v, c->n }, dw = { w->v, w->n };
	double mem = 1;
	struct sim_platform plat = { 1, &mem, &dc, &dw };
	struct sim_opts o = { .policy = { .kind = POLICY_TTL, .param = ttl }, .seed = seed,
			      .horizon = f->n ? f->at[f->n - 1] + ttl + 1 : 1 };
	struct sim_result res;
	struct sim *s;
	size_t i;
	int ret;

	r->sim_cold = -1;
	if (!c->n)
		return 0;
	snprintf(o.policy.label, sizeof(o.policy.label), "ttl:%g", ttl);
	s = sim_new(&plat, &o);
	if (!s)
		return -ENOMEM;
	for (i = 0; i < f->n; i++)
		sim_arrive(s, 0, f->at[i], 0);
	ret = sim_finish(s, &res);
	sim_free(s);
	if (ret)
		return ret;
	r->sim_cold = (long)res.cold;
	r->sim_p50_ms = res.p50 * 1e3;
	return 0;
}

/* The median of the live calls (cold and warm) and its 95 % interval into @r. */
static int live_median(const struct lat *cold, const struct lat *warm, struct replay_row *r)
{
	size_t n = cold->n + warm->n;
	double *all = malloc((n ? n : 1) * sizeof(*all)), cov;

	if (!all)
		return -ENOMEM;
	if (cold->n)
		memcpy(all, cold->v, cold->n * sizeof(*all));
	if (warm->n)
		memcpy(all + cold->n, warm->v, warm->n * sizeof(*all));
	stats_sort(all, n);
	r->live_p50_ms = n ? stats_median(all, n) * 1e3 : -1;
	r->live_lo_ms = r->live_hi_ms = -1;
	if (n && !stats_median_ci(all, n, 0.95, &r->live_lo_ms, &r->live_hi_ms, &cov)) {
		r->live_lo_ms *= 1e3;
		r->live_hi_ms *= 1e3;
	} else {
		r->live_lo_ms = r->live_hi_ms = -1;     /* too few calls for a 95 % interval */
	}
	free(all);
	return 0;
}

static int check_one(sqlite3 *h, int64_t run, const struct replay_set *s, size_t i,
		     double ttl, uint64_t seed, struct replay_row *r)
{
	struct lat cold = { 0 }, warm = { 0 };
	int ret;

	memset(r, 0, sizeof(*r));
	r->sim_cold = -1;
	ret = read_live(h, run, i, r, &cold, &warm);
	if (!ret)
		ret = live_median(&cold, &warm, r);
	if (!ret)
		ret = simulate(&s->fn[i], ttl, seed, &cold, &warm, r);
	free(cold.v);
	free(warm.v);
	return ret;
}

int replay_check(const char *db, int64_t run_id, const struct replay_set *s, double ttl_s,
		 uint64_t seed, struct replay_row *rows)
{
	struct db *d;
	char err[512];
	size_t i;
	int ret = 0;

	if (db_open(&d, db, DB_READONLY, err, sizeof(err))) {
		pr_err("replay: %s", err);
		return EXIT_USAGE;
	}
	for (i = 0; i < s->n && !ret; i++) {
		ret = check_one(db_sqlite(d), run_id, s, i, ttl_s, seed, &rows[i]);
		if (ret)
			pr_err("replay: %s, function %zu (replay-%zu): %s", db, i, i,
			       ret == -ENOENT ? "no cell in the run" : ret == -ENOMEM ?
			       "out of memory" : sqlite3_errmsg(db_sqlite(d)));
	}
	db_close(d);
	return ret ? EXIT_FAILED : 0;
}

int64_t replay_newest_run(const char *db)
{
	sqlite3_stmt *st;
	struct db *d;
	char err[512];
	int64_t id = -1;

	if (db_open(&d, db, DB_READONLY, err, sizeof(err))) {
		pr_err("replay: %s", err);
		return -1;
	}
	if (sqlite3_prepare_v2(db_sqlite(d), "SELECT max(id) FROM run", -1, &st, NULL) ==
	    SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			id = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	db_close(d);
	return id;
}
