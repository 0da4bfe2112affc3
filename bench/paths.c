// SPDX-License-Identifier: MIT
/* paths.c - locate cvmfn, configs/ and the data directory. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	const char *v = getenv("CVMBENCH_DATA_DIR");

	return v && *v ? v : DEFAULT_DATA_DIR;
}
