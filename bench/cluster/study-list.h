/* SPDX-License-Identifier: MIT */
/*
 * study-list.h - a study: a named list of configs that `cvmbench study`
 * runs into one database (configs/study/NAME.list, docs/artifact.md).
 */
#ifndef CVMBENCH_STUDY_LIST_H
#define CVMBENCH_STUDY_LIST_H

#include <limits.h>
#include <stddef.h>

#define STUDY_MAX_CONFIGS 128

struct study {
	char path[PATH_MAX];                  /* the list file */
	char *configs[STUDY_MAX_CONFIGS];     /* each config's path, in the list's order */
	size_t n;
};

int study_find(const char *name, char *path, size_t len);
int study_load(const char *path, struct study *s, char *err, size_t errlen);
void study_free(struct study *s);

#endif
