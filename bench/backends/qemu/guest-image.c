// SPDX-License-Identifier: MIT
/*
 * guest-image.c - build the guest image (kernel + initramfs) once and
 * cache it: the inputs (kernel package and version, busybox, cvmfn, the
 * agent, cvmload, /init, the modules) are hashed into a key; <cache>/guest/by-input/<key> points
 * at <cache>/guest/<hash>, where <hash> is the content hash of the image.
 * A build happens in a private directory under the output directory and
 * is renamed into place only when complete.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest-build.h"
#include "guest-local.h"
#include "guest.h"
#include "log.h"
#include "paths.h"
#include "state-dir.h"

const char *const guest_modules[] = {
	"virtio_ring", "virtio", "virtio_pci_modern_dev", "virtio_pci_legacy_dev",
	"virtio_pci", "virtio_console", "virtio_blk",
	"overlay",      /* a rootfs disk under a tmpfs (agent-rootfs.c); ext4 is built in */
	/* in the image, loaded only with cvmbench.net= (AGENT_GUEST_NET_MODULES, agent-net.c) */
	"failover", "net_failover", "virtio_net",
};
const size_t guest_nmodules = sizeof(guest_modules) / sizeof(guest_modules[0]);
const size_t guest_nboot_modules = sizeof(guest_modules) / sizeof(guest_modules[0]) - 3;

int guest_cache_dir(char *buf, size_t len)
{
	const char *env = getenv("CVMBENCH_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int ret;

	if (env && *env)
		ret = guest_path(buf, len, "%s", env);
	else if (geteuid() == 0)
		ret = guest_path(buf, len, "/var/cache/cvmbench");
	else if (xdg && *xdg)
		ret = guest_path(buf, len, "%s/cvmbench", xdg);
	else
		ret = guest_path(buf, len, "%s/.cache/cvmbench", home ? home : "/tmp");
	/* room for what goes below it: ".../guest/by-input/<64 hex>", disk names */
	return ret || strlen(buf) > len - GUEST_PATH_ROOM ? -ENAMETOOLONG : 0;
}

/* A static binary that goes into the guest, and its hash. */
static int program_input(const char *path, char sha[SHA256_HEX], char *err, size_t errlen)
{
	int ret = guest_is_static(path);

	if (ret < 0) {
		snprintf(err, errlen, "%s: %s", path, ret == -ENOEXEC ? "not a 64-bit ELF file" :
			 strerror(-ret));
		return ret;
	}
	if (ret == 0) {
		snprintf(err, errlen, "%s is dynamically linked: the guest has no C library "
			 "(build it static)", path);
		return -ENOEXEC;
	}
	return guest_sha256_file(path, sha);
}

static int busybox_input(struct guest_inputs *in, const char *path, char *err, size_t errlen)
{
	char out[4096], *nl, *argv[] = { in->busybox, "--help", NULL };
	int ret;

	snprintf(in->busybox, sizeof(in->busybox), "%s", path ? path : "/bin/busybox");
	ret = program_input(in->busybox, in->busybox_sha, err, errlen);
	if (ret)
		return ret;
	/* "BusyBox v1.35.0 (Debian 1:1.35.0-4+deb12u1+b1) multi-call binary." */
	ret = guest_exec(argv, NULL, out, sizeof(out), NULL, NULL, 0);
	if (ret || strncmp(out, "BusyBox v", 9)) {
		snprintf(err, errlen, "%s --help does not say which BusyBox it is", in->busybox);
		return -ENOEXEC;
	}
	nl = strstr(out, " multi-call");
	if (!nl)
		nl = out + strcspn(out, "\n");
	snprintf(in->busybox_version, sizeof(in->busybox_version), "%.*s",
		 (int)(nl - out - 8), out + 8);
	return 0;
}

/*
 * The static program @name next to cvmbench into @path and its hash, or
 * @path "" when it is not built (the guest then goes without it).
 */
static void optional_input(const char *name, char path[PATH_MAX], char sha[SHA256_HEX])
{
	char dir[PATH_MAX];

	path[0] = '\0';
	if (exe_dir(dir, sizeof(dir)))
		return;
	guest_path(path, PATH_MAX, "%s/%s", dir, name);
	if (access(path, X_OK) || program_input(path, sha, NULL, 0))
		path[0] = '\0';
}

static void inputs_key(struct guest_inputs *in)
{
	char text[2048], mods[512] = "";
	size_t i, n;

	/* every module in the image, loaded at boot or not */
	for (i = 0; i < guest_nmodules; i++) {
		n = strlen(mods);
		snprintf(mods + n, sizeof(mods) - n, " %s", guest_modules[i]);
	}
	snprintf(text, sizeof(text), "cvmbench-guest 4\nkernel %s %s\nbusybox %s\ncvmfn %s\n"
		 "agent %s\ncvmload %s\ninit %s\nstrip %s\nmodules%s\n", in->k.real,
		 in->k.version, in->busybox_sha, in->cvmfn_sha,
		 in->agent[0] ? in->agent_sha : "none", in->cvmload[0] ? in->cvmload_sha : "none",
		 in->init_sha, in->stripped ? "yes" : "no", mods);
	guest_sha256_str(text, in->key);
}

static int gather_inputs(const struct guest_build_opts *o, struct guest_inputs *in,
			 char *err, size_t errlen)
{
	const char *pkg = o->kernel_package ? o->kernel_package : GUEST_DEFAULT_KERNEL_PACKAGE;
	int ret;

	if (!guest_kernel_name_ok(pkg)) {
		snprintf(err, errlen, "'%s' is not a linux-image-* package name", pkg);
		return -EINVAL;
	}
	ret = guest_kernel_resolve(pkg, &in->k, err, errlen);
	if (!ret)
		ret = busybox_input(in, o->busybox, err, errlen);
	if (ret)
		return ret;
	if (o->cvmfn)
		snprintf(in->cvmfn, sizeof(in->cvmfn), "%s", o->cvmfn);
	else
		find_cvmfn(in->cvmfn, sizeof(in->cvmfn));
	ret = program_input(in->cvmfn, in->cvmfn_sha, err, errlen);
	if (ret)
		return ret;
	optional_input("cvmbench-agent", in->agent, in->agent_sha);
	optional_input("cvmload", in->cvmload, in->cvmload_sha);
	in->stripped = guest_strip_available();
	ret = guest_init_script(guest_modules, guest_nboot_modules, in->init, sizeof(in->init));
	if (ret) {
		snprintf(err, errlen, "/init does not fit its buffer");
		return ret;
	}
	guest_sha256_str(in->init, in->init_sha);
	inputs_key(in);
	return 0;
}

static void fill_image(struct guest_image *img, const char *dir, const char *hash, int cached)
{
	snprintf(img->dir, sizeof(img->dir), "%s", dir);
	snprintf(img->kernel, sizeof(img->kernel), "%s/vmlinuz", dir);
	snprintf(img->initrd, sizeof(img->initrd), "%s/initramfs.cpio", dir);
	snprintf(img->manifest, sizeof(img->manifest), "%s/manifest.json", dir);
	snprintf(img->hash, sizeof(img->hash), "%s", hash);
	img->cached = cached;
}

/* The cached image of @key under @root, through its by-input link. */
static int lookup(const char *root, const char *key, char *dir, size_t len,
		  char hash[SHA256_HEX])
{
	char link[PATH_MAX], target[128];
	ssize_t n;

	guest_path(link, sizeof(link), "%s/by-input/%s", root, key);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -ENOENT;
	target[n] = '\0';
	if (strncmp(target, "../", 3) || strchr(target + 3, '/'))
		return -EINVAL;
	guest_path(dir, len, "%s/%s", root, target + 3);
	return guest_manifest_hash(dir, key, hash);
}

int guest_cache_link(const char *root, const char *sub, const char *name, const char *hash)
{
	char dir[PATH_MAX], link[PATH_MAX], target[128];

	if (guest_path(dir, sizeof(dir), "%s/%s", root, sub) ||
	    guest_path(link, sizeof(link), "%s/%s", dir, name))
		return -ENAMETOOLONG;
	snprintf(target, sizeof(target), "../%s", hash);
	if (state_dir_create(dir))
		return -errno;
	unlink(link);
	return symlink(target, link) ? -errno : 0;
}

int guest_image_build(const struct guest_build_opts *o, struct guest_image *img,
		      char *err, size_t errlen)
{
	static struct guest_inputs in;          /* 140 KB: not on the stack */
	char root[PATH_MAX], dir[PATH_MAX], hash[SHA256_HEX];
	int ret;

	err[0] = '\0';
	memset(&in, 0, sizeof(in));
	ret = gather_inputs(o, &in, err, errlen);
	if (ret)
		return ret;
	if (o->out_dir && strlen(o->out_dir) > sizeof(root) - GUEST_PATH_ROOM) {
		snprintf(err, errlen, "--out: the path is too long");
		return -ENAMETOOLONG;
	}
	if (o->out_dir) {
		if (!guest_manifest_hash(o->out_dir, in.key, hash)) {
			fill_image(img, o->out_dir, hash, 1);
			return 0;
		}
		ret = guest_build_into(&in, o->out_dir, 0, hash, err, errlen);
		if (!ret)
			fill_image(img, o->out_dir, hash, 0);
		return ret;
	}
	if (guest_cache_dir(root, sizeof(root)) || guest_path(dir, sizeof(dir), "%s/guest", root) ||
	    guest_path(root, sizeof(root), "%s", dir)) {
		snprintf(err, errlen, "the cache directory's path is too long (CVMBENCH_CACHE_DIR)");
		return -ENAMETOOLONG;
	}
	if (!lookup(root, in.key, dir, sizeof(dir), hash)) {
		fill_image(img, dir, hash, 1);
		return 0;
	}
	ret = guest_build_into(&in, root, 1, hash, err, errlen);
	if (!ret && guest_cache_link(root, "by-input", in.key, hash))
		pr_warn("%s/by-input: cannot index the image (it is rebuilt next time)", root);
	guest_path(dir, sizeof(dir), "%s/%s", root, hash);
	if (!ret)
		fill_image(img, dir, hash, 0);
	return ret;
}
