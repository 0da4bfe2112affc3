// SPDX-License-Identifier: MIT
/*
 * paths.c - locate cvmfn, configs/, the data files (analysis/) and the
 * workload data directory.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "paths.h"

int exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return 0;
}

int exe_beside(const char *name, char *path, size_t len)
{
	char dir[PATH_MAX];

	if (exe_dir(dir, sizeof(dir)) || snprintf(path, len, "%s/%s", dir, name) >= (int)len)
		return -ENOENT;
	return access(path, X_OK) ? -errno : 0;
}

static void beside_exe(const char *env, const char *name, char *buf, size_t len)
{
	const char *v = getenv(env);
	char dir[PATH_MAX];

	if (v && *v) {
		snprintf(buf, len, "%s", v);
		return;
	}
	if (exe_dir(dir, sizeof(dir)) == 0) {
		snprintf(buf, len, "%s/%s", dir, name);
		if (access(buf, F_OK) == 0)
			return;
	}
	snprintf(buf, len, "%s", name);
}

void find_cvmfn(char *buf, size_t len)
{
	beside_exe("CVMBENCH_CVMFN", "cvmfn", buf, len);
}

void find_configs_dir(char *buf, size_t len)
{
	beside_exe("CVMBENCH_CONFIGS", "configs", buf, len);
}

const char *default_data_dir(void)
{
	const char *v = getenv(DATA_DIR_ENV);

	return v && *v ? v : DEFAULT_DATA_DIR;
}

static int try_path(char *buf, size_t len, const char *dir, const char *mid,
		    const char *rel)
{
	if (snprintf(buf, len, "%s%s/%s", dir, mid, rel) >= (int)len)
		return -ENAMETOOLONG;
	return access(buf, R_OK) ? -errno : 0;
}

/**
 * datadir_path() - the path of data file @rel (e.g. "analysis/views.sql")
 * into @buf. Looks in $CVMBENCH_SHARE_DIR when it is set (and only there),
 * else in the executable's directory, then in ../share/cvmbench next to
 * it. Returns 0, or -ENOENT after saying where it looked.
 */
int datadir_path(const char *rel, char *buf, size_t len)
{
	const char *env = getenv("CVMBENCH_SHARE_DIR");
	char dir[PATH_MAX];

	if (env && *env) {
		if (!try_path(buf, len, env, "", rel))
			return 0;
		pr_err("%s not found under $CVMBENCH_SHARE_DIR (%s)", rel, env);
		return -ENOENT;
	}
	if (exe_dir(dir, sizeof(dir))) {
		pr_err("cannot read /proc/self/exe to find %s; set CVMBENCH_SHARE_DIR",
		       rel);
		return -ENOENT;
	}
	if (!try_path(buf, len, dir, "", rel) ||
	    !try_path(buf, len, dir, "/../share/cvmbench", rel))
		return 0;
	pr_err("%s not found in %s nor in %s/../share/cvmbench; set CVMBENCH_SHARE_DIR",
	       rel, dir, dir);
	return -ENOENT;
}
