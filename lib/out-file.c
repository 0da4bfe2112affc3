// SPDX-License-Identifier: MIT
/*
 * out-file.c - output files made safely (out-file.h): the directory is
 * opened with O_DIRECTORY | O_NOFOLLOW, a file is made under a temporary
 * name ".NAME.XXXXXX" in it with openat(O_CREAT | O_EXCL | O_NOFOLLOW)
 * and renamed onto NAME (renameat, which replaces a symlink, never writes
 * through it) once complete; on failure only the temporary name is
 * removed. A file another program made by name in a private directory
 * (mkdtemp, mode 0700) is moved in by renameat, or copied through the
 * temporary file's descriptor when the two are on different filesystems.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "out-file.h"

/* The error of opening directory @path (errno @e), refusals as -EPERM. */
static int out_dir_fail(const char *path, int e)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		pr_err("%s: a symlink: refused (cvmbench writes no output through a symlink; "
		       "give the directory it points to)", path);
		return -EPERM;
	}
	if (e == ENOTDIR) {
		pr_err("%s: not a directory", path);
		return -EPERM;
	}
	pr_err("%s: %s", path, strerror(e));
	return e == EPERM ? -EACCES : -e;
}

/**
 * out_dir_open() - open the output directory @path into @d without
 * following a symlink (made first when @make and absent). Trailing
 * slashes are dropped: "DIR/" would follow a symlink DIR.
 */
int out_dir_open(struct out_dir *d, const char *path, int make)
{
	size_t l;

	d->fd = -1;
	if (snprintf(d->path, sizeof(d->path), "%s", path) >= (int)sizeof(d->path)) {
		pr_err("%s: path too long", path);
		return -ENAMETOOLONG;
	}
	for (l = strlen(d->path); l > 1 && d->path[l - 1] == '/'; l--)
		d->path[l - 1] = '\0';
	if (make && mkdir(d->path, 0777) && errno != EEXIST)
		return out_dir_fail(d->path, errno);
	d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return d->fd < 0 ? out_dir_fail(d->path, errno) : 0;
}

/**
 * out_dir_of() - out_dir_open() of the directory of the file @path ("."
 * when it has no '/'); *@base points at what follows its last '/' (may
 * be empty).
 */
int out_dir_of(struct out_dir *d, const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	*base = slash ? slash + 1 : path;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) ?: 1, path) >=
		 (int)sizeof(dir)) {
		pr_err("%s: path too long", path);
		d->fd = -1;
		return -ENAMETOOLONG;
	}
	return out_dir_open(d, dir, 0);
}

/** out_dir_close() - close what out_dir_open() opened; safe to call twice. */
void out_dir_close(struct out_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/**
 * out_file_check() - whether @name in @d may be written: absent or a
 * regular file. A symlink or anything else is refused (-EPERM, named).
 */
int out_file_check(const struct out_dir *d, const char *name)
{
	struct stat st;
	int e;

	if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		e = errno;
		if (e == ENOENT)
			return 0;
		pr_err("%s/%s: %s", d->path, name, strerror(e));
		return e == EPERM ? -EACCES : -e;
	}
	if (S_ISLNK(st.st_mode)) {
		pr_err("%s/%s: a symlink: refused (cvmbench writes no output through a "
		       "symlink; remove it or write elsewhere)", d->path, name);
		return -EPERM;
	}
	if (!S_ISREG(st.st_mode)) {
		pr_err("%s/%s: not a regular file: refused", d->path, name);
		return -EPERM;
	}
	return 0;
}

/* A fresh temporary name for @name: ".NAME.XXXXXX" (NAME cut to 200). */
static void out_tmp_name(char *buf, size_t len, const char *name)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	char s[7];
	size_t i;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		for (i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)random();
	for (i = 0; i < sizeof(r); i++)
		s[i] = set[r[i] % (sizeof(set) - 1)];
	s[6] = '\0';
	snprintf(buf, len, ".%.200s.%s", name, s);
}

/**
 * out_file_create_tmp() - check @name in @d (out_file_check()) and make a
 * temporary file beside it, open for writing in @o->f. Finish with
 * out_file_commit() or out_file_abort().
 */
int out_file_create_tmp(struct out_file *o, const struct out_dir *d, const char *name)
{
	int fd = -1, i, ret, e;

	o->dir = d;
	o->f = NULL;
	o->tmp[0] = '\0';
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") ||
	    snprintf(o->name, sizeof(o->name), "%s", name) >= (int)sizeof(o->name)) {
		pr_err("%s/%s: not a file name", d->path, name);
		return -EINVAL;
	}
	ret = out_file_check(d, name);
	if (ret)
		return ret;
	for (i = 0; fd < 0 && i < 100; i++) {
		out_tmp_name(o->tmp, sizeof(o->tmp), name);
		fd = openat(d->fd, o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		e = errno;
		pr_err("%s: cannot make a file in it: %s", d->path, strerror(e));
		if (fd >= 0) {
			close(fd);
			unlinkat(d->fd, o->tmp, 0);
		}
		o->tmp[0] = '\0';
		return -e;
	}
	return 0;
}

/* Copy @src (from its start) into @o's temporary file. */
static int out_copy(struct out_file *o, int src)
{
	char buf[65536];
	ssize_t n, w, k;

	if (fflush(o->f))
		return -errno;
	while ((n = read(src, buf, sizeof(buf))) > 0)
		for (k = 0; k < n; k += w) {
			w = write(fileno(o->f), buf + k, (size_t)(n - k));
			if (w < 0)
				return -errno;
		}
	return n < 0 ? -errno : 0;
}

/**
 * out_file_adopt() - make the file @srcname of the directory @srcdir (a
 * private one, out_tmpdir_make()) the content of @o: renamed onto @o's
 * temporary name, or copied into it across filesystems.
 */
int out_file_adopt(struct out_file *o, int srcdir, const char *srcname)
{
	int fd, ret;

	if (!renameat(srcdir, srcname, o->dir->fd, o->tmp))
		return 0;
	if (errno != EXDEV) {
		ret = -errno;
		pr_err("%s/%s: %s", o->dir->path, o->tmp, strerror(-ret));
		return ret;
	}
	fd = openat(srcdir, srcname, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ret = fd < 0 ? -errno : out_copy(o, fd);
	if (fd >= 0)
		close(fd);
	if (ret)
		pr_err("%s/%s: copying %s: %s", o->dir->path, o->tmp, srcname, strerror(-ret));
	return ret;
}

/**
 * out_file_commit() - close @o's temporary file and rename it onto its
 * name. On failure the temporary file is removed and the name is left as
 * it was.
 */
int out_file_commit(struct out_file *o)
{
	const struct out_dir *d = o->dir;
	int bad = ferror(o->f) | fclose(o->f), ret = 0;

	o->f = NULL;
	if (bad) {
		pr_err("writing %s/%s failed", d->path, o->name);
		ret = -EIO;
	} else if (renameat(d->fd, o->tmp, d->fd, o->name)) {
		ret = -errno;
		pr_err("%s/%s: %s", d->path, o->name, strerror(-ret));
	}
	if (ret)
		unlinkat(d->fd, o->tmp, 0);
	o->tmp[0] = '\0';
	return ret;
}

/** out_file_abort() - drop @o: close and remove its temporary file only. */
void out_file_abort(struct out_file *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlinkat(o->dir->fd, o->tmp, 0);
	o->tmp[0] = '\0';
}

/**
 * out_tmpdir_make() - a private directory (mkdtemp, mode 0700) under
 * $TMPDIR (when absolute) or /tmp, its path into @path.
 */
int out_tmpdir_make(char *path, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int e;

	if (snprintf(path, len, "%s/cvmbench-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp") >=
	    (int)len)
		return -ENAMETOOLONG;
	if (mkdtemp(path))
		return 0;
	e = errno;
	pr_err("%s: cannot make a temporary directory: %s", path, strerror(e));
	return -e;
}

/** out_tmpdir_remove() - remove @path and the files in it. */
void out_tmpdir_remove(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *e;

	if (!dir)
		return;
	while ((e = readdir(dir)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(dir), e->d_name, 0);
	closedir(dir);
	if (rmdir(path))
		pr_warn("%s: cannot remove it: %s", path, strerror(errno));
}
