// SPDX-License-Identifier: MIT
/*
 * state-dir.c - where cvmbench keeps its journal and the trees a run builds
 * (OCI bundles, rootfs), and the one way such a tree is deleted: walked
 * with openat(O_NOFOLLOW) from the state directory down, never by a path
 * string alone, so that a cut, crafted or symlinked name cannot reach a
 * user's files.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state-dir.h"

void state_dir_path(char *buf, size_t len)
{
	const char *env = getenv("CVMBENCH_STATE_DIR"), *home = getenv("HOME");

	char cwd[PATH_MAX];

	if (env && *env && env[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(buf, len, "%s/%s", cwd, env);   /* names recorded must not move */
	else if (env && *env)
		snprintf(buf, len, "%s", env);
	else if (geteuid() == 0)
		snprintf(buf, len, "/var/lib/cvmbench");
	else
		snprintf(buf, len, "%s/.local/state/cvmbench", home ? home : "/tmp");
}

int state_dir_create(const char *dir)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(tmp, 0700) && errno != EEXIST ? -errno : 0;
}

/* Why @st (the state directory @dir) cannot hold a journal; 0 if it can. */
static int unsafe(const char *dir, const struct stat *st, char *err, size_t errlen)
{
	if (S_ISLNK(st->st_mode))
		snprintf(err, errlen, "state directory %s is a symbolic link (refused: "
			 "the journal's entries are replayed as root)", dir);
	else if (!S_ISDIR(st->st_mode))
		snprintf(err, errlen, "state directory %s is not a directory", dir);
	else if (st->st_uid != geteuid())
		snprintf(err, errlen, "state directory %s is owned by uid %u, not by uid %u "
			 "(refused: the journal's entries are replayed as root)", dir,
			 (unsigned)st->st_uid, (unsigned)geteuid());
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		snprintf(err, errlen, "state directory %s is %s-writable (mode %04o; refused: "
			 "the journal's entries are replayed as root; chmod go-w it)", dir,
			 st->st_mode & S_IWOTH ? "world" : "group",
			 (unsigned)(st->st_mode & 07777));
	else
		return 0;
	return -EPERM;
}

int state_dir_open(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX];
	size_t n = strlen(dir);
	struct stat st;
	int fd;

	while (n > 1 && dir[n - 1] == '/')
		n--;    /* "dir/" would follow a symlink */
	snprintf(path, sizeof(path), "%.*s", (int)n, dir);
	if (lstat(path, &st)) {
		snprintf(err, errlen, "cannot open state directory %s: %s", dir,
			 strerror(errno));
		return -errno;
	}
	if (unsafe(dir, &st, err, errlen))
		return -EPERM;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open state directory %s: %s", dir,
			 strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st) || unsafe(dir, &st, err, errlen)) {
		close(fd);    /* swapped between lstat and open */
		return -EPERM;
	}
	return fd;
}

/* Remove @name in directory @dfd and below, staying on device @dev. */
static int remove_at(int dfd, const char *name, dev_t dev)
{
	struct dirent *e;
	struct stat st;
	int fd, ret = 0, r;
	DIR *d;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dfd, name, 0) && errno != ENOENT ? -errno : 0;
	if (st.st_dev != dev)
		return -EXDEV;    /* a mount inside: never walk into it */
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			r = remove_at(dirfd(d), e->d_name, dev);
			ret = ret ?: r;
		}
	closedir(d);
	if (unlinkat(dfd, name, AT_REMOVEDIR) && errno != ENOENT)
		ret = ret ?: -errno;
	return ret;
}

/*
 * Does @path's parent really lie in @dir (symlinks resolved)? 0, -ENOENT or
 * -EPERM. The last component itself is never followed: a symlink there is
 * only unlinked.
 */
static int really_inside(const char *path, const char *dir)
{
	char parent[PATH_MAX], rp[PATH_MAX], rd[PATH_MAX], *slash;
	size_t n;

	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (!slash)
		return -EPERM;
	*slash = '\0';
	if (!realpath(parent, rp) || !realpath(dir, rd))
		return -errno;
	n = strlen(rd);
	if (strncmp(rp, rd, n) || (rp[n] != '/' && rp[n] != '\0'))
		return -EPERM;
	return 0;
}

/* Open each directory of @rel (all but the last component) from @fd down. */
static int walk_down(int fd, char *rel, char **last)
{
	char *comp = rel, *slash;
	int next;

	while ((slash = strchr(comp, '/'))) {
		*slash = '\0';
		if (!strcmp(comp, "..") || !strcmp(comp, "."))
			return close(fd), -EPERM;
		if (comp[0]) {
			next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			close(fd);
			if (next < 0)
				return -errno;
			fd = next;
		}
		comp = slash + 1;
	}
	if (!comp[0] || !strcmp(comp, "..") || !strcmp(comp, "."))
		return close(fd), -EPERM;
	*last = comp;
	return fd;
}

int state_dir_remove_tree_in(const char *top, const char *path)
{
	char dir[PATH_MAX], rel[PATH_MAX], *last = NULL;
	size_t n;
	struct stat st;
	int fd, ret;

	n = (size_t)snprintf(dir, sizeof(dir), "%s", top);
	if (n >= sizeof(dir))
		return -ENAMETOOLONG;
	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';
	if (strncmp(path, dir, n) || path[n] != '/' ||
	    snprintf(rel, sizeof(rel), "%s", path + n + 1) >= (int)sizeof(rel))
		return -EPERM;
	ret = really_inside(path, dir);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		return fd < 0 ? -errno : (close(fd), -EIO);
	fd = walk_down(fd, rel, &last);
	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	ret = remove_at(fd, last, st.st_dev);
	close(fd);
	return ret;
}

int state_dir_remove_tree(const char *path)
{
	char dir[PATH_MAX];

	state_dir_path(dir, sizeof(dir));
	return state_dir_remove_tree_in(dir, path);
}
