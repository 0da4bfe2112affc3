// SPDX-License-Identifier: MIT
/*
 * scratch.c - per-instance scratch directories under the scratch directory
 * (--scratch-dir; by default the data directory, see scratch.h). mkdtemp()
 * names make concurrent instances safe.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"
#include "wlfile.h"

int wl_scratch_dir(struct wl_instance *inst, const char *tag, char *buf,
		   size_t len)
{
	const char *dir = inst->params.scratch_dir;
	int err;

	if (dir) {
		if (mkdir(dir, 0700) && errno != EEXIST)
			return wl_error(inst, -errno, "cannot create the scratch directory %s: %s",
					dir, strerror(errno));
	} else {
		dir = inst->params.data_dir;
		err = wl_make_data_dir(inst);
		if (err)
			return err;
	}
	if ((size_t)snprintf(buf, len, "%s/%s.XXXXXX", dir, tag) >= len)
		return wl_error(inst, -ENAMETOOLONG, "path too long: %s/%s", dir, tag);
	if (!mkdtemp(buf))
		return wl_error(inst, -errno, "cannot create a scratch directory in %s: %s",
				dir, strerror(errno));
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

void wl_scratch_remove(const char *path)
{
	if (path && path[0])
		nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
