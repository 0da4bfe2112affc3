// SPDX-License-Identifier: MIT
/*
 * crud-api.c - SeBS 130 "crud-api": a shopping-cart service that creates,
 * reads, updates and deletes cart items (DynamoDB there; SQLite here,
 * linked statically, one autocommit statement per request).
 *
 * Table cart(id INTEGER PRIMARY KEY, user, product, qty, price) with an
 * index on user; price is in cents (INTEGER) so that totals are exact.
 * init creates the database in a private scratch directory under the data
 * directory (WAL journal, synchronous=NORMAL, as a server would run it),
 * fills the base carts in one transaction and prepares the statements:
 * what a warm container holds. Sizes (base users x 5 items; sessions x
 * items per session): test 200; 4 x 10, small 2000; 20 x 50, large 20000;
 * 100 x 100 (SeBS issues one request per invocation; a session of requests
 * per invoke keeps the harness overhead out of the measurement).
 *
 * One invoke runs every session: empty the session user's cart, add the
 * items (insert), read the cart with its total, change the quantity of
 * every third item (update), remove every fifth from the second (delete),
 * read the cart again, and read one base user's cart. Products, quantities
 * and users come from the seed, the same in every invoke, so the digest
 * (every row and total read) repeats. --output FILE writes a copy of the
 * database (VACUUM INTO) for checking with the sqlite3 tool.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "outpath.h"
#include "rng.h"
#include "scratch.h"
#include "wlclock.h"
#include "wlexport.h"
#include "wlfile.h"
#include "workload.h"

#define PRODUCTS 500
#define BASE_ITEMS 5

enum crud_stmt { ST_INSERT, ST_SELECT, ST_TOTAL, ST_UPDATE, ST_DELETE, ST_CLEAR, ST_COUNT };

static const char *const crud_sql[ST_COUNT] = {
	[ST_INSERT] = "INSERT INTO cart(user, product, qty, price) VALUES(?1, ?2, ?3, ?4)",
	[ST_SELECT] = "SELECT product, qty, price FROM cart WHERE user = ?1 ORDER BY id",
	[ST_TOTAL] = "SELECT COUNT(*), COALESCE(SUM(qty * price), 0) FROM cart WHERE user = ?1",
	[ST_UPDATE] = "UPDATE cart SET qty = ?2 WHERE id = ?1",
	[ST_DELETE] = "DELETE FROM cart WHERE id = ?1",
	[ST_CLEAR] = "DELETE FROM cart WHERE user = ?1",
};

static const char crud_schema[] =
	"PRAGMA journal_mode = WAL;"
	"PRAGMA synchronous = NORMAL;"
	"CREATE TABLE cart(id INTEGER PRIMARY KEY, user TEXT NOT NULL,"
	" product TEXT NOT NULL, qty INTEGER NOT NULL, price INTEGER NOT NULL);"
	"CREATE INDEX cart_user ON cart(user);";

struct crud_state {
	char scratch[PATH_MAX];
	char path[PATH_MAX + 16];
	sqlite3 *db;
	sqlite3_stmt *stmt[ST_COUNT];
	long base_users, sessions, session_items;
	int64_t price[PRODUCTS];  /* cents */
	sqlite3_int64 *ids;       /* the current session's item ids */
};

/* What one invoke did, for the summary. */
struct crud_counts {
	long inserts, updates, deletes, reads;
	int64_t items, cents;     /* the session carts at the end */
};

static int db_error(struct wl_instance *inst, struct crud_state *st, const char *what)
{
	return wl_error(inst, -EIO, "%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

/* Run a prepared statement that returns no rows, then reset it. */
static int exec_stmt(struct wl_instance *inst, struct crud_state *st, enum crud_stmt s)
{
	int rc = sqlite3_step(st->stmt[s]);

	sqlite3_reset(st->stmt[s]);
	if (rc != SQLITE_DONE)
		return db_error(inst, st, crud_sql[s]);
	return 0;
}

static int insert_item(struct wl_instance *inst, struct crud_state *st,
		       const char *user, int product, int qty)
{
	sqlite3_stmt *s = st->stmt[ST_INSERT];
	char name[32];

	snprintf(name, sizeof(name), "product-%04d", product);
	sqlite3_bind_text(s, 1, user, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 3, qty);
	sqlite3_bind_int64(s, 4, st->price[product]);
	return exec_stmt(inst, st, ST_INSERT);
}

/*
 * One cart line from the generator: the quantity (1..5) is drawn first, then
 * the product. The order is fixed here, not left to the compiler's order of
 * evaluating arguments (gcc and clang differ); it is the order gcc builds
 * always used, so their data and digests are unchanged.
 */
static void draw_item(struct rng *r, int *product, int *quantity)
{
	*quantity = 1 + (int)rng_below(r, 5);
	*product = (int)rng_below(r, PRODUCTS);
}

/* The base carts: user-000000 .. with BASE_ITEMS items each, one transaction. */
static int fill_base(struct wl_instance *inst, struct crud_state *st)
{
	char user[32];
	struct rng r;
	long u, i;
	int err = 0, product, quantity;

	rng_seed_stream(&r, inst->params.seed, 0xba5e);
	if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return db_error(inst, st, "BEGIN");
	for (u = 0; u < st->base_users && !err; u++) {
		snprintf(user, sizeof(user), "user-%06ld", u);
		for (i = 0; i < BASE_ITEMS && !err; i++) {
			draw_item(&r, &product, &quantity);
			err = insert_item(inst, st, user, product, quantity);
		}
	}
	if (!err && sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		return db_error(inst, st, "COMMIT");
	return err;
}

static int open_db(struct wl_instance *inst, struct crud_state *st)
{
	int err = wl_scratch_dir(inst, "crud-api", st->scratch, sizeof(st->scratch)), i;

	if (err)
		return err;
	snprintf(st->path, sizeof(st->path), "%s/cart.db", st->scratch);
	if (sqlite3_open_v2(st->path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return st->db ? db_error(inst, st, "open") :
			wl_error(inst, -ENOMEM, "%s: cannot open", st->path);
	if (sqlite3_exec(st->db, crud_schema, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(inst, st, "create schema");
	for (i = 0; i < ST_COUNT; i++)
		if (sqlite3_prepare_v3(st->db, crud_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
				       &st->stmt[i], NULL) != SQLITE_OK)
			return db_error(inst, st, crud_sql[i]);
	return fill_base(inst, st);
}

static void crud_teardown(struct wl_instance *inst)
{
	struct crud_state *st = inst->priv;
	int i;

	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(st->stmt[i]);
	sqlite3_close(st->db);
	if (st->scratch[0])
		wl_scratch_remove(st->scratch);
	free(st->ids);
}

static int crud_init(struct wl_instance *inst)
{
	struct crud_state *st;
	struct rng r;
	int err, p;

	if (inst->params.input)
		return wl_error(inst, -EINVAL, "crud-api takes no --input");
	st = inst->priv;
	st->base_users = wl_pick(inst, 200, 2000, 20000);
	st->sessions = wl_pick(inst, 4, 20, 100);
	st->session_items = wl_pick(inst, 10, 50, 100);
	rng_seed_stream(&r, inst->params.seed, 0x9e1c);
	for (p = 0; p < PRODUCTS; p++)
		st->price[p] = 99 + (int64_t)rng_below(&r, 19901);
	st->ids = calloc((size_t)st->session_items, sizeof(*st->ids));
	err = st->ids ? open_db(inst, st) : wl_error(inst, -ENOMEM, "out of memory");
	return err;
}

/* Every row of @user's cart and its count and total, into the output. */
static int read_cart(struct wl_instance *inst, struct crud_state *st,
		     const char *user, struct wl_output *out, int64_t *items, int64_t *cents)
{
	sqlite3_stmt *s = st->stmt[ST_SELECT], *t = st->stmt[ST_TOTAL];
	int rc;

	wl_out_str(out, user);
	sqlite3_bind_text(s, 1, user, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		wl_out_str(out, (const char *)sqlite3_column_text(s, 0));
		wl_out_u64(out, (uint64_t)sqlite3_column_int64(s, 1));
		wl_out_u64(out, (uint64_t)sqlite3_column_int64(s, 2));
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return db_error(inst, st, crud_sql[ST_SELECT]);
	sqlite3_bind_text(t, 1, user, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(t);
	if (rc == SQLITE_ROW) {
		*items = sqlite3_column_int64(t, 0);
		*cents = sqlite3_column_int64(t, 1);
		wl_out_u64(out, (uint64_t)*items);
		wl_out_u64(out, (uint64_t)*cents);
	}
	sqlite3_reset(t);
	return rc == SQLITE_ROW ? 0 : db_error(inst, st, crud_sql[ST_TOTAL]);
}

/* Bind @id (and @qty for an update) and run an update or delete request. */
static int change_item(struct wl_instance *inst, struct crud_state *st,
		       enum crud_stmt s, sqlite3_int64 id, int qty)
{
	sqlite3_bind_int64(st->stmt[s], 1, id);
	if (s == ST_UPDATE)
		sqlite3_bind_int(st->stmt[s], 2, qty);
	return exec_stmt(inst, st, s);
}

/* One user session: empty cart, add, read, update, delete, read, read a base cart. */
static int run_session(struct wl_instance *inst, struct crud_state *st, long session,
		       struct rng *r, struct wl_output *out, struct crud_counts *c)
{
	char user[32], base[32];
	int64_t items, cents;
	long i;
	int err, product, quantity;

	snprintf(user, sizeof(user), "session-%04ld", session);
	sqlite3_bind_text(st->stmt[ST_CLEAR], 1, user, -1, SQLITE_TRANSIENT);
	err = exec_stmt(inst, st, ST_CLEAR);
	for (i = 0; i < st->session_items && !err; i++, c->inserts++) {
		draw_item(r, &product, &quantity);
		err = insert_item(inst, st, user, product, quantity);
		st->ids[i] = sqlite3_last_insert_rowid(st->db);
	}
	if (!err)
		err = read_cart(inst, st, user, out, &items, &cents);
	for (i = 0; i < st->session_items && !err; i += 3, c->updates++)
		err = change_item(inst, st, ST_UPDATE, st->ids[i], 1 + (int)rng_below(r, 9));
	for (i = 1; i < st->session_items && !err; i += 5, c->deletes++)
		err = change_item(inst, st, ST_DELETE, st->ids[i], 0);
	if (!err)
		err = read_cart(inst, st, user, out, &items, &cents);
	c->items += items;
	c->cents += cents;
	snprintf(base, sizeof(base), "user-%06ld", (long)rng_below(r, (uint64_t)st->base_users));
	if (!err)
		err = read_cart(inst, st, base, out, &items, &cents);
	c->reads += 3;
	return err;
}

/* VACUUM INTO @tmp: a consistent copy of the database. */
static int vacuum_into(struct wl_instance *inst, struct crud_state *st, const char *tmp)
{
	sqlite3_stmt *s;
	int rc;

	unlink(tmp);
	if (sqlite3_prepare_v2(st->db, "VACUUM INTO ?1", -1, &s, NULL) != SQLITE_OK)
		return db_error(inst, st, "VACUUM INTO");
	sqlite3_bind_text(s, 1, tmp, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return 0;
	unlink(tmp);
	return wl_error(inst, -EIO, "cannot write %s: %s", tmp, sqlite3_errmsg(st->db));
}

/* Into a device or FIFO: copy made in the scratch directory, then written in. */
static int copy_db_in_place(struct wl_instance *inst, struct crud_state *st,
			    const char *out)
{
	char tmp[PATH_MAX + 16];
	void *data;
	size_t len;
	int err;

	snprintf(tmp, sizeof(tmp), "%s/output.db", st->scratch);
	err = vacuum_into(inst, st, tmp);
	if (err)
		return err;
	err = wl_read_file(inst, tmp, &data, &len);
	unlink(tmp);
	if (err)
		return err;
	err = wl_write_in_place(inst, out, data, len, NULL, 0);
	free(data);
	return err;
}

/*
 * --output: a consistent copy of the database, renamed into place over a
 * regular file, written into anything else (outpath.h).

 * cvmfn calls it after the end time (wl_out_file_with()).
 */
static int copy_db(struct wl_instance *inst, const char *out, void *arg)
{
	struct crud_state *st = arg;
	struct wl_out_target t;
	char tmp[PATH_MAX];
	int err = wl_out_target(inst, out, &t);

	if (err)
		return err;
	if (t.in_place)
		return copy_db_in_place(inst, st, t.path);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%ld", t.path, (long)getpid()) >=
	    sizeof(tmp))
		return wl_error(inst, -ENAMETOOLONG, "path too long: %s", out);
	err = vacuum_into(inst, st, tmp);
	if (err)
		return err;
	if (rename(tmp, t.path)) {
		err = -errno;
		unlink(tmp);
		return wl_error(inst, err, "cannot write %s: %s", out, strerror(-err));
	}
	return 0;
}

static int crud_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct crud_state *st = inst->priv;
	struct crud_counts c = { 0 };
	double t0 = wl_now_s(), secs;
	struct rng r;
	long s;
	int err = 0;

	rng_seed_stream(&r, inst->params.seed, 0xc4a7);
	for (s = 0; s < st->sessions && !err; s++)
		err = run_session(inst, st, s, &r, out, &c);
	if (err)
		return err;
	secs = wl_now_s() - t0;
	wl_out_u64(out, (uint64_t)c.items);
	wl_out_u64(out, (uint64_t)c.cents);
	snprintf(inst->summary, sizeof(inst->summary),
		 "%ld inserts, %ld updates, %ld deletes, %ld cart reads (%.0f requests/s); "
		 "session carts: %lld items, total %lld cents",
		 c.inserts, c.updates, c.deletes, c.reads,
		 (double)(c.inserts + c.updates + c.deletes + c.reads + st->sessions) / secs,
		 (long long)c.items, (long long)c.cents);
	if (inst->params.output)
		wl_out_file_with(out, inst->params.output, copy_db, st);
	return 0;
}

/* Appends one printf-formatted line to @buf (of @cap bytes) at *@len. */
static void export_line(char *buf, size_t cap, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void export_line(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*len += (size_t)vsnprintf(buf + *len, *len < cap ? cap - *len : 0, fmt, ap);
	va_end(ap);
}

/* The base carts' rows, in insert order (fill_base()'s draws). */
static void export_base(struct crud_state *st, uint64_t seed, char *buf, size_t cap,
			size_t *len)
{
	struct rng r;
	long u, i;
	int product, quantity;

	rng_seed_stream(&r, seed, 0xba5e);
	for (u = 0; u < st->base_users; u++)
		for (i = 0; i < BASE_ITEMS; i++) {
			draw_item(&r, &product, &quantity);
			export_line(buf, cap, len, "add user-%06ld product-%04d %d %lld\n", u,
				    product, quantity, (long long)st->price[product]);
		}
}

/* Every invoke's requests, in order (run_session()'s draws). */
static void export_sessions(struct crud_state *st, uint64_t seed, char *buf, size_t cap,
			    size_t *len)
{
	struct rng r;
	long s, i;
	int product, quantity;

	rng_seed_stream(&r, seed, 0xc4a7);
	for (s = 0; s < st->sessions; s++) {
		export_line(buf, cap, len, "session session-%04ld\n", s);
		for (i = 0; i < st->session_items; i++) {
			draw_item(&r, &product, &quantity);
			export_line(buf, cap, len, "add session-%04ld product-%04d %d %lld\n", s,
				    product, quantity, (long long)st->price[product]);
		}
		for (i = 0; i < st->session_items; i += 3)
			export_line(buf, cap, len, "update %ld %d\n", i, 1 + (int)rng_below(&r, 9));
		export_line(buf, cap, len, "base user-%06ld\n",
			    (long)rng_below(&r, (uint64_t)st->base_users));
	}
}

/*
 * For the Python twin, as text lines: "base", the base carts' rows ("add
 * USER PRODUCT QTY CENTS"); "sessions", an invoke's requests: "session
 * USER", its items ("add ..."), "update I QTY" (the session's item I),
 * "base USER" (the base cart read last). Deletes and reads are implied
 * (run_session()). The seed's draws, replayed here, not a second generator.
 */
static int crud_export(struct wl_instance *inst)
{
	struct crud_state *st = inst->priv;
	size_t cap = (size_t)(st->base_users * BASE_ITEMS + st->sessions *
			      (2 * st->session_items + 2)) * 64, len = 0;
	char *buf = malloc(cap);
	int err;

	if (!buf)
		return wl_error(inst, -ENOMEM, "crud-api: out of memory for the export");
	export_base(st, inst->params.seed, buf, cap, &len);
	err = len < cap ? wl_export_write(inst, "base", buf, len) : -EOVERFLOW;
	len = 0;
	export_sessions(st, inst->params.seed, buf, cap, &len);
	if (!err)
		err = len < cap ? wl_export_write(inst, "sessions", buf, len) : -EOVERFLOW;
	free(buf);
	return err == -EOVERFLOW ? wl_error(inst, err, "crud-api: export buffer too small") : err;
}

const struct workload_ops wl_crud_api = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_crud_api,
	.state_size = sizeof(struct crud_state),
	.init = crud_init,
	.invoke = crud_invoke,
	.teardown = crud_teardown,
	.export_inputs = crud_export,
};
