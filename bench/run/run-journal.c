// SPDX-License-Identifier: MIT
/*
 * run-journal.c - the journal kind "db-run": "RUN_ID<TAB>DATABASE", the
 * database by its real path. Undoing it marks the run and its running
 * cells interrupted (db_run_interrupted()); a database that is gone is
 * nothing to mark.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "journal.h"
#include "log.h"
#include "run-journal.h"

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
