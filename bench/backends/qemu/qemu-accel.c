// SPDX-License-Identifier: MIT
/*
 * qemu-accel.c - `accel = auto` made honest. Opening /dev/kvm is not
 * enough: on a nested host QEMU can open it and still abort at the first
 * vCPU reset (QEMU 7.2, -cpu host: "failed to set MSR 0x10a"). A probe of
 * our own (KVM_CREATE_VM, KVM_CREATE_VCPU, KVM_SET_MSRS) would test one
 * known failure, not QEMU's; so auto starts the cell's own VM under KVM,
 * and only when QEMU ends before the guest's first console byte, saying
 * something about KVM, starts it once more under TCG. It costs one failed
 * QEMU start where KVM does not work and nothing where it does. A guest
 * that got as far as its console is never restarted (its failure is the
 * guest's, not the accelerator's), nor is a CVM (it needs KVM), nor an
 * accelerator the cell asked for.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cvm-host.h"
#include "qemu-accel.h"

/* QEMU's own first line out of vm_start()'s message ("QEMU said: ..."). */
static void qemu_said(const char *err, char *out, size_t len)
{
	const char *p = strstr(err, "QEMU said: ");

	out[0] = '\0';
	if (!p)
		return;
	p += strlen("QEMU said: ");
	snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
}

static int kvm_failed_early(const struct vm *vm, int ret, const char *err)
{
	char said[512];

	if (ret != -ECHILD || vm->ph.first_console >= 0)
		return 0;
	qemu_said(err, said, sizeof(said));
	return strcasestr(said, "kvm") != NULL || strstr(said, "MSR") != NULL;
}

static int start_as(const char *accel, double timeout_s, struct vm *vm,
		    struct vm_config *vc, struct qemu_accel *acc, char *err, size_t errlen)
{
	snprintf(acc->used, sizeof(acc->used), "%s", accel);
	vc->accel = acc->used;
	return vm_start(vm, vc, timeout_s, err, errlen);
}

/* auto, a regular or model VM: KVM if it works, else TCG. */
static int start_auto(double timeout_s, struct vm *vm, struct vm_config *vc,
		      struct qemu_accel *acc, char *err, size_t errlen)
{
	char why[256], said[512];
	int ret;

	if (!cvm_host_kvm_opens(why, sizeof(why))) {
		snprintf(acc->reason, sizeof(acc->reason), "auto: tcg, %s", why);
		return start_as("tcg", timeout_s, vm, vc, acc, err, errlen);
	}
	ret = start_as("kvm", timeout_s, vm, vc, acc, err, errlen);
	if (!ret) {
		snprintf(acc->reason, sizeof(acc->reason),
			 "auto: kvm, /dev/kvm opens and the guest booted under KVM");
		return 0;
	}
	if (!kvm_failed_early(vm, ret, err)) {
		snprintf(acc->reason, sizeof(acc->reason), "auto: kvm, /dev/kvm opens "
			 "(the VM failed after QEMU started under KVM)");
		return ret;
	}
	qemu_said(err, said, sizeof(said));
	snprintf(acc->reason, sizeof(acc->reason), "auto: tcg, QEMU under KVM ended before "
		 "the guest's first console byte: %s", said);
	return start_as("tcg", timeout_s, vm, vc, acc, err, errlen);
}

int qemu_accel_start(const struct cell *c, struct vm *vm, struct vm_config *vc,
		     double timeout_s, struct qemu_accel *acc, char *err, size_t errlen)
{
	if (strcmp(c->accel, "auto")) {
		snprintf(acc->reason, sizeof(acc->reason), "asked (accel = %s)", c->accel);
		return start_as(c->accel, timeout_s, vm, vc, acc, err, errlen);
	}
	if (vc->cvm) {
		snprintf(acc->reason, sizeof(acc->reason), "auto: kvm, a %s guest needs KVM",
			 vc->cvm);
		return start_as("kvm", timeout_s, vm, vc, acc, err, errlen);
	}
	return start_auto(timeout_s, vm, vc, acc, err, errlen);
}
