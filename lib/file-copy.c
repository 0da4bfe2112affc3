// SPDX-License-Identifier: MIT
/*
 * file-copy.c - copy a regular file with read(2) and write(2), 64 KiB at a
 * time; no sendfile or copy_file_range, so it works across any two file
 * systems (an initramfs into an overlay, a cache into a state directory).
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "file-copy.h"

int file_copy(const char *src, const char *dst, mode_t mode)
{
	char buf[65536];
	int in, out, ret = 0;
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (out < 0) {
		ret = -errno;
		close(in);
		return ret;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			ret = -EIO;
			break;
		}
	if (n < 0)
		ret = -errno;
	close(in);
	if (close(out) && !ret)
		ret = -errno;
	return ret;
}
