// SPDX-License-Identifier: MIT
/*
 * call-log.c - the memory-mapped log of invocation rows (call-log.h). The
 * file is a header and CALL_LOG_ROWS fixed-size records used as a ring:
 * record i sits in slot i % CALL_LOG_ROWS. `written` counts the records
 * complete (stored after the record's bytes), `folded` those committed to
 * the database (stored after the commit); both only grow. A kill between
 * the commit and `folded` leaves rows that a recovery folds again, which
 * the rows' own ids make harmless.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "call-log.h"
#include "clock.h"
#include "log.h"

#define CALL_LOG_MAGIC "CVMCALL1"

struct call_rec {
	int64_t id, cell_id, seq;
	int64_t latency_ns, fn_ns, digest_ns;
	int32_t instance_idx, ok;
	uint8_t measured, cold, has_digest, has_error;
	char started_at[40];
	char digest[72];
	char error[512];
};

struct call_log_head {
	char magic[8];
	uint32_t rec_size, rows;
	_Atomic uint64_t written, folded;
};

struct call_log_file {
	struct call_log_head head;
	struct call_rec rec[CALL_LOG_ROWS];
};

/* The layout a log file has; another build's (other sizes) is refused. */
_Static_assert(sizeof(struct call_rec) == 688, "call_rec layout changed: bump CALL_LOG_MAGIC");

/*
 * Invocation ids this process handed out: a log whose rows could not be
 * folded keeps its ids, so the next log starts after them, not after the
 * database's largest.
 */
static int64_t id_floor;

struct call_log {
	struct call_log_file *f;
	struct db *db;
	char *path;
	int64_t next_id;
	long long folded_ns;      /* when rows were last folded (or the log made) */
	long long fold_ns;        /* CALL_LOG_FOLD_NS, or the tests' CVMBENCH_TEST_FOLD_S */
};

/* Between two calls, for every row: a bounded copy, no stdio. */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = src ? strnlen(src, size - 1) : 0;

	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
}

static void rec_from_row(struct call_rec *c, int64_t id, const struct invocation_row *r)
{
	c->id = id;
	c->cell_id = r->cell_id;
	c->seq = r->seq;
	c->latency_ns = r->latency_ns;
	c->fn_ns = r->fn_ns;
	c->digest_ns = r->digest_ns;
	c->instance_idx = r->instance_idx;
	c->ok = r->ok;
	c->measured = !strcmp(r->phase, "measured");
	c->cold = !strcmp(r->start, "cold");
	c->has_digest = r->digest != NULL;
	c->has_error = r->error != NULL;
	copy_text(c->started_at, sizeof(c->started_at), r->started_at);
	copy_text(c->digest, sizeof(c->digest), r->digest);
	copy_text(c->error, sizeof(c->error), r->error);
}

static void row_from_rec(struct invocation_row *r, const struct call_rec *c)
{
	r->cell_id = c->cell_id;
	r->instance_idx = c->instance_idx;
	r->seq = (long)c->seq;
	r->phase = c->measured ? "measured" : "warmup";
	r->start = c->cold ? "cold" : "warm";
	r->started_at = c->started_at;
	r->latency_ns = c->latency_ns;
	r->fn_ns = c->fn_ns;
	r->ok = c->ok;
	r->digest = c->has_digest ? c->digest : NULL;
	r->error = c->has_error ? c->error : NULL;
	r->digest_ns = c->digest_ns;
}

/* Records folded..written-1 into @db, one transaction; @folded moves after it. */
static long fold_file(struct call_log_file *f, struct db *db)
{
	uint64_t from = atomic_load(&f->head.folded), to = atomic_load(&f->head.written), i;
	struct invocation_row row;
	int ok;

	if (to == from)
		return 0;
	if (to - from > CALL_LOG_ROWS || db_begin(db))
		return -EIO;
	for (ok = 1, i = from; i < to && ok; i++) {
		struct call_rec c = f->rec[i % CALL_LOG_ROWS];

		c.started_at[sizeof(c.started_at) - 1] = c.digest[sizeof(c.digest) - 1] =
			c.error[sizeof(c.error) - 1] = '\0';
		row_from_rec(&row, &c);
		ok = !db_invocation_put(db, c.id, &row);
	}
	if (db_commit(db, ok))
		return -EIO;
	atomic_store(&f->head.folded, to);
	return (long)(to - from);
}

static struct call_log_file *map_file(int fd)
{
	void *m = mmap(NULL, sizeof(struct call_log_file), PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, 0);

	return m == MAP_FAILED ? NULL : m;
}

/* CALL_LOG_FOLD_NS; a test that must find rows in the log sets a longer one. */
static long long fold_interval_ns(void)
{
	const char *t = getenv("CVMBENCH_TEST_FOLD_S");
	long s = t ? strtol(t, NULL, 10) : 0;

	return s > 0 ? s * 1000000000LL : CALL_LOG_FOLD_NS;
}

int call_log_create(struct call_log **out, const char *path, struct db *db)
{
	struct call_log *cl = calloc(1, sizeof(*cl));
	int fd = -1, ret = -ENOMEM;

	if (!cl || !(cl->path = strdup(path)))
		goto fail;
	cl->db = db;
	cl->next_id = db_invocation_max_id(db) + 1;
	ret = -EIO;
	if (cl->next_id <= 0)
		goto fail;
	if (cl->next_id < id_floor)
		cl->next_id = id_floor;     /* an earlier log not yet folded holds those */
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	/* its blocks now: a full file system is an error here, not a SIGBUS later */
	ret = fd < 0 ? -errno : -posix_fallocate(fd, 0, sizeof(struct call_log_file));
	if (!ret && !(cl->f = map_file(fd)))
		ret = -errno;
	if (ret) {
		if (fd >= 0)
			unlink(path);
		goto fail;
	}
	close(fd);
	memset(cl->f, 0, sizeof(*cl->f));     /* its pages now, not during the calls */
	memcpy(cl->f->head.magic, CALL_LOG_MAGIC, 8);
	cl->f->head.rec_size = sizeof(struct call_rec);
	cl->f->head.rows = CALL_LOG_ROWS;
	cl->folded_ns = clock_now_ns();
	cl->fold_ns = fold_interval_ns();
	*out = cl;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	if (cl)
		free(cl->path);
	free(cl);
	return ret;
}

int64_t call_log_add(struct call_log *cl, const struct invocation_row *row)
{
	struct call_log_head *h;
	uint64_t w;

	if (!cl)
		return -EINVAL;       /* a caller of cell_run() without a log */
	h = &cl->f->head;
	w = atomic_load(&h->written);
	if (w - atomic_load(&h->folded) == CALL_LOG_ROWS)
		return -EIO;          /* its last fold failed: the cell has stopped */
	rec_from_row(&cl->f->rec[w % CALL_LOG_ROWS], cl->next_id, row);
	atomic_store(&h->written, w + 1);      /* after the record's bytes */
	id_floor = ++cl->next_id;
	/*
	 * Full, or a second since the last fold: folded now (after this row is
	 * in the log, so that it is kept even if the fold fails). Slow calls
	 * (a container's cold start) reach the database as they come.
	 */
	if (w + 1 - atomic_load(&h->folded) == CALL_LOG_ROWS ||
	    clock_now_ns() - cl->folded_ns >= cl->fold_ns) {
		if (fold_file(cl->f, cl->db) < 0)
			return -EIO;
		cl->folded_ns = clock_now_ns();
	}
	return cl->next_id - 1;
}

int call_log_fold(struct call_log *cl)
{
	if (!cl)
		return -EINVAL;
	return fold_file(cl->f, cl->db) < 0 ? -EIO : 0;
}

int call_log_close(struct call_log *cl)
{
	int ret;

	if (!cl)
		return 0;
	ret = call_log_fold(cl);
	munmap(cl->f, sizeof(struct call_log_file));
	if (!ret)
		unlink(cl->path);
	else
		pr_err("%s: rows not written into the database; `cvmbench restore` folds them",
		       cl->path);
	free(cl->path);
	free(cl);
	return ret;
}

/* Whether the mapped file at @f is a call log of this build's layout. */
static int head_valid(const struct call_log_file *f)
{
	return !memcmp(f->head.magic, CALL_LOG_MAGIC, 8) &&
	       f->head.rec_size == sizeof(struct call_rec) && f->head.rows == CALL_LOG_ROWS &&
	       atomic_load(&f->head.written) - atomic_load(&f->head.folded) <= CALL_LOG_ROWS;
}

/* Whether the header was never written (the file is all zeros there). */
static int head_unwritten(const struct call_log_file *f)
{
	static const char zero[sizeof(f->head.magic)];

	return !memcmp(f->head.magic, zero, sizeof(zero)) && !f->head.rec_size &&
	       !atomic_load(&f->head.written);
}

long call_log_recover(const char *path, struct db *db)
{
	int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	struct call_log_file *f;
	struct stat st;
	long n;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size != (off_t)sizeof(*f) || !(f = map_file(fd))) {
		close(fd);
		return -EPROTO;
	}
	close(fd);
	if (head_unwritten(f))
		n = 0;                /* killed between its creation and its header */
	else
		n = head_valid(f) ? fold_file(f, db) : -EPROTO;
	munmap(f, sizeof(*f));
	if (n >= 0)
		unlink(path);
	return n;
}
