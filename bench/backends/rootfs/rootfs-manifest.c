// SPDX-License-Identifier: MIT
/*
 * rootfs-manifest.c - manifest.json beside a rootfs tree: its name and
 * content hash, the inputs key, the suite, variant and apt sources, the
 * list's hash and its packages with the versions they resolved to, every
 * installed package and version (dpkg-query in the tree), the tree's size
 * and file count, mmdebstrap's version and wall time.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rootfs-local.h"

static void add_inputs(cJSON *m, const struct rootfs_inputs *in)
{
	cJSON *src = cJSON_AddArrayToObject(m, "sources");
	cJSON *req = cJSON_AddArrayToObject(m, "listed"), *o;
	size_t i;

	cJSON_AddStringToObject(m, "suite", ROOTFS_SUITE);
	cJSON_AddStringToObject(m, "variant", ROOTFS_VARIANT);
	for (i = 0; i < rootfs_nsources; i++)
		cJSON_AddItemToArray(src, cJSON_CreateString(rootfs_sources[i]));
	cJSON_AddStringToObject(m, "list", in->list_path);
	cJSON_AddStringToObject(m, "list_sha256", in->list_sha);
	for (i = 0; i < in->npkgs; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "package", in->pkg[i]);
		cJSON_AddStringToObject(o, "version", in->ver[i]);
		cJSON_AddItemToArray(req, o);
	}
}

static cJSON *package_item(const char *name, int nlen, const char *ver, int vlen)
{
	cJSON *o = cJSON_CreateObject();
	char buf[128];

	snprintf(buf, sizeof(buf), "%.*s", nlen, name);
	cJSON_AddStringToObject(o, "package", buf);
	snprintf(buf, sizeof(buf), "%.*s", vlen, ver);
	cJSON_AddStringToObject(o, "version", buf);
	return o;
}

/* dpkg-query's "NAME\tVERSION" lines as [{package, version}]; how many. */
static int add_packages(cJSON *m, const char *pkgs)
{
	cJSON *arr = cJSON_AddArrayToObject(m, "packages");
	const char *p, *tab, *nl;
	int n = 0;

	for (p = pkgs; *p; p = *nl ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		tab = memchr(p, '\t', (size_t)(nl - p));
		if (!tab)
			continue;
		cJSON_AddItemToArray(arr, package_item(p, (int)(tab - p), tab + 1,
						       (int)(nl - tab - 1)));
		n++;
	}
	return n;
}

int rootfs_manifest_write(const struct rootfs_inputs *in, const struct rootfs_built *b,
			  const char *pkgs, const char *dir, const char *hash)
{
	char path[PATH_MAX];
	cJSON *m = cJSON_CreateObject();

	cJSON_AddNumberToObject(m, "format", 1);
	cJSON_AddStringToObject(m, "name", in->name);
	cJSON_AddStringToObject(m, "hash", hash);
	cJSON_AddStringToObject(m, "inputs", in->key);
	cJSON_AddStringToObject(m, "tree", "root");
	add_inputs(m, in);
	cJSON_AddNumberToObject(m, "package_count", add_packages(m, pkgs));
	cJSON_AddNumberToObject(m, "bytes", (double)b->bytes);
	cJSON_AddNumberToObject(m, "files", (double)b->files);
	cJSON_AddStringToObject(m, "tool", b->tool);
	cJSON_AddNumberToObject(m, "build_seconds", b->seconds);
	cJSON_AddNumberToObject(m, "built_at", (double)time(NULL));
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	return guest_json_write(m, path);
}

int rootfs_manifest_get(const char *dir, const char *field, char *buf, size_t len)
{
	char path[PATH_MAX], *text;
	cJSON *m, *v;
	long n;
	FILE *f;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = n > 0 && n < (1 << 24) ? malloc((size_t)n + 1) : NULL;
	if (text && fread(text, 1, (size_t)n, f) == (size_t)n) {
		text[n] = '\0';
		m = cJSON_Parse(text);
		v = cJSON_GetObjectItemCaseSensitive(m, field);
		if (cJSON_IsString(v) && strlen(v->valuestring) < len) {
			snprintf(buf, len, "%s", v->valuestring);
			ret = 0;
		} else if (cJSON_IsNumber(v)) {
			snprintf(buf, len, "%.0f", v->valuedouble);
			ret = 0;
		}
		cJSON_Delete(m);
	}
	free(text);
	fclose(f);
	return ret;
}
