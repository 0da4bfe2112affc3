// SPDX-License-Identifier: MIT
/*
 * file-tail.c - the last line of a log file (file-tail.h): a child's
 * stderr turned into the reason of an error, read from the file's end.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "file-tail.h"

void file_tail_line(const char *path, char *buf, size_t len)
{
	char t[1024], *nl;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t end = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
	ssize_t n = -1;

	if (end >= 0) {
		lseek(fd, end > (off_t)sizeof(t) - 1 ? end - (off_t)sizeof(t) + 1 : 0, SEEK_SET);
		n = read(fd, t, sizeof(t) - 1);
	}
	if (fd >= 0)
		close(fd);
	t[n > 0 ? n : 0] = '\0';
	while (n > 0 && (t[n - 1] == '\n' || t[n - 1] == '\r'))
		t[--n] = '\0';
	nl = strrchr(t, '\n');
	snprintf(buf, len, "%s", nl ? nl + 1 : n > 0 ? t : "(nothing)");
}
