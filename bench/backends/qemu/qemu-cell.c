// SPDX-License-Identifier: MIT
/*
 * qemu-cell.c - a qemu cell's guest and VM description from its keys:
 * guest-kernel and guest-initrd (together) replace the built image,
 * guest-image replaces the workload's data disk, each checked (readable,
 * the kernel a bzImage: "HdrS" at 0x202) with the key and the file named;
 * the booted kernel and initrd are hashed like the built image
 * (SHA-256 of the kernel's bytes, then the initrd's) and their kernel's
 * release read from its header (guest-accept.c). The guest kernel's
 * command line gets the cell's idle policy (idle-guest.c: idle=poll, ...).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guest-accept.h"
#include "guest-local.h"
#include "guest.h"
#include "idle-guest.h"
#include "qemu-cell.h"
#include "rootfs.h"
#include "workload-registry.h"

static int user_file(const char *key, const char *path, char *err, size_t errlen)
{
	if (!access(path, R_OK))
		return 0;
	snprintf(err, errlen, "%s = %s: %s", key, path, strerror(errno));
	return -ENOENT;
}

static int user_bzimage(const char *path, char *err, size_t errlen)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok;

	if (fd < 0) {
		snprintf(err, errlen, "guest-kernel = %s: %s", path, strerror(errno));
		return -ENOENT;
	}
	ok = pread(fd, magic, 4, 0x202) == 4 && !memcmp(magic, "HdrS", 4);
	close(fd);
	if (ok)
		return 0;
	snprintf(err, errlen, "guest-kernel = %s: not a bzImage (no \"HdrS\" at 0x202 of "
		 "the x86 boot protocol)", path);
	return -ENOEXEC;
}

int qemu_cell_user_check(const struct cell *c, char *err, size_t errlen)
{
	int ret = 0;

	if (!c->guest_kernel[0] != !c->guest_initrd[0]) {
		snprintf(err, errlen, "%s is given without %s: give both, or neither for the "
			 "built image", c->guest_kernel[0] ? "guest-kernel" : "guest-initrd",
			 c->guest_kernel[0] ? "guest-initrd" : "guest-kernel");
		return -EINVAL;
	}
	if (c->guest_kernel[0])
		ret = user_bzimage(c->guest_kernel, err, errlen);
	if (!ret && c->guest_initrd[0])
		ret = user_file("guest-initrd", c->guest_initrd, err, errlen);
	if (!ret && c->guest_image[0])
		ret = user_file("guest-image", c->guest_image, err, errlen);
	if (!ret && c->firmware[0])
		ret = user_file("firmware", c->firmware, err, errlen);
	return ret;
}

/* SHA-256 of @kernel's bytes followed by @initrd's, as the built image's. */
static int hash_pair(const char *kernel, const char *initrd, char hex[SHA256_HEX])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ret;

	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		EVP_MD_CTX_free(ctx);
		return -ENOMEM;
	}
	ret = guest_sha256_update_file(ctx, kernel);
	if (!ret)
		ret = guest_sha256_update_file(ctx, initrd);
	if (ret) {
		EVP_MD_CTX_free(ctx);
		return ret;
	}
	guest_sha256_final(ctx, hex);
	return 0;
}

static int built_guest(struct qemu_guest *g, char *err, size_t errlen)
{
	struct guest_build_opts b = { NULL, NULL, NULL, NULL };
	static struct guest_image img;
	int ret = guest_image_build(&b, &img, err, errlen);

	if (ret)
		return ret;
	snprintf(g->kernel, sizeof(g->kernel), "%s", img.kernel);
	snprintf(g->initrd, sizeof(g->initrd), "%s", img.initrd);
	snprintf(g->hash, sizeof(g->hash), "%s", img.hash);
	g->source = "built";
	return 0;
}

static int data_disk(const struct cell *c, struct qemu_guest *g, char *err, size_t errlen)
{
	struct guest_disk d;
	int ret;

	if (c->guest_image[0]) {
		snprintf(g->disk, sizeof(g->disk), "%s", c->guest_image);
		return 0;
	}
	if (!workload_find(c->workload))
		return 0;       /* a service (the system suite): no function, no data disk */
	ret = guest_disk_build(c->workload, c->variant, c->size,
			       (unsigned long long)c->seed, NULL, &d, err, errlen);
	if (!ret)
		snprintf(g->disk, sizeof(g->disk), "%s", d.path);
	return ret;
}

int qemu_cell_guest_files(const struct cell *c, struct qemu_guest *g, char *err,
			  size_t errlen)
{
	int ret = 0;

	memset(g, 0, sizeof(*g));
	if (c->guest_kernel[0] && c->rootfs[0]) {
		snprintf(err, errlen, "rootfs = %s needs the built guest image (its agent switches "
			 "to the rootfs); guest-kernel and guest-initrd boot your own", c->rootfs);
		return -EINVAL;
	}
	if (c->guest_kernel[0]) {
		snprintf(g->kernel, sizeof(g->kernel), "%s", c->guest_kernel);
		snprintf(g->initrd, sizeof(g->initrd), "%s", c->guest_initrd);
		g->source = "user";
	} else {
		ret = built_guest(g, err, errlen);
	}
	if (!ret && guest_bzimage_release(g->kernel, g->release, sizeof(g->release)))
		g->release[0] = '\0';
	ret = ret ?: data_disk(c, g, err, errlen);
	return ret ?: qemu_cell_rootfs(c->rootfs, c->guest_append, g, err, errlen);
}

int qemu_cell_rootfs(const char *name, const char *append, struct qemu_guest *g,
		     char *err, size_t errlen)
{
	struct rootfs r;
	int ret;

	snprintf(g->append, sizeof(g->append), "%s", append ? append : "");
	if (!name || !name[0])
		return 0;
	ret = rootfs_build(name, &r, err, errlen) ?:
	      rootfs_disk(&r, g->rootfs_disk, sizeof(g->rootfs_disk), err, errlen);
	if (ret)
		return ret;
	snprintf(g->rootfs_hash, sizeof(g->rootfs_hash), "%s", r.hash);
	snprintf(g->rootfs_name, sizeof(g->rootfs_name), "%s", r.name);
	snprintf(g->append, sizeof(g->append), "%s%s" ROOTFS_CMDLINE, append ? append : "",
		 append && *append ? " " : "");
	return 0;
}

int qemu_cell_guest(const struct cell *c, struct qemu_guest *g, char *err, size_t errlen)
{
	int ret = qemu_cell_user_check(c, err, errlen);

	if (!ret)
		ret = qemu_cell_guest_files(c, g, err, errlen);
	if (ret || strcmp(g->source, "user"))
		return ret;
	ret = hash_pair(g->kernel, g->initrd, g->hash);
	if (ret)
		snprintf(err, errlen, "hashing guest-kernel %s and guest-initrd %s: %s",
			 g->kernel, g->initrd, strerror(-ret));
	return ret;
}

const char *qemu_cell_cvm(const struct cell *c)
{
	if (!strcmp(c->confidential, "sev-snp") || !strcmp(c->confidential, "tdx"))
		return c->confidential;
	return NULL;
}

void qemu_cell_vm_config(const struct cell *c, const char *accel, const struct qemu_guest *g,
			 struct vm_config *vc)
{
	char note[512];

	memset(vc, 0, sizeof(*vc));
	vc->qemu = c->qemu[0] ? c->qemu : NULL;
	vc->accel = accel;
	vc->cpu = strcmp(c->cpu, "auto") ? c->cpu : NULL;
	vc->vcpus = (unsigned int)c->vcpus;
	vc->memory_mib = (unsigned int)c->memory;
	vc->kernel = g->kernel;
	vc->initrd = g->initrd;
	vc->data_disk = g->disk[0] ? g->disk : NULL;
	vc->model = !strcmp(c->confidential, "model");
	vc->cvm = qemu_cell_cvm(c);
	guest_accept_plan(c->confidential, c->guest_accept, g->release, &vc->accept, note,
			  sizeof(note));
	vc->firmware = c->firmware[0] ? c->firmware : NULL;
	/* g->append: guest-append with the rootfs word (qemu_cell_rootfs()) */
	vc->append = g->append[0] ? g->append : c->guest_append[0] ? c->guest_append : NULL;
	vc->rootfs_disk = g->rootfs_disk[0] ? g->rootfs_disk : NULL;
	idle_guest_append(c->idle, vc->guest_idle, sizeof(vc->guest_idle));
}
