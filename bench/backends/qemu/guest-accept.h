/* SPDX-License-Identifier: MIT */
/*
 * guest-accept.h - the memory acceptance of a qemu cell's guest (the
 * guest-accept key): what a model's RAM and a CVM's guest kernel are given
 * for the eager or the lazy point, and whether the booted kernel can take
 * it (guest-accept.c).
 */
#ifndef CVMBENCH_GUEST_ACCEPT_H
#define CVMBENCH_GUEST_ACCEPT_H

#include <stddef.h>

/* Unaccepted memory (lazy acceptance, accept_memory=) came with Linux 6.5. */
#define GUEST_ACCEPT_LINUX_MAJOR 6
#define GUEST_ACCEPT_LINUX_MINOR 5

/**
 * guest_bzimage_release() - the release (uname -r: the first word of the
 * setup header's kernel_version string, boot protocol >= 2.00) of the
 * bzImage @path into @buf. 0, or -errno (-ENODATA: no version string).
 */
int guest_bzimage_release(const char *path, char *buf, size_t len);

/**
 * guest_accept_plan() - what a cell of @confidential (none, model, sev-snp,
 * tdx) asking guest-accept = @accept (eager, lazy) gets with a guest kernel
 * of @release ("" unknown). *@value: model: "eager" (RAM preallocated) or
 * "lazy" (allocated on touch); sev-snp and tdx: the kernel's accept_memory=
 * value, NULL for a kernel without unaccepted memory (it accepts everything
 * at boot); none: NULL. @note: what the cell ran, for cell_param
 * qemu.guest_accept ("" for none). Returns 0, or 1 when the cell cannot
 * have what it asks for (lazy with a kernel older than 6.5): @note is the
 * skip's reason naming the kernel, and *@value what it asked for.
 */
int guest_accept_plan(const char *confidential, const char *accept, const char *release,
		      const char **value, char *note, size_t len);

#endif
