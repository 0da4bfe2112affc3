/* SPDX-License-Identifier: MIT */
/*
 * kvm-module.h - reloading a KVM vendor module (kvm_intel, kvm_amd) with
 * one parameter changed, for knobs whose setting is a read-only (0444)
 * module parameter (PLE). The old value is journalled first, as an object
 * of kind "kvm-module-param" named "MODULE PARAM OLD-VALUE", whose undo
 * reloads the module with the old value: at the end of the cell, and after
 * a kill -9 with `cvmbench restore`.
 */
#ifndef CVMBENCH_KVM_MODULE_H
#define CVMBENCH_KVM_MODULE_H

#include <stddef.h>

/**
 * kvm_module_in_use() - whether @module may not be reloaded now: its
 * /sys/module/MODULE/refcnt (under the test root) is not 0. The kernel
 * counts every open /dev/kvm and every VM file against the vendor module
 * (KVM sets them as the owner of those files), so 0 means no process holds
 * KVM through it. Returns 0 (free), 1 (in use, reason in @why), or -errno
 * (refcnt unreadable, reason in @why).
 */
int kvm_module_in_use(const char *module, char *why, size_t len);

/**
 * kvm_module_wait_free() - kvm_module_in_use(), retried every 50 ms for up
 * to @ms while it says 1 (in use). Same returns, the last answer's.
 */
int kvm_module_wait_free(const char *module, int ms, char *why, size_t len);

/**
 * kvm_module_modprobe() - the path of modprobe, searched in $PATH only and
 * resolved (realpath); rmmod must be there too. Returns 0, or -ENOENT with
 * the reason in @why.
 */
int kvm_module_modprobe(char *path, size_t plen, char *why, size_t len);

/**
 * kvm_module_set() - reload @module with @param=@value: the current value
 * is journalled first (a "kvm-module-param" object), then `rmmod MODULE`
 * (that module only: kvm and its run-time parameters stay) and `modprobe
 * MODULE PARAM=VALUE` run (execv, no shell), and the parameter is read
 * back. Every other readable parameter of kvm and MODULE is compared with
 * its value before; a changed one is named and written back where it is
 * writable. On any failure the module is put back as it was (the entry's
 * undo, which waits up to 5 s for the module to be free) and the entry
 * closed only if that worked. Returns the journal entry id (> 0), or -errno
 * with the reason in @why: -EBUSY (module in use), -ENOENT (no modprobe),
 * -ECANCELED (modprobe failed: the host is as found), -EIO (the read-back
 * differs, or another parameter changed), -ENOTRECOVERABLE (failed, and
 * putting it back failed too: the entry stays open).
 */
long kvm_module_set(const char *module, const char *param, const char *value,
		    char *why, size_t len);

#endif
