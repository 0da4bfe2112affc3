// SPDX-License-Identifier: MIT
/*
 * config-file.c - read a config file for config.c: a regular file of at
 * most CONFIG_MAX_BYTES bytes, with no NUL byte. A directory, a device or
 * a FIFO is refused before anything is read (a FIFO is opened without
 * waiting for a writer), so `run /dev/zero` neither hangs nor fills memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"

static const char *file_kind(mode_t mode)
{
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a file";
}

static int check_file(int fd, const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st)) {
		snprintf(err, errlen, "cannot read config %s: %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory", path);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (%s)", path,
			 file_kind(st.st_mode));
		return -EINVAL;
	}
	if (st.st_size > CONFIG_MAX_BYTES) {
		snprintf(err, errlen, "%s: larger than %d bytes (%lld): not a config",
			 path, CONFIG_MAX_BYTES, (long long)st.st_size);
		return -EFBIG;
	}
	return 0;
}

/* Up to CONFIG_MAX_BYTES from @fd, NUL-terminated; -EFBIG if there is more. */
static int read_all(int fd, const char *path, char **out, char *err, size_t errlen)
{
	char *text = malloc(CONFIG_MAX_BYTES + 2);
	size_t len = 0;
	ssize_t n;

	if (!text) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	do {
		n = read(fd, text + len, CONFIG_MAX_BYTES + 1 - len);
		len += n > 0 ? (size_t)n : 0;
	} while ((n > 0 && len <= CONFIG_MAX_BYTES) || (n < 0 && errno == EINTR));
	if (n < 0 || len > CONFIG_MAX_BYTES) {
		if (n < 0)
			snprintf(err, errlen, "cannot read config %s: %s", path, strerror(errno));
		else
			snprintf(err, errlen, "%s: larger than %d bytes: not a config",
				 path, CONFIG_MAX_BYTES);
		free(text);
		return n < 0 ? -EIO : -EFBIG;
	}
	text[len] = '\0';
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "%s: not a text file (NUL byte)", path);
		free(text);
		return -EINVAL;
	}
	*out = text;
	return 0;
}

int config_load(const char *path, struct config **out, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY), ret;
	char *text = NULL;

	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open config %s: %s", path, strerror(errno));
		return ret;
	}
	ret = check_file(fd, path, err, errlen);
	if (!ret)
		ret = read_all(fd, path, &text, err, errlen);
	close(fd);
	if (!ret)
		ret = config_load_string(path, text, out, err, errlen);
	free(text);
	return ret;
}
