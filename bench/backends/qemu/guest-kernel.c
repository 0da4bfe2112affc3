// SPDX-License-Identifier: MIT
/*
 * guest-kernel.c - the guest's kernel from Debian packages: resolve a
 * linux-image-* (meta) package to the real one and its version with
 * apt-cache, fetch it with apt-get download, unpack it with dpkg -x, and
 * pick out the vmlinuz and the modules the guest loads (decompressing a
 * .ko.xz with xz, since busybox insmod takes plain .ko files).
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest-kernel.h"
#include "guest-local.h"

/* A Debian package name: [a-z0-9][a-z0-9+.-]+ (policy 5.6.1), linux-image-*. */
int guest_kernel_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (strncmp(name, "linux-image-", 12) || n < 13 || n > 100)
		return 0;
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789+.-", name[i]))
			return 0;
	return 1;
}

/* The value of "Field: value" in apt-cache show's output, first line only. */
static int field(const char *text, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);
	const char *p = text, *end;

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, name, n) || p[n] != ':')
			continue;
		p += n + 1;
		p += strspn(p, " ");
		end = p + strcspn(p, "\n");
		snprintf(buf, len, "%.*s", (int)(end - p), p);
		return 0;
	}
	return -ENOENT;
}

static int show(const char *pkg, char *version, size_t vlen, char *depends, size_t dlen,
		char *err, size_t errlen)
{
	static char out[1 << 16];
	char *argv[] = { "apt-cache", "show", "--no-all-versions", (char *)pkg, NULL };
	int ret = guest_exec(argv, NULL, out, sizeof(out), NULL, err, errlen);

	if (ret)
		return ret;
	if (field(out, "Version", version, vlen)) {
		snprintf(err, errlen, "apt-cache knows no version of %s (apt-get update?)", pkg);
		return -ENOENT;
	}
	if (field(out, "Depends", depends, dlen))
		depends[0] = '\0';
	return 0;
}

int guest_kernel_resolve(const char *pkg, struct guest_kernel *k, char *err, size_t errlen)
{
	char depends[1024], ver[128];
	size_t n;
	int ret = show(pkg, ver, sizeof(ver), depends, sizeof(depends), err, errlen);

	if (ret)
		return ret;
	snprintf(k->package, sizeof(k->package), "%s", pkg);
	snprintf(k->real, sizeof(k->real), "%s", pkg);
	snprintf(k->version, sizeof(k->version), "%s", ver);
	/* a meta package depends on the real image first: "linux-image-6.1.0-57-cloud-amd64 (= ...)" */
	n = strcspn(depends, " ,|");
	if (strncmp(depends, "linux-image-", 12) || n >= sizeof(k->real))
		return 0;
	snprintf(k->real, sizeof(k->real), "%.*s", (int)n, depends);
	if (!guest_kernel_name_ok(k->real)) {
		snprintf(err, errlen, "%s depends on an odd package name '%s'", pkg, k->real);
		return -EINVAL;
	}
	/* "(= 6.1.192-3)" pins the version: no second apt-cache (1 s here) */
	if (sscanf(depends + n, " (= %127[^)])", k->version) == 1)
		return 0;
	return show(k->real, k->version, sizeof(k->version), depends, sizeof(depends),
		    err, errlen);
}

/* The one entry of @dir matching @pattern, as a path. */
static int find_one(const char *dir, const char *pattern, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (!fnmatch(pattern, e->d_name, 0) && !found++)
			snprintf(buf, len, "%s/%s", dir, e->d_name);
	closedir(d);
	return found == 1 ? 0 : found ? -EEXIST : -ENOENT;
}

int guest_kernel_fetch(struct guest_kernel *k, const char *tmp, char *err, size_t errlen)
{
	char deb[PATH_MAX], x[PATH_MAX], pattern[PATH_MAX];
	char *dl[] = { "apt-get", "download", k->real, NULL };
	char *unpack[] = { "dpkg", "-x", deb, x, NULL };
	int ret = guest_exec(dl, tmp, NULL, 0, NULL, err, errlen);

	if (ret)
		return ret;
	snprintf(pattern, sizeof(pattern), "%s_*.deb", k->real);
	if (find_one(tmp, pattern, deb, sizeof(deb))) {
		snprintf(err, errlen, "apt-get download %s left no single %s in %s",
			 k->real, pattern, tmp);
		return -ENOENT;
	}
	snprintf(x, sizeof(x), "%s/x", tmp);
	ret = guest_exec(unpack, NULL, NULL, 0, NULL, err, errlen);
	if (ret)
		return ret;
	snprintf(k->root, sizeof(k->root), "%s", x);
	guest_path(pattern, sizeof(pattern), "%s/boot", x);
	if (find_one(pattern, "vmlinuz-*", k->vmlinuz, sizeof(k->vmlinuz))) {
		snprintf(err, errlen, "%s has no single boot/vmlinuz-*", deb);
		return -ENOENT;
	}
	snprintf(k->release, sizeof(k->release), "%s", strrchr(k->vmlinuz, '/') + 9);
	return 0;
}

static const char *want_name;
static char found_path[PATH_MAX];
static int found_count;

static int match_module(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	size_t n = strlen(want_name);

	(void)st;
	if (flag != FTW_F || strncmp(base, want_name, n))
		return 0;
	if (!strcmp(base + n, ".ko") || !strcmp(base + n, ".ko.xz")) {
		if (!found_count++ || !strcmp(base + n, ".ko"))
			snprintf(found_path, sizeof(found_path), "%s", path);
	}
	return 0;
}

int guest_kernel_module(const struct guest_kernel *k, const char *name, const char *tmp,
			char *path, size_t len, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	size_t n;

	guest_path(dir, sizeof(dir), "%s/lib/modules/%s/kernel", k->root, k->release);
	want_name = name;
	found_count = 0;
	if (nftw(dir, match_module, 16, FTW_PHYS) || !found_count) {
		snprintf(err, errlen, "%s %s has no module %s.ko[.xz] under %s",
			 k->real, k->version, name, dir);
		return -ENOENT;
	}
	n = strlen(found_path);
	if (n > 3 && !strcmp(found_path + n - 3, ".ko")) {
		snprintf(path, len, "%s", found_path);
		return 0;
	}
	/* busybox insmod loads plain .ko files: decompress at build time */
	snprintf(path, len, "%s/%s.ko", tmp, name);
	char *argv[] = { "xz", "-dc", found_path, NULL };
	return guest_exec(argv, NULL, NULL, 0, path, err, errlen);
}
