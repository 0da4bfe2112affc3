// SPDX-License-Identifier: MIT
/*
 * netns-room.c - the network namespaces this host still allows: the
 * user.max_net_namespaces sysctl less the distinct namespaces that
 * /proc/PID/ns/net links name (namespaces held by a process; one bound to
 * a file and held by none is not seen, so the room is an upper bound).
 */
#include <ctype.h>
#include <limits.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "netns-room.h"
#include "sysroot.h"

#define MAX_SEEN 4096

/* Is @ino in @seen[0..@n)? Else add it (up to MAX_SEEN). */
static int seen_add(unsigned long *seen, long *n, unsigned long ino)
{
	long i;

	for (i = 0; i < *n; i++)
		if (seen[i] == ino)
			return 1;
	if (*n < MAX_SEEN)
		seen[(*n)++] = ino;
	return 0;
}

/* The distinct network namespaces of the processes in /proc. */
static long netns_in_use(void)
{
	char path[PATH_MAX + 300], dir[PATH_MAX], link[64];
	unsigned long *seen = calloc(MAX_SEEN, sizeof(*seen)), ino;
	long n = 0;
	struct dirent *e;
	ssize_t r;
	DIR *d = opendir(sysroot_path("/proc", dir, sizeof(dir)));

	while (seen && d && (e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s/ns/net", dir, e->d_name);
		r = readlink(path, link, sizeof(link) - 1);
		if (r <= 0)
			continue;
		link[r] = '\0';
		if (sscanf(link, "net:[%lu]", &ino) == 1)
			seen_add(seen, &n, ino);
	}
	if (d)
		closedir(d);
	free(seen);
	return n;
}

long netns_room(long *max, long *used, char *why, size_t len)
{
	FILE *f = sysroot_fopen("/proc/sys/user/max_net_namespaces", "re");
	int ok = f && fscanf(f, "%ld", max) == 1;

	if (f)
		fclose(f);
	if (!ok) {
		snprintf(why, len, "cannot read /proc/sys/user/max_net_namespaces");
		return -1;
	}
	*used = netns_in_use();
	return *max > *used ? *max - *used : 0;
}
