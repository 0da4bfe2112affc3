// SPDX-License-Identifier: MIT
/*
 * guest-manifest.c - manifest.json beside a guest image: its content hash
 * (SHA-256 of the kernel's bytes followed by the initramfs's), the key of
 * its inputs, the kernel package and version, the modules, busybox's
 * version, the hashes of the programs inside and the file sizes.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "guest-local.h"
#include "guest.h"

static double file_size(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) ? -1 : (double)st.st_size;
}

static void add_kernel(cJSON *m, const struct guest_inputs *in)
{
	cJSON *mods = cJSON_AddArrayToObject(m, "modules");
	size_t i;

	cJSON_AddStringToObject(m, "kernel_package", in->k.package);
	cJSON_AddStringToObject(m, "kernel_package_resolved", in->k.real);
	cJSON_AddStringToObject(m, "kernel_version", in->k.version);
	cJSON_AddStringToObject(m, "kernel_release", in->k.release);
	for (i = 0; i < guest_nmodules; i++)
		cJSON_AddItemToArray(mods, cJSON_CreateString(guest_modules[i]));
}

static void add_programs(cJSON *m, const struct guest_inputs *in)
{
	cJSON_AddStringToObject(m, "busybox_version", in->busybox_version);
	cJSON_AddStringToObject(m, "busybox_sha256", in->busybox_sha);
	cJSON_AddStringToObject(m, "cvmfn_sha256", in->cvmfn_sha);
	if (in->agent[0])
		cJSON_AddStringToObject(m, "agent_sha256", in->agent_sha);
	else
		cJSON_AddNullToObject(m, "agent_sha256");
	if (in->cvmload[0])
		cJSON_AddStringToObject(m, "cvmload_sha256", in->cvmload_sha);
	else
		cJSON_AddNullToObject(m, "cvmload_sha256");
	cJSON_AddStringToObject(m, "init_sha256", in->init_sha);
	cJSON_AddBoolToObject(m, "stripped", in->stripped);
	cJSON_AddStringToObject(m, "port", GUEST_PORT_NAME);
}

int guest_manifest_write(const struct guest_inputs *in, const char *dir, const char *hash)
{
	char path[PATH_MAX];
	cJSON *m = cJSON_CreateObject();

	cJSON_AddNumberToObject(m, "format", 1);
	cJSON_AddStringToObject(m, "hash", hash);
	cJSON_AddStringToObject(m, "inputs", in->key);
	cJSON_AddStringToObject(m, "kernel", "vmlinuz");
	cJSON_AddStringToObject(m, "initrd", "initramfs.cpio");
	cJSON_AddNumberToObject(m, "kernel_bytes", file_size(dir, "vmlinuz"));
	cJSON_AddNumberToObject(m, "initrd_bytes", file_size(dir, "initramfs.cpio"));
	add_kernel(m, in);
	add_programs(m, in);
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	return guest_json_write(m, path);
}

int guest_json_write(cJSON *m, const char *path)
{
	char *text = cJSON_Print(m);
	FILE *f;
	int ret = 0;

	cJSON_Delete(m);
	f = text ? fopen(path, "we") : NULL;
	if (!f || fprintf(f, "%s\n", text) < 0)
		ret = -EIO;
	if (f && fclose(f))
		ret = -EIO;
	free(text);
	return ret;
}

int guest_manifest_hash(const char *dir, const char *key, char hash[SHA256_HEX])
{
	char path[PATH_MAX], buf[16384];
	FILE *f;
	size_t n;
	cJSON *m, *h, *k;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	m = cJSON_Parse(buf);
	h = cJSON_GetObjectItemCaseSensitive(m, "hash");
	k = cJSON_GetObjectItemCaseSensitive(m, "inputs");
	if (cJSON_IsString(h) && cJSON_IsString(k) && !strcmp(k->valuestring, key) &&
	    strlen(h->valuestring) == SHA256_HEX - 1) {
		snprintf(hash, SHA256_HEX, "%s", h->valuestring);
		ret = 0;
	}
	cJSON_Delete(m);
	return ret;
}
