// SPDX-License-Identifier: MIT
/*
 * study-runs.c - which run of a config a study keeps or continues, read
 * from the study's database: the latest run whose stored config text is
 * the config's own, measured on this host by this version of cvmbench
 * over the whole matrix (no --only, no --shard). Finished (complete,
 * partial, skipped): kept as it is, nothing is measured again. Running
 * (killed), interrupted or failed: continued by `run --resume` (cells ok
 * kept, run-plan.c). None: a new run. A run of another host or version is
 * never continued (the resume would be refused): the config gets a new run.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "db-resume.h"
#include "log.h"
#include "study-runs.h"
#include "version.h"

static int finished(const char *status)
{
	return !strcmp(status, "complete") || !strcmp(status, "partial") ||
	       !strcmp(status, "skipped");
}

/* Whether @prev is a run of @config_text on this host and version, of every cell. */
static int ours(const struct db_prev_run *prev, const char *config_text)
{
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	return prev->config_text && !strcmp(prev->config_text, config_text) &&
	       prev->hostname && !strcmp(prev->hostname, host) && prev->version &&
	       !strcmp(prev->version, cvmbench_version) && !prev->only && prev->status;
}

/**
 * study_run_find() - what the database @db_path holds of the config whose
 * text is @config_text (see the top of this file) into @out. A database
 * that does not exist yet holds nothing. Returns 0, or -errno when it
 * cannot be read (reported by the store).
 */
int study_run_find(const char *db_path, const char *config_text, struct study_run *out)
{
	struct db_prev_run prev;
	char err[512] = "";
	struct db *db;
	int found;

	memset(out, 0, sizeof(*out));
	if (access(db_path, F_OK) && errno == ENOENT)
		return 0;
	found = db_open(&db, db_path, DB_READONLY, err, sizeof(err));
	if (found) {
		pr_err("study: %s", err[0] ? err : strerror(-found));
		return found;
	}
	found = db_run_pick(db, config_text, NULL, &prev);
	if (found > 0 && ours(&prev, config_text)) {
		out->state = finished(prev.status) ? STUDY_DONE : STUDY_RESUME;
		out->run_id = prev.id;
		snprintf(out->status, sizeof(out->status), "%s", prev.status);
	}
	if (found > 0)
		db_prev_run_free(&prev);
	db_close(db);
	return found < 0 ? found : 0;
}

/** study_state_name() - "new", "resume" or "done", as `study --list` prints it. */
const char *study_state_name(enum study_state s)
{
	return s == STUDY_DONE ? "done" : s == STUDY_RESUME ? "resume" : "new";
}
