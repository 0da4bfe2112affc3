/* SPDX-License-Identifier: MIT */
/*
 * guest.h - the guest a qemu cell boots: a Debian kernel and an initramfs
 * (busybox-static, the virtio modules, cvmfn, later the agent) built once
 * and cached under their content hash, and one read-only ext4 data disk per
 * (workload, size, seed) holding the workload's model and input files.
 * See docs/backends/qemu.md.
 */
#ifndef CVMBENCH_GUEST_H
#define CVMBENCH_GUEST_H

#include <limits.h>
#include <stddef.h>

/* The virtio-serial port the host and the guest talk over. */
#define GUEST_PORT_NAME "org.cvmbench.0"
/* The ports of the instances, org.cvmbench.i0, i1, ... (agent-guest.h) */
#define GUEST_INSTANCE_PORT_PREFIX "org.cvmbench.i"
#define GUEST_DEFAULT_KERNEL_PACKAGE "linux-image-cloud-amd64"

/**
 * struct guest_image - a built guest.
 * @dir: the directory holding it; @kernel, @initrd, @manifest: its files
 * @hash: SHA-256 over the kernel's bytes followed by the initramfs's
 * @cached: 1 when an earlier build with the same inputs was reused
 */
struct guest_image {
	char dir[PATH_MAX];
	char kernel[PATH_MAX];
	char initrd[PATH_MAX];
	char manifest[PATH_MAX];
	char hash[65];
	int cached;
};

/**
 * struct guest_build_opts - what to build the guest from.
 * @kernel_package: a Debian linux-image-* package (NULL: the cloud kernel)
 * @out_dir: where to put it (NULL: guest_cache_dir()/guest/<hash>)
 * @cvmfn: the static cvmfn to include (NULL: find_cvmfn())
 * @busybox: the static busybox (NULL: /bin/busybox)
 */
struct guest_build_opts {
	const char *kernel_package;
	const char *out_dir;
	const char *cvmfn;
	const char *busybox;
};

/* What the builders put below a cache or output directory fits in this. */
#define GUEST_PATH_ROOM 512

/**
 * guest_cache_dir() - $CVMBENCH_CACHE_DIR, else /var/cache/cvmbench for
 * root, else $XDG_CACHE_HOME/cvmbench or $HOME/.cache/cvmbench. 0, or
 * -ENAMETOOLONG when it leaves less than GUEST_PATH_ROOM of @len.
 */
int guest_cache_dir(char *buf, size_t len);

/**
 * guest_image_build() - build the guest image, or reuse the one built from
 * the same inputs (kernel package and version, busybox, cvmfn, agent, /init).
 * Needs apt-get (Debian's package registry) for a kernel not yet fetched.
 * Returns 0, or -errno with the reason in @err.
 */
int guest_image_build(const struct guest_build_opts *o, struct guest_image *img,
		      char *err, size_t errlen);

/**
 * struct guest_disk - a workload's read-only data disk.
 * @path: the raw ext4 image; @bytes: its size; @cached: reused
 */
struct guest_disk {
	char path[PATH_MAX];
	long long bytes;
	int cached;
};

/**
 * guest_disk_build() - the data disk of @workload and its @variant (NULL or
 * "": the default) at @size ("test", "small", "large") and @seed: the files
 * `cvmfn prepare` writes, in an ext4 image made by mkfs.ext4 -d, cached
 * under guest_cache_dir()/disk/ by workload, variant, size, seed and the
 * cvmfn's hash. @cvmfn NULL: find_cvmfn(). A @variant the workload does not
 * list (wl_variant_check()) is -EINVAL before anything is built.
 * Returns 0, or -errno with the reason in @err.
 */
int guest_disk_build(const char *workload, const char *variant, const char *size,
		     unsigned long long seed, const char *cvmfn, struct guest_disk *d,
		     char *err, size_t errlen);

#endif
