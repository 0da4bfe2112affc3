// SPDX-License-Identifier: MIT
/*
 * mount-point.c - mount points from /proc/self/mountinfo (mount-point.h):
 * the fifth field of a line, and unmounting what lies under a directory.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "mount-point.h"

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++, w++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			*w = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w = *s;
		}
	}
	*w = '\0';
}

int mountinfo_point(const char *line, char *dir, size_t len)
{
	char point[4096];

	if (sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1)
		return -EINVAL;
	unescape(point);
	if (strlen(point) >= len)
		return -ENAMETOOLONG;
	memcpy(dir, point, strlen(point) + 1);
	return 0;
}

/* @point is @dir or below "@dir/". */
static int is_under(const char *point, const char *dir, size_t n)
{
	return !strncmp(point, dir, n) && (point[n] == '\0' || point[n] == '/');
}

/* The longest (so deepest) mount point at or under @dir: 1, 0 (none), -errno. */
static int deepest_under(const char *dir, char *found, size_t len)
{
	char line[8192], point[4096];
	size_t n = strlen(dir), best = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (!mountinfo_point(line, point, sizeof(point)) && is_under(point, dir, n) &&
		    strlen(point) > best && strlen(point) < len) {
			best = strlen(point);
			memcpy(found, point, best + 1);
		}
	fclose(f);
	return best > 0;
}

int mount_unmount_under(const char *dir)
{
	char point[4096], d[4096];
	size_t n = (size_t)snprintf(d, sizeof(d), "%s", dir);
	int i, ret;

	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	if (n < 2 || d[0] != '/')
		return -EINVAL;        /* never "/" itself, never a relative path */
	for (i = 0; i < 1024; i++) {
		ret = deepest_under(d, point, sizeof(point));
		if (ret <= 0)
			return ret < 0 ? ret : i;
		if (umount2(point, UMOUNT_NOFOLLOW) &&
		    (errno != EBUSY || umount2(point, MNT_DETACH | UMOUNT_NOFOLLOW)))
			return -errno;
	}
	return -EBUSY;
}
