// SPDX-License-Identifier: MIT
/*
 * wlexport.c - input files for the Python functions (wlexport.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "wlexport.h"
#include "wlfile.h"

int wl_export_write(struct wl_instance *inst, const char *part, const void *data,
		    size_t len)
{
	char name[256], path[PATH_MAX];
	int err;

	snprintf(name, sizeof(name), "%s-%s-seed%llu.%s", inst->ops->info->name,
		 wl_size_name(inst->params.size), (unsigned long long)inst->params.seed,
		 part);
	err = wl_make_data_dir(inst);
	if (!err)
		err = wl_data_path(inst, name, path, sizeof(path));
	return err ? err : wl_write_file_atomic(inst, path, data, len);
}
