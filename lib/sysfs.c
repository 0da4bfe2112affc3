// SPDX-License-Identifier: MIT
/*
 * sysfs.c - read and write the small kernel files (sysfs, procfs, module
 * parameters) that probes, knobs, the journal and the environment use,
 * under the test root of sysroot.h when one is set.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sysfs.h"
#include "sysroot.h"

/**
 * sysfs_read() - read up to @len - 1 bytes of a small file, NUL-ended,
 * with trailing whitespace removed.
 * @path: file to read
 * @buf: where to store it
 * @len: size of @buf
 *
 * Return: number of bytes kept, or -errno.
 */
int sysfs_read(const char *path, char *buf, size_t len)
{
	ssize_t n, got = 0;
	int fd;

	if (!len)
		return -EINVAL;
	fd = sysroot_open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)got < len - 1) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		got += n;
	}
	close(fd);
	while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == ' ' ||
			   buf[got - 1] == '\t'))
		got--;
	buf[got] = '\0';
	return (int)got;
}

/**
 * sysfs_read_line() - read the first line of a small file, without its newline.
 * @path: file to read
 * @buf: where to store it
 * @len: size of @buf
 *
 * Return: length of the line, or -errno.
 */
int sysfs_read_line(const char *path, char *buf, size_t len)
{
	int n = sysfs_read(path, buf, len);
	char *nl;

	if (n < 0)
		return n;
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return (int)strlen(buf);
}

/**
 * sysfs_write() - write @value to @path in one write(2). Returns 0 or -errno.
 * A kernel file takes the value whole; a file of a test's fake tree
 * (sysroot.h) is truncated first, so that it reads back the same way.
 */
int sysfs_write(const char *path, const char *value)
{
	int fd = sysroot_open(path, O_WRONLY | O_CLOEXEC | (sysroot() ? O_TRUNC : 0));
	int ret = 0;
	size_t len = strlen(value);

	if (fd < 0)
		return -errno;
	if (write(fd, value, len) != (ssize_t)len)
		ret = -errno;
	close(fd);
	return ret;
}

/**
 * sysfs_rmdir_busy() - rmdir a kernel directory (a cgroup, a tracefs
 * instance), retrying every 2 ms while it is busy (a task still exiting
 * holds it) for up to @ms milliseconds. A missing @dir is not an error.
 * Returns 0 or -errno.
 */
int sysfs_rmdir_busy(const char *dir, int ms)
{
	struct timespec pause = { 0, 2000000 };
	int i;

	for (i = 0; i <= ms / 2; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		nanosleep(&pause, NULL);
	}
	return -EBUSY;
}
