// SPDX-License-Identifier: MIT
/*
 * oci-cpuset.c - can runc / crun give a container a cpuset of its own here
 * (oci-host.h oci_cpuset_usable())? That is how the `pin` key reaches a
 * container: its config.json's linux.resources.cpu.cpus (oci-bundle.c).
 * A runtime asked for a cpuset where there is no cpuset controller fails
 * the start ("cannot set cpuset limit"), so the pin then stays the
 * affinity the runtime inherits from cvmbench's thread, which nothing
 * resets (no cpuset controller, no cpuset to attach to), and the cell says
 * so. Read from what the runtime itself goes by: /sys/fs/cgroup a cgroup2
 * mount (the unified hierarchy: its cgroup.controllers), else the cgroup
 * v1 hierarchies of /proc/self/mountinfo.
 */
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <linux/magic.h>

#include "oci-host.h"

/* Is @word one of the @sep separated words of @list? */
static int has_word(const char *list, const char *word, const char *sep)
{
	char buf[1024], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, sep, &save); tok; tok = strtok_r(NULL, sep, &save))
		if (!strcmp(tok, word))
			return 1;
	return 0;
}

static int v2_cpuset(char *why, size_t len)
{
	char ctrls[512] = "";
	FILE *f = fopen("/sys/fs/cgroup/cgroup.controllers", "re");

	if (f && !fgets(ctrls, sizeof(ctrls), f))
		ctrls[0] = '\0';
	if (f)
		fclose(f);
	ctrls[strcspn(ctrls, "\n")] = '\0';
	if (has_word(ctrls, "cpuset", " "))
		return 1;
	snprintf(why, len, "cgroup v2 without the cpuset controller "
		 "(/sys/fs/cgroup/cgroup.controllers: \"%s\")", ctrls);
	return 0;
}

static int v1_cpuset(char *why, size_t len)
{
	char line[1024], fstype[64], super[512];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *dash = strstr(line, " - ");

		if (dash && sscanf(dash + 3, "%63s %*s %511s", fstype, super) == 2)
			found = !strcmp(fstype, "cgroup") && has_word(super, "cpuset", ",");
	}
	if (f)
		fclose(f);
	if (!found)
		snprintf(why, len, "cgroup v1 without a cpuset hierarchy (none mounted: "
			 "/proc/self/mountinfo)");
	return found;
}

int oci_cpuset_usable(const struct cell *c, char *why, size_t len)
{
	struct statfs sf;

	if (!strcmp(c->cgroups, "off")) {
		snprintf(why, len, "cgroups = off: the container gets no cgroup");
		return 0;
	}
	if (!statfs("/sys/fs/cgroup", &sf) && sf.f_type == CGROUP2_SUPER_MAGIC)
		return v2_cpuset(why, len);
	return v1_cpuset(why, len);
}
