// SPDX-License-Identifier: MIT
/*
 * rootfs-state.c - `cvmbench list`'s rootfs section: each list in
 * configs/rootfs/ and whether it is built here (rootfs_state(): files
 * only, no apt), with its hash when it is.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rootfs-list.h"
#include "rootfs.h"

static int is_list(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 5 && !strcmp(d->d_name + n - 5, ".list");
}

static void add_one(cJSON *arr, const char *configs, const char *name)
{
	char hash[65], why[512];
	cJSON *o = cJSON_CreateObject();
	int built = !rootfs_state(configs, name, hash, why, sizeof(why));

	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "about", "Debian rootfs (rootfs = NAME)");
	cJSON_AddBoolToObject(o, "supported", built);
	if (built)
		cJSON_AddStringToObject(o, "hash", hash);
	else
		cJSON_AddStringToObject(o, "reason", why);
	cJSON_AddItemToArray(arr, o);
}

void rootfs_list_json(cJSON *arr, const char *configs)
{
	char dir[4096], name[64];
	struct dirent **names;
	int n, i;

	snprintf(dir, sizeof(dir), "%s/rootfs", configs);
	n = scandir(dir, &names, is_list, alphasort);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%.*s", (int)(strlen(names[i]->d_name) - 5),
			 names[i]->d_name);
		if (rootfs_name_ok(name))
			add_one(arr, configs, name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}
