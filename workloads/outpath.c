// SPDX-License-Identifier: MIT
/*
 * outpath.c - choose between an atomic replace and an in-place write for a
 * workload's output file (see outpath.h), and the in-place write itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outpath.h"

/* How to write a file of type @mode: 0 replace, 1 in place, or -errno. */
static int classify(struct wl_instance *inst, const char *path, mode_t mode)
{
	if (S_ISREG(mode))
		return 0;
	if (S_ISCHR(mode) || S_ISFIFO(mode))
		return 1;
	if (S_ISDIR(mode))
		return wl_error(inst, -EISDIR, "cannot write %s: it is a directory", path);
	return wl_error(inst, -EINVAL, "refusing to write %s: a %s, not a regular file",
			path, S_ISBLK(mode) ? "block device" : "socket or special file");
}

static int copy_path(struct wl_instance *inst, char *dst, const char *src)
{
	if ((size_t)snprintf(dst, PATH_MAX, "%s", src) >= PATH_MAX)
		return wl_error(inst, -ENAMETOOLONG, "path too long: %s", src);
	return 0;
}

int wl_out_target(struct wl_instance *inst, const char *path, struct wl_out_target *t)
{
	struct stat st;
	int how;

	t->in_place = 0;
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return wl_error(inst, -errno, "cannot write %s: %s", path, strerror(errno));
		return copy_path(inst, t->path, path);
	}
	if (!S_ISLNK(st.st_mode)) {
		how = classify(inst, path, st.st_mode);
		if (how < 0)
			return how;
		t->in_place = how;
		return copy_path(inst, t->path, path);
	}
	/* a symlink: what it points to is the output, the link stays */
	if (!realpath(path, t->path)) {
		if (errno != ENOENT)
			return wl_error(inst, -errno, "cannot write %s: %s", path, strerror(errno));
		t->in_place = 1;     /* dangling: open() creates its target */
		return copy_path(inst, t->path, path);
	}
	if (stat(t->path, &st))
		return wl_error(inst, -errno, "cannot write %s: %s", path, strerror(errno));
	how = classify(inst, path, st.st_mode);
	if (how < 0)
		return how;
	t->in_place = how;
	return 0;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int wl_write_fd(int fd, const void *a, size_t alen, const void *b, size_t blen)
{
	int err = write_all(fd, a, alen);

	if (!err && blen)
		err = write_all(fd, b, blen);
	return err;
}

int wl_write_in_place(struct wl_instance *inst, const char *path,
		      const void *a, size_t alen, const void *b, size_t blen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), err;

	if (fd < 0)
		return wl_error(inst, -errno, "cannot write %s: %s", path, strerror(errno));
	err = wl_write_fd(fd, a, alen, b, blen);
	if (close(fd) && !err)
		err = -errno;
	if (err)
		return wl_error(inst, err, "cannot write %s: %s", path, strerror(-err));
	return 0;
}

int wl_out_beside(struct wl_instance *inst, const char *output, const char *suffix,
		  char *path, size_t len)
{
	struct stat st;

	if (!stat(output, &st) && !S_ISREG(st.st_mode))
		return wl_error(inst, -EINVAL, "refusing --output %s: it is not a regular "
				"file, and %s%s is written beside it: give a file path",
				output, output, suffix);
	if ((size_t)snprintf(path, len, "%s%s", output, suffix) >= len)
		return wl_error(inst, -ENAMETOOLONG, "path too long: %s%s", output, suffix);
	return 0;
}
