// SPDX-License-Identifier: MIT
/*
 * guest-build.c - the steps of a guest image build that is not cached
 * yet: in a private directory under the output directory, fetch and
 * unpack the kernel, pick its modules, strip cvmfn, the agent and
 * cvmload, write the initramfs, hash both,
 * write the manifest, and move the result into place (guest-image.c
 * decides whether a build is needed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest-build.h"
#include "guest-local.h"
#include "guest.h"
#include "state-dir.h"

static int content_hash(const char *dir, char hash[SHA256_HEX])
{
	char path[PATH_MAX];
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ret;

	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		EVP_MD_CTX_free(ctx);
		return -ENOMEM;
	}
	guest_path(path, sizeof(path), "%s/vmlinuz", dir);
	ret = guest_sha256_update_file(ctx, path);
	guest_path(path, sizeof(path), "%s/initramfs.cpio", dir);
	if (!ret)
		ret = guest_sha256_update_file(ctx, path);
	guest_sha256_final(ctx, hash);
	return ret;
}

static int make_image(struct guest_inputs *in, const char *tmp, const char *img,
		      char hash[SHA256_HEX], char *err, size_t errlen)
{
	char path[PATH_MAX];
	size_t i;
	int ret = guest_kernel_fetch(&in->k, tmp, err, errlen);

	for (i = 0; i < guest_nmodules && !ret; i++)
		ret = guest_kernel_module(&in->k, guest_modules[i], tmp, in->mod[i],
					  sizeof(in->mod[i]), err, errlen);
	if (!ret)
		ret = guest_strip_copy(in->cvmfn, tmp, "cvmfn", in->cvmfn_ship,
				       sizeof(in->cvmfn_ship), err, errlen);
	if (!ret && in->agent[0])
		ret = guest_strip_copy(in->agent, tmp, "cvmbench-agent", in->agent_ship,
				       sizeof(in->agent_ship), err, errlen);
	if (!ret && in->cvmload[0])
		ret = guest_strip_copy(in->cvmload, tmp, "cvmload", in->cvmload_ship,
				       sizeof(in->cvmload_ship), err, errlen);
	if (ret)
		return ret;
	guest_path(path, sizeof(path), "%s/vmlinuz", img);
	if (state_dir_create(img) || rename(in->k.vmlinuz, path)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	guest_path(path, sizeof(path), "%s/initramfs.cpio", img);
	ret = guest_initramfs_write(in, path);
	if (!ret)
		ret = content_hash(img, hash);
	if (!ret)
		ret = guest_manifest_write(in, img, hash);
	if (ret)
		snprintf(err, errlen, "writing the image in %s: %s", img, strerror(-ret));
	return ret;
}

/* Move the three files of @img into @dst (an existing directory). */
static int move_files(const char *img, const char *dst)
{
	static const char *const files[] = { "vmlinuz", "initramfs.cpio", "manifest.json" };
	char from[PATH_MAX], to[PATH_MAX];
	size_t i;

	for (i = 0; i < 3; i++) {
		if (guest_path(from, sizeof(from), "%s/%s", img, files[i]) ||
		    guest_path(to, sizeof(to), "%s/%s", dst, files[i]))
			return -ENAMETOOLONG;
		if (rename(from, to))
			return -errno;
	}
	return 0;
}

int guest_build_into(struct guest_inputs *in, const char *root, int keyed,
		     char hash[SHA256_HEX], char *err, size_t errlen)
{
	char tmp[PATH_MAX], img[PATH_MAX], dst[PATH_MAX];
	int ret;

	guest_path(tmp, sizeof(tmp), "%s/.build-XXXXXX", root);
	if (state_dir_create(root) || !mkdtemp(tmp)) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -errno;
	}
	guest_path(img, sizeof(img), "%s/img", tmp);
	ret = make_image(in, tmp, img, hash, err, errlen);
	if (!ret && keyed) {
		guest_path(dst, sizeof(dst), "%s/%s", root, hash);
		/* an identical image built meanwhile stays as it is */
		if (rename(img, dst) && errno != ENOTEMPTY && errno != EEXIST)
			ret = -errno;
	} else if (!ret) {
		ret = move_files(img, root);
	}
	if (ret && !err[0])
		snprintf(err, errlen, "moving the image into %s: %s", root, strerror(-ret));
	guest_rm_tree(tmp);
	return ret;
}
