// SPDX-License-Identifier: MIT
/*
 * run-journal.c - the journal kinds of a run's results. "db-run":
 * "RUN_ID<TAB>DATABASE", the database by its real path; undoing it marks
 * the run and its running cells interrupted (db_run_interrupted()).
 * "call-log": "LOG<TAB>DATABASE", a cell's log of invocation rows
 * (call-log.h); undoing it folds the rows left in the log into the
 * database and removes the log. A database that is gone is nothing to
 * mark or fold into.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "call-log.h"
#include "clock.h"
#include "db.h"
#include "journal.h"
#include "log.h"
#include "run-journal.h"
#include "state-dir.h"

long run_journal_begin(const char *db_path, int64_t run_id)
{
	char real[PATH_MAX], name[PATH_MAX + 32];

	if (!realpath(db_path, real))
		return -errno;
	snprintf(name, sizeof(name), "%lld\t%s", (long long)run_id, real);
	return journal_object("db-run", name);
}

static int run_undo(const char *name)
{
	char err[512], when[40], *end;
	long long id = strtoll(name, &end, 10);
	struct db *db = NULL;
	int ret;

	if (*end != '\t' || id <= 0)
		return -EINVAL;
	if (access(end + 1, F_OK))
		return -ENOENT;
	ret = db_open(&db, end + 1, DB_CREATE, err, sizeof(err));
	if (ret) {
		pr_warn("cannot mark run %lld interrupted: %s", id, err);
		return ret;
	}
	utc_now(when, sizeof(when));
	ret = db_run_interrupted(db, id, when);
	db_close(db);
	if (ret > 0)
		pr_info("run %lld of %s marked interrupted (at %s)", id, end + 1, when);
	return ret < 0 ? ret : 0;
}

static const struct journal_kind kind_run = { "db-run", run_undo };
JOURNAL_KIND_REGISTER(kind_run)

long run_journal_call_log(const char *db_path, int64_t cell_id, char *log_path, size_t len)
{
	char real[PATH_MAX], dir[PATH_MAX], name[2 * PATH_MAX + 2];

	if (!realpath(db_path, real))
		return -errno;
	state_dir_path(dir, sizeof(dir));
	/* pid and cell id can come again (a new database, a container): a nonce too */
	snprintf(log_path, len, "%s/calls-%d-%lld-%llx", dir, (int)getpid(), (long long)cell_id,
		 (unsigned long long)clock_now_ns());
	snprintf(name, sizeof(name), "%s\t%s", log_path, real);
	return journal_object("call-log", name);
}

static int call_log_undo(const char *name)
{
	const char *tab = strchr(name, '\t');
	char err[512], log_path[PATH_MAX];
	struct db *db = NULL;
	long n;

	if (!tab || (size_t)(tab - name) >= sizeof(log_path))
		return -EINVAL;
	snprintf(log_path, sizeof(log_path), "%.*s", (int)(tab - name), name);
	if (access(log_path, F_OK))
		return 0;                 /* nothing was logged, or all was folded */
	if (access(tab + 1, F_OK)) {
		/* its rows name cells of that database: they cannot go anywhere else */
		pr_warn("%s: its database %s is gone; the log is removed", log_path, tab + 1);
		unlink(log_path);
		return 0;
	}
	if (db_open(&db, tab + 1, DB_CREATE, err, sizeof(err))) {
		pr_warn("cannot fold the calls of %s: %s", log_path, err);
		return -EIO;
	}
	n = call_log_recover(log_path, db);
	db_close(db);
	if (n < 0) {
		pr_warn("cannot fold the calls of %s into %s: %s", log_path, tab + 1,
			strerror((int)-n));
		return (int)n;
	}
	if (n > 0)
		pr_info("%ld calls of a killed cell written into %s from %s", n, tab + 1, log_path);
	return 0;
}

static const struct journal_kind kind_call_log = { "call-log", call_log_undo };
JOURNAL_KIND_REGISTER(kind_call_log)
