/* SPDX-License-Identifier: MIT */
/*
 * qemu-cell.h - from a cell's keys to the VM it boots: which guest (the
 * built image and data disk, or the user's guest-kernel, guest-initrd and
 * guest-image), checked before anything starts, and the struct vm_config
 * (qemu, firmware, cpu, accel, confidential type, vCPUs, memory).
 */
#ifndef CVMBENCH_QEMU_CELL_H
#define CVMBENCH_QEMU_CELL_H

#include <limits.h>
#include <stddef.h>

#include "cell.h"
#include "qemu-argv.h"

/**
 * struct qemu_guest - what a cell boots.
 * @kernel, @initrd, @disk: the files (@disk "" = none)
 * @hash: SHA-256 of the kernel's bytes followed by the initrd's (the
 *        built image's content hash, computed the same way for the user's)
 * @source: "built" or "user"
 * @release: the kernel's release from its bzImage header ("" unknown), which
 *           says whether it has lazy memory acceptance (guest-accept.h)
 * @rootfs_disk: the rootfs key's ext4 image ("" = none), @rootfs_name and
 * @rootfs_hash the rootfs it holds
 * @append: guest-append and, with a rootfs, the word that switches to it
 */
struct qemu_guest {
	char kernel[PATH_MAX];
	char initrd[PATH_MAX];
	char disk[PATH_MAX];
	char hash[65];
	const char *source;
	char release[128];
	char rootfs_disk[PATH_MAX];
	char rootfs_hash[65];
	char rootfs_name[32];
	char append[320];
};

/**
 * qemu_cell_user_check() - the user's guest files of @c (guest-kernel,
 * guest-initrd, guest-image, firmware): given together where they must be,
 * readable, the kernel a bzImage. 0, or -errno with @err naming the key
 * and the file.
 */
int qemu_cell_user_check(const struct cell *c, char *err, size_t errlen);

/**
 * qemu_cell_guest() - the guest of @c into @g: the user's files (checked,
 * hashed), else the built image (guest_image_build) and the workload's data
 * disk (guest_disk_build). 0 or -errno with @err.
 */
int qemu_cell_guest(const struct cell *c, struct qemu_guest *g, char *err, size_t errlen);

/**
 * qemu_cell_guest_files() - as qemu_cell_guest() but the user's files are
 * taken as named, neither checked nor hashed (`cvmbench qemu-argv` prints
 * the argv of a cell meant for another host). 0 or -errno with @err.
 */
int qemu_cell_guest_files(const struct cell *c, struct qemu_guest *g, char *err,
			  size_t errlen);

/**
 * qemu_cell_rootfs() - with a rootfs @name (the rootfs key, or guest boot
 * --rootfs), its disk (built or cached) and the kernel command line word
 * that switches the guest to it into @g, after @append. 0 or -errno.
 */
int qemu_cell_rootfs(const char *name, const char *append, struct qemu_guest *g,
		     char *err, size_t errlen);

/**
 * qemu_cell_vm_config() - @vc for @c booting @g under @accel ("kvm" or
 * "tcg"), its memory acceptance as guest_accept_plan() gives it for @g's
 * kernel. Strings point into @c, @g and @accel. Console and agent socket
 * are vm_start()'s.
 */
void qemu_cell_vm_config(const struct cell *c, const char *accel, const struct qemu_guest *g,
			 struct vm_config *vc);

/** qemu_cell_cvm() - "sev-snp" or "tdx" when @c asks for that guest, else NULL. */
const char *qemu_cell_cvm(const struct cell *c);

#endif
