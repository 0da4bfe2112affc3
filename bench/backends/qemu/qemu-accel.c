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
 * accelerator the cell asked for. qemu_accel_for_cell() is the one place
 * that decides which accelerator a cell starts under.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cvm-host.h"
#include "qemu-accel.h"
#include "qemu-cell.h"

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
	if (accel != acc->used)
		snprintf(acc->used, sizeof(acc->used), "%s", accel);
	vc->accel = acc->used;
	return vm_start(vm, vc, timeout_s, err, errlen);
}

/* auto, a regular or model VM where /dev/kvm opens: KVM if it works, else TCG. */
static int start_kvm_or_tcg(double timeout_s, struct vm *vm, struct vm_config *vc,
			    struct qemu_accel *acc, char *err, size_t errlen)
{
	char said[512];
	int ret = start_as("kvm", timeout_s, vm, vc, acc, err, errlen);

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

/* accel = kvm or tcg, as asked: never changed; kvm only where /dev/kvm opens. */
static int accel_asked(const struct cell *c, struct qemu_accel *acc)
{
	snprintf(acc->used, sizeof(acc->used), "%s", c->accel);
	snprintf(acc->reason, sizeof(acc->reason), "asked (accel = %s)", c->accel);
	if (strcmp(c->accel, "kvm") || cvm_host_kvm_opens(acc->host, sizeof(acc->host)))
		return 1;
	snprintf(acc->reason, sizeof(acc->reason), "accel = kvm: %s", acc->host);
	return 0;
}

int qemu_accel_for_cell(const struct cell *c, struct qemu_accel *acc)
{
	const char *cvm = qemu_cell_cvm(c);

	memset(acc, 0, sizeof(*acc));
	if (strcmp(c->accel, "auto"))
		return accel_asked(c, acc);
	if (cvm) {
		snprintf(acc->used, sizeof(acc->used), "kvm");
		snprintf(acc->reason, sizeof(acc->reason), "auto: kvm, a %s guest needs KVM",
			 cvm);
		return 1;
	}
	if (!cvm_host_kvm_opens(acc->host, sizeof(acc->host))) {
		snprintf(acc->used, sizeof(acc->used), "tcg");
		snprintf(acc->reason, sizeof(acc->reason), "auto: tcg, %s", acc->host);
		return 1;
	}
	snprintf(acc->used, sizeof(acc->used), "kvm");
	snprintf(acc->host, sizeof(acc->host), "/dev/kvm opens");
	snprintf(acc->reason, sizeof(acc->reason), "auto: kvm, /dev/kvm opens");
	acc->fallback = 1;
	return 1;
}

int qemu_accel_start(const struct cell *c, struct vm *vm, struct vm_config *vc,
		     double timeout_s, struct qemu_accel *acc, char *err, size_t errlen)
{
	qemu_accel_for_cell(c, acc);
	if (acc->fallback)
		return start_kvm_or_tcg(timeout_s, vm, vc, acc, err, errlen);
	return start_as(acc->used, timeout_s, vm, vc, acc, err, errlen);
}
