// SPDX-License-Identifier: MIT
/*
 * env-kvm.c - what this machine offers as a KVM host: whether /dev/kvm is
 * present and opens, its API version and the VM types it accepts
 * (KVM_CHECK_EXTENSION(KVM_CAP_VM_TYPES): sev, sev-es, sev-snp, tdx), and
 * the module parameters that matter for CVMs and idle cost, from
 * /sys/module/{kvm,kvm_amd,kvm_intel}/parameters: halt_poll_ns, sev,
 * sev_es, sev_snp, pause_filter_count, tdx, ple_gap, and the rest of halt
 * polling and pause-loop exiting (PLE): halt_poll_ns_grow,
 * halt_poll_ns_shrink, ple_window, pause_filter_thresh.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "env-local.h"
#include "sysroot.h"

#define KVM_DEV "/dev/kvm"
/* Not in older <linux/kvm.h>: the values of Linux 6.10+ (uapi). */
#define ENV_KVM_CAP_VM_TYPES 235

static const char *const kvm_vm_type_names[] = {
	"default", "sw-protected", "sev", "sev-es", "sev-snp", "tdx",
};

static const struct {
	const char *key;
	const char *module;
	const char *param;
} kvm_params[] = {
	{ "kvm.halt_poll_ns", "kvm", "halt_poll_ns" },
	{ "kvm.amd.sev", "kvm_amd", "sev" },
	{ "kvm.amd.sev_es", "kvm_amd", "sev_es" },
	{ "kvm.amd.sev_snp", "kvm_amd", "sev_snp" },
	{ "kvm.amd.pause_filter_count", "kvm_amd", "pause_filter_count" },
	{ "kvm.intel.tdx", "kvm_intel", "tdx" },
	{ "kvm.intel.ple_gap", "kvm_intel", "ple_gap" },
	{ "kvm.halt_poll_ns_grow", "kvm", "halt_poll_ns_grow" },
	{ "kvm.halt_poll_ns_shrink", "kvm", "halt_poll_ns_shrink" },
	{ "kvm.intel.ple_window", "kvm_intel", "ple_window" },
	{ "kvm.amd.pause_filter_thresh", "kvm_amd", "pause_filter_thresh" },
};

static void kvm_put_vm_types(const struct env_sink *s, int fd)
{
	static const char src[] = "ioctl(" KVM_DEV ", KVM_CHECK_EXTENSION, KVM_CAP_VM_TYPES)";
	int mask = ioctl(fd, KVM_CHECK_EXTENSION, ENV_KVM_CAP_VM_TYPES);
	char list[128] = "";
	size_t i, n = 0;

	if (mask <= 0) {
		env_put(s, "kvm.vm_types", src,
			"default (KVM_CAP_VM_TYPES not supported)");
		return;
	}
	for (i = 0; i < sizeof(kvm_vm_type_names) / sizeof(kvm_vm_type_names[0]); i++)
		if (mask & (1 << i))
			n += snprintf(list + n, sizeof(list) - n, "%s%s",
				      n ? " " : "", kvm_vm_type_names[i]);
	env_put(s, "kvm.vm_types", src, "%s (mask 0x%x)", list, mask);
}

static void kvm_put_dev(const struct env_sink *s)
{
	int fd, err;

	if (sysroot()) {	/* a test root: what the capture saw */
		env_put_file(s, "kvm.dev", "/dev-kvm");
		env_put_unavail(s, "kvm.api_version", KVM_DEV, "not captured");
		env_put_unavail(s, "kvm.vm_types", KVM_DEV, "not captured");
		return;
	}
	fd = open(KVM_DEV, O_RDWR | O_CLOEXEC);
	err = errno;

	if (fd < 0) {
		if (err == ENOENT)
			env_put(s, "kvm.dev", KVM_DEV, "absent");
		else
			env_put(s, "kvm.dev", KVM_DEV, "present, open failed: %s",
				strerror(err));
		env_put_unavail(s, "kvm.api_version", "ioctl(" KVM_DEV
				", KVM_GET_API_VERSION)", "open " KVM_DEV ": %s",
				strerror(err));
		env_put_unavail(s, "kvm.vm_types", "ioctl(" KVM_DEV
				", KVM_CHECK_EXTENSION, KVM_CAP_VM_TYPES)",
				"open " KVM_DEV ": %s", strerror(err));
		return;
	}
	env_put(s, "kvm.dev", KVM_DEV, "present, opens read-write");
	env_put(s, "kvm.api_version", "ioctl(" KVM_DEV ", KVM_GET_API_VERSION)",
		"%d", ioctl(fd, KVM_GET_API_VERSION, 0));
	kvm_put_vm_types(s, fd);
	close(fd);
}

static void kvm_put_param(const struct env_sink *s, size_t i)
{
	char path[160], mod[96];

	snprintf(mod, sizeof(mod), "/sys/module/%s", kvm_params[i].module);
	snprintf(path, sizeof(path), "%s/parameters/%s", mod, kvm_params[i].param);
	if (sysroot_access(mod, F_OK))
		env_put_unavail(s, kvm_params[i].key, path, "%s not loaded",
				kvm_params[i].module);
	else if (sysroot_access(path, F_OK))
		env_put_unavail(s, kvm_params[i].key, path,
				"no such parameter in this kernel");
	else
		env_put_file(s, kvm_params[i].key, path);
}

/**
 * env_collect_kvm() - emit the kvm.* facts (the host side).
 * @s: the sink
 */
void env_collect_kvm(const struct env_sink *s)
{
	size_t i;

	kvm_put_dev(s);
	for (i = 0; i < sizeof(kvm_params) / sizeof(kvm_params[0]); i++)
		kvm_put_param(s, i);
}
