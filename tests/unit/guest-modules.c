// SPDX-License-Identifier: MIT
/*
 * guest-modules.c - picking the guest's modules out of an unpacked kernel
 * package (bench/backends/qemu/guest-kernel.c) in a fake tree: a plain .ko
 * is taken as it is, a .ko.xz is decompressed (by xz, checked against the
 * bytes compressed here), a missing module is an error naming it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest-local.h"
#include "state-dir.h"
#include "tap.h"

static char dir[] = "/tmp/cvmbench-modules-XXXXXX";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int read_equals(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return !strcmp(buf, text);
}

static int make_tree(struct guest_kernel *k)
{
	char d[512], f[600], err[256];
	char *xz[] = { "xz", "-k", f, NULL };

	snprintf(k->root, sizeof(k->root), "%s/x", dir);
	snprintf(k->release, sizeof(k->release), "6.1.0-test");
	guest_path(d, sizeof(d), "%s/lib/modules/6.1.0-test/kernel/drivers/virtio", k->root);
	if (state_dir_create(d))
		return -1;
	guest_path(f, sizeof(f), "%s/virtio_ring.ko", d);
	write_file(f, "plain module\n");
	guest_path(f, sizeof(f), "%s/virtio.ko", d);
	write_file(f, "compressed module\n");
	if (guest_exec(xz, NULL, NULL, 0, NULL, err, sizeof(err)))
		return -1;
	return unlink(f);          /* only virtio.ko.xz is left */
}

int main(void)
{
	struct guest_kernel k = { .real = "linux-image-test", .version = "1" };
	char path[4096], err[512] = "", tmp[600];
	int ret;

	tap_plan(4);
	if (!mkdtemp(dir) || make_tree(&k)) {
		printf("Bail out! cannot make the fake tree in %s (is xz installed?)\n", dir);
		return 1;
	}
	snprintf(tmp, sizeof(tmp), "%s", dir);
	ret = guest_kernel_module(&k, "virtio_ring", tmp, path, sizeof(path), err, sizeof(err));
	tap_ok(!ret && strstr(path, "/kernel/drivers/virtio/virtio_ring.ko") &&
	       read_equals(path, "plain module\n"), "a plain .ko is taken where it is");
	ret = guest_kernel_module(&k, "virtio", tmp, path, sizeof(path), err, sizeof(err));
	tap_ok(!ret && !strncmp(path, dir, strlen(dir)) && strstr(path, "/virtio.ko") &&
	       !strstr(path, "drivers"), "a .ko.xz is decompressed into the build directory");
	tap_ok(read_equals(path, "compressed module\n"), "... to the bytes that were compressed");
	ret = guest_kernel_module(&k, "virtio_blk", tmp, path, sizeof(path), err, sizeof(err));
	tap_ok(ret == -ENOENT && strstr(err, "no module virtio_blk.ko"),
	       "a missing module is an error naming it: %s", err);
	guest_rm_tree(dir);
	return tap_done();
}
