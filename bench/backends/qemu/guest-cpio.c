// SPDX-License-Identifier: MIT
/*
 * guest-cpio.c - a writer of "newc" cpio archives, the format the kernel
 * unpacks an initramfs from (Documentation/driver-api/early-userspace/
 * buffer-format.rst). Every entry has uid 0, gid 0 and mtime 0, so the
 * same inputs give the same bytes, and so the same content hash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest-local.h"

struct cpio {
	FILE *f;
	unsigned long ino;
	unsigned long long off;
	int err;
};

struct cpio *cpio_open(const char *path)
{
	struct cpio *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->f = fopen(path, "wbe");
	if (!c->f) {
		free(c);
		return NULL;
	}
	c->ino = 1;
	return c;
}

static void put(struct cpio *c, const void *p, size_t n)
{
	if (!c->err && fwrite(p, 1, n, c->f) != n)
		c->err = -EIO;
	c->off += n;
}

static void pad4(struct cpio *c)
{
	static const char zero[4];

	if (c->off % 4)
		put(c, zero, 4 - c->off % 4);
}

static void header(struct cpio *c, const char *name, unsigned int mode, size_t size,
		   unsigned int nlink)
{
	char h[128];

	if (size > 0xffffffffUL && !c->err)
		c->err = -EFBIG;           /* newc sizes have 8 hex digits */
	snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 mode ? (unsigned int)c->ino++ : 0u, mode, 0u, 0u, nlink, 0u,
		 (unsigned int)size, 0u, 0u, 0u, 0u, (unsigned int)strlen(name) + 1, 0u);
	put(c, h, 110);
	put(c, name, strlen(name) + 1);
	pad4(c);
}

static int entry(struct cpio *c, const char *name, const void *data, size_t len,
		 unsigned int mode)
{
	header(c, name, mode, len, 1);
	put(c, data, len);
	pad4(c);
	return c->err;
}

int cpio_data(struct cpio *c, const char *name, const void *data, size_t len,
	      unsigned int mode)
{
	return entry(c, name, data, len, S_IFREG | (mode & 07777));
}

int cpio_dir(struct cpio *c, const char *name)
{
	header(c, name, S_IFDIR | 0755, 0, 2);
	return c->err;
}

int cpio_symlink(struct cpio *c, const char *name, const char *target)
{
	return entry(c, name, target, strlen(target), S_IFLNK | 0777);
}

int cpio_file(struct cpio *c, const char *name, const char *path, unsigned int mode)
{
	struct stat st;
	char *buf;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	n = buf ? read(fd, buf, (size_t)st.st_size) : -1;
	close(fd);
	if (n != st.st_size) {
		free(buf);
		return -EIO;
	}
	ret = cpio_data(c, name, buf, (size_t)n, mode);
	free(buf);
	return ret;
}

int cpio_close(struct cpio *c)
{
	int ret;

	header(c, "TRAILER!!!", 0, 0, 1);
	ret = c->err;
	if (fclose(c->f) && !ret)
		ret = -EIO;
	free(c);
	return ret;
}
