// SPDX-License-Identifier: MIT
/*
 * qemu-argv-cvm.c - the confidential parts of a VM's QEMU argv, as
 * ../shared/CVM.md gives them for QEMU >= 9.1 (SEV-SNP) and >= 10.1 (TDX):
 *
 *   sev-snp: -object memory-backend-memfd,id=ram1,size=<memory>M,share=true,prealloc=off
 *            -object sev-snp-guest,id=sev0,cbitpos=51,reduced-phys-bits=1,kernel-hashes=on
 *            -machine q35,confidential-guest-support=sev0,memory-backend=ram1
 *            (-cpu EPYC-v4 unless the cell names a cpu)
 *   tdx:     -object tdx-guest,id=tdx0
 *            -machine q35,kernel-irqchip=split,confidential-guest-support=tdx0,hpet=off
 *
 * Both also need -accel kvm and -bios FIRMWARE, which a regular twin with
 * the same keys has too. Everything else of the argv is the regular VM's
 * (qemu-argv.c, which puts these parts into it), so a CVM cell and its
 * twin differ only by these parts; the twin's RAM is QEMU's default
 * private anonymous memory, mergeable by KSM. kernel-hashes=on: the
 * firmware measures the -kernel/-initrd/-append of a direct kernel boot
 * (an OVMF built with the AmdSev package).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "qemu-argv-cvm.h"

/* The C-bit position and physical address reduction of Milan and Genoa. */
#define SNP_CBITPOS 51
#define SNP_REDUCED_PHYS_BITS 1

static int is_snp(const struct vm_config *c)
{
	return c->cvm && !strcmp(c->cvm, "sev-snp");
}

static int is_tdx(const struct vm_config *c)
{
	return c->cvm && !strcmp(c->cvm, "tdx");
}

int qemu_argv_cvm_check(const struct vm_config *c, char *err, size_t errlen)
{
	const char *bad = NULL;

	if (!c->cvm)
		return 0;
	if (!is_snp(c) && !is_tdx(c))
		bad = "is not sev-snp or tdx";
	else if (strcmp(c->accel, "kvm"))
		bad = "needs accel kvm";
	else if (!c->firmware || !*c->firmware)
		bad = "needs a firmware (-bios: an SNP-capable OVMF.fd or TDVF)";
	else if (c->model)
		bad = "and model exclude each other";
	if (bad)
		snprintf(err, errlen, "VM description: confidential %s %s", c->cvm, bad);
	return bad ? -EINVAL : 0;
}

int qemu_argv_cvm_objects(const struct vm_config *c,
			  char obj[QEMU_CVM_OBJECTS_MAX][QEMU_CVM_OBJECT_LEN])
{
	int n;

	if (is_snp(c)) {
		n = snprintf(obj[0], QEMU_CVM_OBJECT_LEN, "memory-backend-memfd,id=ram1,"
			     "size=%uM,share=true,prealloc=off", c->memory_mib);
		if (n < 0 || n >= QEMU_CVM_OBJECT_LEN)
			return -E2BIG;
		snprintf(obj[1], QEMU_CVM_OBJECT_LEN, "sev-snp-guest,id=sev0,cbitpos=%d,"
			 "reduced-phys-bits=%d,kernel-hashes=on", SNP_CBITPOS,
			 SNP_REDUCED_PHYS_BITS);
		return 2;
	}
	if (is_tdx(c)) {
		snprintf(obj[0], QEMU_CVM_OBJECT_LEN, "tdx-guest,id=tdx0");
		return 1;
	}
	return 0;
}

const char *qemu_argv_cvm_machine(const struct vm_config *c)
{
	if (is_snp(c))
		return ",confidential-guest-support=sev0,memory-backend=ram1";
	if (is_tdx(c))
		return ",kernel-irqchip=split,confidential-guest-support=tdx0,hpet=off";
	return "";
}
