// SPDX-License-Identifier: MIT
/*
 * rootfs-list.c - a rootfs's package list (configs/rootfs/NAME.list: one
 * Debian package name a line, '#' comments) read and checked, and resolved
 * to the candidate version of each package on this machine (apt-cache
 * policy, the host's apt lists of the same suite): the list's bytes and
 * those versions make the key of the cache.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "paths.h"
#include "rootfs-local.h"

const char *const rootfs_sources[] = {
	"deb http://deb.debian.org/debian " ROOTFS_SUITE " main",
	"deb http://deb.debian.org/debian " ROOTFS_SUITE "-updates main",
	"deb http://deb.debian.org/debian-security " ROOTFS_SUITE "-security main",
};
const size_t rootfs_nsources = sizeof(rootfs_sources) / sizeof(rootfs_sources[0]);

int rootfs_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n && n < ROOTFS_NAME_MAX && name[0] != '-' &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

int rootfs_list_path(const char *configs, const char *name, char *buf, size_t len)
{
	char dir[PATH_MAX];

	if (!configs)
		find_configs_dir(dir, sizeof(dir));
	return guest_path(buf, len, "%s/rootfs/%s.list", configs ? configs : dir, name);
}

/* Debian policy 5.6.1: [a-z0-9][a-z0-9+.-]+ */
static int package_name_ok(const char *p)
{
	size_t n = strlen(p);

	return n >= 2 && n < 64 && strchr("abcdefghijklmnopqrstuvwxyz0123456789", p[0]) &&
	       strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789+.-") == n;
}

/* One line of the list: nothing, a comment, or a package added to @in. */
static int list_line(struct rootfs_inputs *in, char *line, int lineno, char *err,
		     size_t errlen)
{
	char *p = line + strspn(line, " \t"), *end;

	p[strcspn(p, "#\r\n")] = '\0';
	for (end = p + strlen(p); end > p && (end[-1] == ' ' || end[-1] == '\t'); end--)
		end[-1] = '\0';
	if (!*p)
		return 0;
	if (!package_name_ok(p) || in->npkgs == ROOTFS_MAX_PKGS) {
		snprintf(err, errlen, "%s:%d: %s '%s'", in->list_path, lineno,
			 in->npkgs == ROOTFS_MAX_PKGS ? "more than 64 packages, at" :
			 "not a Debian package name:", p);
		return -EINVAL;
	}
	snprintf(in->pkg[in->npkgs++], sizeof(in->pkg[0]), "%s", p);
	return 0;
}

int rootfs_list_read(const char *configs, const char *name, struct rootfs_inputs *in,
		     char *err, size_t errlen)
{
	char line[512];
	int lineno = 0, ret = 0;
	FILE *f;

	if (!rootfs_name_ok(name)) {
		snprintf(err, errlen, "'%s' is not a rootfs name (letters a-z, digits, '-')", name);
		return -EINVAL;
	}
	snprintf(in->name, sizeof(in->name), "%s", name);
	if (rootfs_list_path(configs, name, in->list_path, sizeof(in->list_path)))
		return -ENAMETOOLONG;
	f = fopen(in->list_path, "re");
	if (!f) {
		snprintf(err, errlen, "%s: %s (the lists are configs/rootfs/*.list)",
			 in->list_path, strerror(errno));
		return -ENOENT;
	}
	while (!ret && fgets(line, sizeof(line), f))
		ret = list_line(in, line, ++lineno, err, errlen);
	fclose(f);
	if (!ret && !in->npkgs) {
		snprintf(err, errlen, "%s: no package listed", in->list_path);
		ret = -EINVAL;
	}
	return ret ?: guest_sha256_file(in->list_path, in->list_sha);
}

/* "Candidate: V" of the block of @pkg in apt-cache policy's output @out. */
static int candidate(const char *out, const char *pkg, char ver[96])
{
	char head[80];
	const char *p, *c;

	snprintf(head, sizeof(head), "%s:\n", pkg);
	for (p = out; (p = strstr(p, head)); p++)
		if (p == out || p[-1] == '\n')
			break;
	c = p ? strstr(p, "Candidate: ") : NULL;
	if (!c || sscanf(c + 11, "%95s", ver) != 1 || !strcmp(ver, "(none)"))
		return -ENOENT;
	return 0;
}

static void inputs_key(struct rootfs_inputs *in)
{
	char text[ROOTFS_MAX_PKGS * 170 + 1024];
	size_t used, i;

	used = (size_t)snprintf(text, sizeof(text), "cvmbench-rootfs 1\nsuite %s\nvariant %s\n"
				"list %s\n", ROOTFS_SUITE, ROOTFS_VARIANT, in->list_sha);
	for (i = 0; i < rootfs_nsources; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s\n",
					 rootfs_sources[i]);
	for (i = 0; i < in->npkgs; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "pkg %s %s\n",
					 in->pkg[i], in->ver[i]);
	guest_sha256_str(text, in->key);
}

int rootfs_resolve(struct rootfs_inputs *in, char *err, size_t errlen)
{
	static char out[1 << 18];
	char *argv[ROOTFS_MAX_PKGS + 3] = { "apt-cache", "policy" };
	size_t i;
	int ret;

	for (i = 0; i < in->npkgs; i++)
		argv[2 + i] = in->pkg[i];
	argv[2 + i] = NULL;
	ret = guest_exec(argv, NULL, out, sizeof(out), NULL, err, errlen);
	if (ret)
		return ret;
	for (i = 0; i < in->npkgs; i++)
		if (candidate(out, in->pkg[i], in->ver[i])) {
			snprintf(err, errlen, "%s: package '%s' has no candidate version in this "
				 "machine's apt lists (apt-get update; is it in Debian %s?)",
				 in->list_path, in->pkg[i], ROOTFS_SUITE);
			return -EINVAL;
		}
	inputs_key(in);
	return 0;
}
