// SPDX-License-Identifier: MIT
/*
 * memcg.c - memory cgroups of the processes a cell starts (memcg.h): find
 * where they can be made (/proc/self/mountinfo, /proc/self/cgroup,
 * cgroup.subtree_control), make, join, read and remove them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "memcg.h"
#include "sysfs.h"
#include "sysroot.h"

/*
 * The mount point @mnt of the hierarchy whose superblock options hold @opt
 * (fstype @fs), and the cgroup shown there @root (a container's mount may show
 * only its own subtree), from mountinfo: "ID PARENT DEV ROOT MOUNT OPTS ... - FS SRC SUPER".
 */
static int find_mount(const char *fs, const char *opt, char *mnt, size_t len, char *mroot,
		      size_t rootlen)
{
	FILE *f = sysroot_fopen("/proc/self/mountinfo", "re");
	char line[4096], root[1024], point[1024], type[64], super[1024], *dash;
	int found = 0;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %1023s %1023s", root, point) != 2 ||
		    sscanf(dash + 3, "%63s %*s %1023s", type, super) != 2 || strcmp(type, fs))
			continue;
		if (opt) {
			char *tok, *save = NULL;

			for (tok = strtok_r(super, ",", &save); tok && !found;
			     tok = strtok_r(NULL, ",", &save))
				found = !strcmp(tok, opt);
		} else {
			found = 1;
		}
		if (found) {
			snprintf(mnt, len, "%s", point);
			snprintf(mroot, rootlen, "%s", root);
		}
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

/* @proc's cgroup ("/proc/self/cgroup") in the hierarchy with controller @ctl ("" for v2). */
static int cgroup_of(const char *proc, const char *ctl, char *path, size_t len)
{
	FILE *f = sysroot_fopen(proc, "re");
	char line[4096], *c1, *c2, *tok, *save = NULL;
	int found = 0;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		c1 = strchr(line, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		if (!*ctl)
			found = c1 == line + 1 && line[0] == '0' && c2 == c1 + 1;
		else
			for (tok = strtok_r(c1 + 1, ",", &save); tok && !found;
			     tok = strtok_r(NULL, ",", &save))
				found = !strcmp(tok, ctl);
		if (found)
			snprintf(path, len, "%s", c2 + 1);
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

/*
 * The directory of @proc's cgroup in the hierarchy of fstype @fs with
 * controller @ctl ("" for v2), into @dir: the mount point, then the cgroup's
 * path below the cgroup the mount shows (mountinfo's ROOT). -ENOENT when the
 * hierarchy is not mounted, or the cgroup is outside what the mount shows.
 */
static int cgroup_dir(const char *fs, const char *ctl, const char *proc, char *dir, size_t len)
{
	char mnt[1024], mroot[1024], cg[2048];
	const char *rest = cg;
	size_t n;

	if (find_mount(fs, *ctl ? ctl : NULL, mnt, sizeof(mnt), mroot, sizeof(mroot)) ||
	    cgroup_of(proc, ctl, cg, sizeof(cg)))
		return -ENOENT;
	n = strlen(mroot);
	if (strcmp(mroot, "/")) {
		if (strncmp(cg, mroot, n) || (cg[n] && cg[n] != '/'))
			return -ENOENT;
		rest = cg + n;
	}
	if (!strcmp(rest, "/"))
		rest = "";
	return (size_t)snprintf(dir, len, "%s%s", mnt, rest) >= len ? -ENAMETOOLONG : 0;
}

/* Whether the cgroup directory @dir passes the memory controller to its children. */
static int gives_memory(const char *dir)
{
	char path[PATH_MAX + 32], buf[512], *tok, *save = NULL;

	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
	if (sysfs_read_line(path, buf, sizeof(buf)) < 0)
		return 0;
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, "memory"))
			return 1;
	return 0;
}

static int detect_v2(struct memcg_host *h)
{
	char mnt[1024], mroot[1024], dir[PATH_MAX];

	if (find_mount("cgroup2", NULL, mnt, sizeof(mnt), mroot, sizeof(mroot)))
		return 0;
	if (!cgroup_dir("cgroup2", "", "/proc/self/cgroup", dir, sizeof(dir)) &&
	    gives_memory(dir)) {
		snprintf(h->parent, sizeof(h->parent), "%s", dir);
		return 1;
	}
	if (!gives_memory(mnt))
		return 0;
	snprintf(h->parent, sizeof(h->parent), "%s", mnt);
	return 1;
}

static int detect_v1(struct memcg_host *h)
{
	return !cgroup_dir("cgroup", "memory", "/proc/self/cgroup", h->parent,
			   sizeof(h->parent));
}

void memcg_detect(struct memcg_host *h)
{
	memset(h, 0, sizeof(*h));
	if (detect_v2(h))
		h->version = MEMCG_V2;
	else if (detect_v1(h))
		h->version = MEMCG_V1;
	else
		snprintf(h->why, sizeof(h->why), "no memory cgroup: cgroup v2 without the "
			 "memory controller for this process's children, and no cgroup v1 "
			 "memory hierarchy that shows this process's cgroup "
			 "(/proc/self/mountinfo, /proc/self/cgroup)");
}

int memcg_create(const struct memcg_host *h, const char *name, char *path, size_t len)
{
	char real[PATH_MAX];

	if (h->version == MEMCG_NONE || strchr(name, '/') || name[0] == '.')
		return -EINVAL;
	if ((size_t)snprintf(path, len, "%s/%s", h->parent, name) >= len)
		return -ENAMETOOLONG;
	return mkdir(sysroot_path(path, real, sizeof(real)), 0755) ? -errno : 0;
}

int memcg_attach(const char *path, pid_t pid)
{
	char file[PATH_MAX + 16], value[32];

	snprintf(file, sizeof(file), "%s/cgroup.procs", path);
	snprintf(value, sizeof(value), "%d", (int)pid);
	return sysfs_write(file, value);
}

long long memcg_usage_kb(const char *path, enum memcg_version v)
{
	char file[PATH_MAX + 32], buf[64], *end;
	long long bytes;
	int n;

	snprintf(file, sizeof(file), "%s/%s", path,
		 v == MEMCG_V2 ? "memory.current" : "memory.usage_in_bytes");
	n = sysfs_read_line(file, buf, sizeof(buf));
	if (n < 0)
		return n;
	bytes = strtoll(buf, &end, 10);
	return end == buf || *end || bytes < 0 ? -EINVAL : bytes / 1024;
}

/* The value of line "@key N" in @text, in kB; -1 when there is none. */
static long long stat_kb(const char *text, const char *key)
{
	size_t k = strlen(key);
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, k) && p[k] == ' ')
			return strtoll(p + k + 1, NULL, 10) / 1024;
	return -1;
}

int memcg_stat_parse(const char *text, enum memcg_version v, struct memcg_stat *s)
{
	int v2 = v == MEMCG_V2;

	s->anon = stat_kb(text, v2 ? "anon" : "rss");
	s->file = stat_kb(text, v2 ? "file" : "cache");
	s->shmem = stat_kb(text, "shmem");
	s->unevictable = stat_kb(text, "unevictable");
	s->kernel = v2 ? stat_kb(text, "kernel") : -1;
	return s->anon < 0 && s->file < 0 ? -EINVAL : 0;
}

int memcg_stat_read(const char *path, enum memcg_version v, struct memcg_stat *s)
{
	char file[PATH_MAX + 16], buf[8192];
	int n;

	snprintf(file, sizeof(file), "%s/memory.stat", path);
	n = sysfs_read(file, buf, sizeof(buf));
	return n < 0 ? n : memcg_stat_parse(buf, v, s);
}

int memcg_of_pid(const struct memcg_host *h, pid_t pid, char *path, size_t len)
{
	char proc[64];
	int v2 = h->version == MEMCG_V2;

	if (h->version == MEMCG_NONE)
		return -ENOENT;
	snprintf(proc, sizeof(proc), "/proc/%d/cgroup", (int)pid);
	return cgroup_dir(v2 ? "cgroup2" : "cgroup", v2 ? "" : "memory", proc, path, len);
}

int memcg_others(const char *path, pid_t pid)
{
	char file[PATH_MAX + 16], buf[8192], *tok, *save = NULL;
	int n, others = 0;

	snprintf(file, sizeof(file), "%s/cgroup.procs", path);
	n = sysfs_read(file, buf, sizeof(buf));
	if (n < 0)
		return n;
	for (tok = strtok_r(buf, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save))
		others += atoi(tok) != (int)pid;
	return others;
}

int memcg_remove(const char *path)
{
	char real[PATH_MAX];

	return rmdir(sysroot_path(path, real, sizeof(real))) ? -errno : 0;
}
