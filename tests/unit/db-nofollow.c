// SPDX-License-Identifier: MIT
/*
 * tests/unit/db-nofollow.c - db_open(DB_CREATE | DB_NOFOLLOW), how merge
 * opens its --out: a symlink in the file's place is refused by SQLite
 * itself (SQLITE_OPEN_NOFOLLOW), however late it was planted, and its
 * target is left as it was (an existing file) or not made (a dangling
 * link); a symlink higher up the path (a directory the caller accepted)
 * still opens, since the directory is resolved before SQLite is asked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "tap.h"

static long size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

/* Open @path with DB_CREATE | DB_NOFOLLOW; the return of db_open(). */
static int open_nofollow(const char *path, char *err, size_t errlen)
{
	struct db *db = NULL;
	int ret = db_open(&db, path, DB_CREATE | DB_NOFOLLOW, err, errlen);

	db_close(db);
	return ret;
}

int main(void)
{
	char dir[] = "/tmp/cvmbench-nofollow-XXXXXX", p[256], q[256], err[512] = "";
	FILE *f;
	int ret;

	tap_plan(4);
	if (!mkdtemp(dir))
		return 1;
	snprintf(p, sizeof(p), "%s/target", dir);
	snprintf(q, sizeof(q), "%s/link.db", dir);
	f = fopen(p, "w");
	if (!f || fclose(f) || symlink("target", q))
		return 1;
	ret = open_nofollow(q, err, sizeof(err));
	tap_ok(ret == -EPERM && strstr(err, "link.db") &&
	       size_of(p) == 0, "a symlink to a file: refused, named, its target "
	       "unchanged (%s)", err);
	snprintf(q, sizeof(q), "%s/dangling.db", dir);
	if (symlink("made.db", q))
		return 1;
	ret = open_nofollow(q, err, sizeof(err));
	snprintf(p, sizeof(p), "%s/made.db", dir);
	tap_ok(ret == -EPERM && size_of(p) < 0, "a dangling symlink: refused, no target "
	       "made (%s)", err);
	snprintf(p, sizeof(p), "%s/up", dir);
	if (symlink(".", p))
		return 1;
	snprintf(q, sizeof(q), "%s/up/real.db", dir);
	err[0] = '\0';
	ret = open_nofollow(q, err, sizeof(err));
	snprintf(p, sizeof(p), "%s/real.db", dir);
	tap_ok(!ret && size_of(p) > 0, "a symlinked directory above the file: opens "
	       "the file in its real directory (%s)", err);
	err[0] = '\0';
	tap_ok(!open_nofollow(p, err, sizeof(err)), "a plain path opens again (%s)", err);
	for (const char *f = "target\0link.db\0dangling.db\0made.db\0up\0real.db\0real.db-wal\0"
			     "real.db-shm\0"; *f; f += strlen(f) + 1) {
		snprintf(p, sizeof(p), "%s/%s", dir, f);
		unlink(p);
	}
	rmdir(dir);
	return tap_done();
}
