// SPDX-License-Identifier: MIT
/*
 * cmd-merge.c - `cvmbench merge --out M A B ...`: the runs of the
 * databases A, B, ... (from several machines, say) copied into M with all
 * their rows and links (db-merge.c). Each input is checked before M is
 * made or changed, opened read-only and never written; a run M holds
 * already (the same started_at, hostname, version and command line) is not
 * copied again, so merging twice adds nothing. M, and the -journal, -wal
 * and -shm files SQLite keeps beside it, must be absent or regular files
 * (not symlinks) in a directory that is not a symlink (out-file.h),
 * checked before M is made or opened. Exit 0, or 2 for bad input or a
 * refused M (named), 1 when writing M failed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "db.h"
#include "db-merge.h"
#include "db-merge-runs.h"
#include "exitcode.h"
#include "log.h"
#include "opts.h"
#include "out-file.h"

enum { OPT_OUT };

static const struct opt merge_opts[] = {
	{ "out", 1, "FILE", "the merged database (made, or added to)", OPT_OUT },
	{ "o", 1, "FILE", "short for --out", OPT_OUT },
	OPT_END
};

static int merge_opt(void *ctx, int id, const char *arg)
{
	(void)id;
	*(const char **)ctx = arg;
	return 0;
}

/* Whether @a and @b name one file (both must exist to be the same). */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return 1;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* Every input opens as a cvmbench database and is not the output. */
static int check_inputs(char **in, int n, const char *out)
{
	char err[1024];
	struct db *db;
	int i;

	for (i = 0; i < n; i++) {
		if (same_file(in[i], out)) {
			pr_err("merge: %s is the output too: give another --out", in[i]);
			return EXIT_USAGE;
		}
		err[0] = '\0';
		if (db_open(&db, in[i], DB_READONLY, err, sizeof(err))) {
			pr_err("merge: %s", err[0] ? err : in[i]);
			return EXIT_USAGE;
		}
		db_close(db);
	}
	return EXIT_OK;
}

/*
 * @out and the files SQLite makes beside it may be written: absent or
 * regular files, in a directory that is not a symlink (out-file.h). SQLite
 * opens them by name, so this is checked just before it does, and the
 * output is opened with DB_NOFOLLOW (SQLITE_OPEN_NOFOLLOW): a symlink
 * swapped in between is refused too.
 */
static int check_output(const char *out)
{
	static const char *const suffix[] = { "", "-journal", "-wal", "-shm" };
	char name[NAME_MAX + 1];
	struct out_dir d;
	const char *base;
	size_t i;
	int ret = out_dir_of(&d, out, &base);

	for (i = 0; !ret && i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		if (snprintf(name, sizeof(name), "%s%s", base, suffix[i]) >= (int)sizeof(name)) {
			pr_err("merge: %s: name too long", out);
			ret = -ENAMETOOLONG;
		} else {
			ret = out_file_check(&d, name);
		}
	}
	out_dir_close(&d);
	return ret ? EXIT_USAGE : EXIT_OK;
}

/* Remove the output this merge made when nothing was added to it. */
static void unmake(const char *out)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };
	char name[4096];
	size_t i;

	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", out, suffix[i]);
		if (unlink(name) && errno != ENOENT)
			pr_warn("merge: cannot remove %s: %s", name, strerror(errno));
	}
}

static int merge_all(char **in, int n, const char *out)
{
	int i, ret, made = access(out, F_OK) != 0;
	struct db_merge_count c;
	char err[1024] = "";
	struct db *db;

	/* SQLite opens it by name: a symlink planted since check_output() is refused */
	if (db_open(&db, out, DB_CREATE | DB_NOFOLLOW, err, sizeof(err))) {
		pr_err("merge: %s", err[0] ? err : out);
		return EXIT_USAGE;
	}
	for (i = 0, ret = 0; i < n && !ret; i++) {
		err[0] = '\0';
		ret = db_merge_file(db, in[i], &c, err, sizeof(err));
		if (ret)
			pr_err("merge: %s (nothing of it was added to %s)", err, out);
		else
			printf("%s: %ld run%s added, %ld shard%s joined to its study's run "
			       "(%ld rows), %ld already in %s\n", in[i], c.runs_added,
			       c.runs_added == 1 ? "" : "s", c.runs_folded,
			       c.runs_folded == 1 ? "" : "s", c.rows_added, c.runs_present, out);
	}
	if (!ret)
		merge_studies_warn(db_sqlite(db), out);
	db_close(db);
	if (ret && made && i == 1)
		unmake(out);   /* made here, and its first input refused: none is made */
	if (ret)
		return ret == -EIO ? EXIT_FAILED : EXIT_USAGE;
	return fflush(stdout) ? EXIT_FAILED : EXIT_OK;
}

/**
 * cmd_merge() - `cvmbench merge --out M A [B ...]`. Returns EXIT_OK,
 * EXIT_USAGE (bad options or input, named) or EXIT_FAILED.
 */
int cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	int first, ret;

	ret = opts_parse(argc, argv, "merge --out|-o FILE DB [DB ...]", merge_opts, merge_opt,
			 &out, &first);
	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (!out || first >= argc) {
		pr_err("merge: give --out (-o) FILE and at least one database to merge into it");
		return EXIT_USAGE;
	}
	ret = check_output(out) ?: check_inputs(argv + first, argc - first, out);
	return ret ? ret : merge_all(argv + first, argc - first, out);
}
