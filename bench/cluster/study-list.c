// SPDX-License-Identifier: MIT
/*
 * study-list.c - read a study's list of configs. A study is a file of
 * config paths, one a line, each relative to the list's own folder
 * (configs/study/full.list names ../quick.ini); blank lines and lines
 * starting with # or ; are comments. A study NAME is
 * configs/study/NAME.list (find_configs_dir()); a name with a '/' or
 * ending in .list is a list file as it is. Every config must exist and be
 * listed once: the error names the list, the line and the value.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"
#include "study-list.h"

/**
 * study_find() - the list file of the study @name into @path (see the top
 * of this file). Returns 0, or -ENAMETOOLONG.
 */
int study_find(const char *name, char *path, size_t len)
{
	char dir[PATH_MAX];
	size_t l = strlen(name);
	int n;

	if (strchr(name, '/') || (l > 5 && !strcmp(name + l - 5, ".list"))) {
		n = snprintf(path, len, "%s", name);
	} else {
		find_configs_dir(dir, sizeof(dir));
		n = snprintf(path, len, "%s/study/%s.list", dir, name);
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Whether the last component of the folder @d can be taken off by "../". */
static int can_go_up(const char *d)
{
	const char *last = strrchr(d, '/');

	last = last ? last + 1 : d;
	return *last && strcmp(last, "..") && strcmp(last, ".");
}

/* @entry relative to the folder @dir ("": the current one), each leading ../ taken off it. */
static char *join(const char *dir, const char *entry)
{
	char d[PATH_MAX], *slash, *out;

	if (entry[0] == '/')
		return strdup(entry);
	snprintf(d, sizeof(d), "%s", dir);
	while (!strncmp(entry, "../", 3) && can_go_up(d)) {
		slash = strrchr(d, '/');
		*(slash ? slash : d) = '\0';
		entry += 3;
	}
	if (!d[0])
		return strdup(entry);
	out = malloc(strlen(d) + strlen(entry) + 2);
	if (out)
		sprintf(out, "%s/%s", d, entry);
	return out;
}

/* "  x.ini  # note\n" -> "x.ini"; NULL for a blank or comment line. */
static char *entry_of(char *line)
{
	char *end;

	line += strspn(line, " \t");
	if (!*line || *line == '#' || *line == ';' || *line == '\n')
		return NULL;
	end = line + strcspn(line, "#;\n");
	while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	*end = '\0';
	return line;
}

/* Add the config @entry of line @lineno to @s; 0 or -errno with @err said. */
static int study_add(struct study *s, const char *dir, const char *entry, int lineno,
		     char *err, size_t errlen)
{
	char *path = join(dir, entry);
	size_t i;

	if (!path)
		return -ENOMEM;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->configs[i], path)) {
			snprintf(err, errlen, "%s:%d: %s is listed twice (first as config %zu)",
				 s->path, lineno, entry, i + 1);
			free(path);
			return -EINVAL;
		}
	if (access(path, R_OK) || s->n == STUDY_MAX_CONFIGS) {
		snprintf(err, errlen, "%s:%d: %s: %s", s->path, lineno, entry,
			 s->n == STUDY_MAX_CONFIGS ? "more configs than a study holds" :
			 errno == ENOENT ? "no such config (paths are relative to the list's folder)" :
			 strerror(errno));
		free(path);
		return -EINVAL;
	}
	s->configs[s->n++] = path;
	return 0;
}

/**
 * study_load() - read the list file @path into @s (see the top of this
 * file). Returns 0, or -EINVAL / -errno with the reason in @err (file,
 * line, value); @s is then empty.
 */
int study_load(const char *path, struct study *s, char *err, size_t errlen)
{
	char line[PATH_MAX], dir[PATH_MAX], *e, *slash;
	int lineno = 0, ret = 0;
	FILE *f;

	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*(slash ? slash : dir) = '\0';
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "study %s: %s (a study is configs/study/NAME.list or a "
			 "list file)", path, strerror(errno));
		return ret;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		lineno++;
		if ((e = entry_of(line)))
			ret = study_add(s, dir, e, lineno, err, errlen);
	}
	fclose(f);
	if (!ret && !s->n) {
		snprintf(err, errlen, "study %s lists no config", path);
		ret = -EINVAL;
	}
	if (ret)
		study_free(s);
	return ret;
}

/** study_free() - free what study_load() read. */
void study_free(struct study *s)
{
	while (s->n)
		free(s->configs[--s->n]);
}
