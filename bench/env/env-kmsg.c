// SPDX-License-Identifier: MIT
/*
 * env-kmsg.c - find a line in the kernel log ring buffer: first through
 * klogctl(SYSLOG_ACTION_READ_ALL), which does not consume the buffer, then,
 * if that is refused, by reading /dev/kmsg without blocking from its first
 * record to its end. Both need CAP_SYSLOG when kernel.dmesg_restrict is 1.
 * Lines that scrolled out of the ring buffer cannot be found. Under a test
 * root (sysroot.h) the captured dmesg-excerpt file is the log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "env-kmsg.h"
#include "sysroot.h"

#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_SIZE_BUFFER	10

/* Copy the line of @text holding @at, from its start, into @out. */
static void kmsg_copy_line(const char *text, const char *at, char *out,
			   size_t len)
{
	const char *start = at, *end = strchr(at, '\n');
	size_t n;

	while (start > text && start[-1] != '\n')
		start--;
	n = end ? (size_t)(end - start) : strlen(start);
	if (n >= len)
		n = len - 1;
	memcpy(out, start, n);
	out[n] = '\0';
}

static int kmsg_find_klogctl(const char *needle, char *out, size_t len)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0), n;
	char *buf, *at;

	if (size < 0)
		return -errno;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return -ENOMEM;
	n = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	if (n < 0) {
		n = -errno;
		free(buf);
		return n;
	}
	buf[n] = '\0';
	at = strstr(buf, needle);
	if (at)
		kmsg_copy_line(buf, at, out, len);
	free(buf);
	return at ? 1 : 0;
}

static int kmsg_find_devkmsg(const char *needle, char *out, size_t len)
{
	char rec[8192];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC), found = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && (errno == EPIPE || errno == EINTR))
			continue;	/* record overwritten while reading */
		if (n <= 0)
			break;
		rec[n] = '\0';
		if (strstr(rec, needle)) {
			const char *msg = strchr(rec, ';');

			kmsg_copy_line(rec, msg ? msg + 1 : rec, out, len);
			found = 1;
			break;
		}
	}
	if (n < 0 && errno != EAGAIN && !found)
		found = -errno;
	close(fd);
	return found;
}

/* The captured log of a test root, one line per record. */
static int kmsg_find_captured(const char *needle, char *out, size_t len)
{
	char line[1024];
	FILE *f = sysroot_fopen("/dmesg-excerpt", "re");
	int found = 0;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f))
		if (strstr(line, needle)) {
			kmsg_copy_line(line, line, out, len);
			found = 1;
		}
	fclose(f);
	return found;
}

/**
 * env_kmsg_find() - look for @needle in the kernel log.
 * @needle: text to find, e.g. "Memory Encryption Features active"
 * @out: receives the first matching line
 * @len: size of @out
 * @how: receives the method that gave the answer (or the errors of both)
 * @howlen: size of @how
 *
 * Return: 1 found, 0 not in the log, -errno if the log cannot be read.
 */
int env_kmsg_find(const char *needle, char *out, size_t len, char *how,
		  size_t howlen)
{
	int r1, r2;

	if (sysroot()) {
		snprintf(how, howlen, "%s/dmesg-excerpt (test root)", sysroot());
		return kmsg_find_captured(needle, out, len);
	}
	r1 = kmsg_find_klogctl(needle, out, len);
	if (r1 >= 0) {
		snprintf(how, howlen, "klogctl(SYSLOG_ACTION_READ_ALL)");
		return r1;
	}
	r2 = kmsg_find_devkmsg(needle, out, len);
	if (r2 >= 0) {
		snprintf(how, howlen, "/dev/kmsg (klogctl: %s)", strerror(-r1));
		return r2;
	}
	snprintf(how, howlen, "klogctl: %s; /dev/kmsg: %s", strerror(-r1),
		 strerror(-r2));
	return r2;
}
