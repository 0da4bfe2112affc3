// SPDX-License-Identifier: MIT
/*
 * guest-accept.c - memory acceptance, the guest-accept key (eager, lazy):
 *   model:        eager = the RAM preallocated when QEMU starts (prealloc=on,
 *                 as before the key), lazy = allocated as the guest first
 *                 touches it (prealloc=off); unmergeable either way.
 *   sev-snp, tdx: the guest kernel's accept_memory=eager|lazy. Lazy needs
 *                 a kernel with unaccepted memory (Linux >= 6.5; Debian 12's
 *                 6.1 has none, bookworm-backports' 6.12 has): with an older
 *                 one the cell is a skip naming it. An older kernel is eager
 *                 by itself (all memory accepted at boot) and gets nothing.
 * The kernel's release is read from its bzImage (the setup header's
 * kernel_version string), so the built guest and a user's guest-kernel are
 * judged alike; a kernel without one is given the value unverified.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guest-accept.h"

/* setup header: "HdrS" at 0x202, protocol version at 0x206, kernel_version at 0x20e */
#define BZ_MAGIC_OFF 0x202
#define BZ_PROTO_OFF 0x206
#define BZ_VERSION_OFF 0x20e

/* The little-endian 16-bit field at @off of header bytes @h read from BZ_MAGIC_OFF. */
static uint16_t le16_at(const unsigned char *h, int off)
{
	return (uint16_t)(h[off - BZ_MAGIC_OFF] | h[off - BZ_MAGIC_OFF + 1] << 8);
}

int guest_bzimage_release(const char *path, char *buf, size_t len)
{
	unsigned char h[BZ_VERSION_OFF + 2 - BZ_MAGIC_OFF];
	char text[128];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = pread(fd, h, sizeof(h), BZ_MAGIC_OFF);
	if (n != (ssize_t)sizeof(h) || memcmp(h, "HdrS", 4) || le16_at(h, BZ_PROTO_OFF) < 0x200 ||
	    !le16_at(h, BZ_VERSION_OFF))
		n = -1;
	else
		n = pread(fd, text, sizeof(text) - 1, 0x200 + le16_at(h, BZ_VERSION_OFF));
	close(fd);
	if (n <= 0)
		return -ENODATA;
	text[n] = '\0';
	text[strcspn(text, " ")] = '\0';
	if (!text[0] || strlen(text) >= len ||
	    text[strspn(text, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			".-+_~")])
		return -ENODATA;
	snprintf(buf, len, "%s", text);
	return 0;
}

/* 1: @release is older than Linux 6.5; 0: 6.5 or later; -1: unknown. */
static int before_unaccepted(const char *release)
{
	int major, minor;

	if (sscanf(release, "%d.%d", &major, &minor) != 2)
		return -1;
	if (major != GUEST_ACCEPT_LINUX_MAJOR)
		return major < GUEST_ACCEPT_LINUX_MAJOR;
	return minor < GUEST_ACCEPT_LINUX_MINOR;
}

static int cvm_plan(const char *accept, const char *release, const char **value,
		    char *note, size_t len)
{
	int old = before_unaccepted(release);

	*value = accept;
	if (old < 0) {
		snprintf(note, len, "%s: accept_memory=%s given; the guest kernel's release is "
			 "unknown (no version string in its bzImage), so not checked", accept,
			 accept);
		return 0;
	}
	if (!old) {
		snprintf(note, len, "%s: accept_memory=%s (guest kernel %s has unaccepted "
			 "memory, Linux >= 6.5)", accept, accept, release);
		return 0;
	}
	if (!strcmp(accept, "lazy")) {
		snprintf(note, len, "guest-accept = lazy needs a guest kernel with unaccepted "
			 "memory (Linux >= 6.5, e.g. bookworm-backports' 6.12: guest-kernel = "
			 "its bzImage); guest kernel %s has none", release);
		return 1;
	}
	*value = NULL;
	snprintf(note, len, "eager: guest kernel %s has no unaccepted memory (Linux < 6.5): "
		 "all its memory is accepted at boot; no accept_memory= given", release);
	return 0;
}

int guest_accept_plan(const char *confidential, const char *accept, const char *release,
		      const char **value, char *note, size_t len)
{
	*value = NULL;
	note[0] = '\0';
	if (!strcmp(confidential, "sev-snp") || !strcmp(confidential, "tdx"))
		return cvm_plan(accept, release, value, note, len);
	if (strcmp(confidential, "model"))
		return 0;
	*value = accept;
	if (!strcmp(accept, "lazy"))
		snprintf(note, len, "lazy: RAM allocated as the guest first touches it "
			 "(prealloc=off), unmergeable (merge=off, mem-merge=off)");
	else
		snprintf(note, len, "eager: RAM preallocated when QEMU starts (prealloc=on), "
			 "unmergeable (merge=off, mem-merge=off)");
	return 0;
}
