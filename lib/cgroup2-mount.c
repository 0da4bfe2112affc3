// SPDX-License-Identifier: MIT
/* cgroup2-mount.c - the cgroup2 mount point and its options, from mountinfo. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cgroup2-mount.h"

int cgroup2_mount(char *path, size_t plen, char *opts, size_t olen, int *favor)
{
	char line[1024], mp[PATH_MAX], fstype[64], super[512], *tok, *save = NULL;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1 ||
		    sscanf(dash + 3, "%63s %*s %511s", fstype, super) != 2)
			continue;
		found = !strcmp(fstype, "cgroup2");
	}
	if (f)
		fclose(f);
	if (!found)
		return -ENOENT;
	snprintf(path, plen, "%s", mp);
	opts[0] = '\0';
	*favor = 0;
	for (tok = strtok_r(super, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "favordynmods"))
			*favor = 1;
		else if (strcmp(tok, "rw") && strcmp(tok, "ro"))
			snprintf(opts + strlen(opts), olen - strlen(opts), "%s%s",
				 opts[0] ? "," : "", tok);
	}
	return 0;
}
