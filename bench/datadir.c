// SPDX-License-Identifier: MIT
/*
 * datadir.c - find a data file of cvmbench (analysis/views.sql, the
 * gnuplot scripts) relative to the executable, or under $CVMBENCH_DATADIR.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datadir.h"
#include "log.h"
#include "paths.h"

static int try_path(char *buf, size_t len, const char *dir, const char *mid,
		    const char *rel)
{
	if (snprintf(buf, len, "%s%s/%s", dir, mid, rel) >= (int)len)
		return -ENAMETOOLONG;
	return access(buf, R_OK) ? -errno : 0;
}

/**
 * datadir_path() - the path of data file @rel (e.g. "analysis/views.sql")
 * into @buf. Looks in $CVMBENCH_DATADIR when it is set (and only there),
 * else in the executable's directory, then in ../share/cvmbench next to
 * it. Returns 0, or -ENOENT after saying where it looked.
 */
int datadir_path(const char *rel, char *buf, size_t len)
{
	const char *env = getenv("CVMBENCH_DATADIR");
	char dir[PATH_MAX];

	if (env && *env) {
		if (!try_path(buf, len, env, "", rel))
			return 0;
		pr_err("%s not found under $CVMBENCH_DATADIR (%s)", rel, env);
		return -ENOENT;
	}
	if (exe_dir(dir, sizeof(dir))) {
		pr_err("cannot read /proc/self/exe to find %s; set CVMBENCH_DATADIR",
		       rel);
		return -ENOENT;
	}
	if (!try_path(buf, len, dir, "", rel) ||
	    !try_path(buf, len, dir, "/../share/cvmbench", rel))
		return 0;
	pr_err("%s not found in %s nor in %s/../share/cvmbench; set CVMBENCH_DATADIR",
	       rel, dir, dir);
	return -ENOENT;
}
