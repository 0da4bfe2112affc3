// SPDX-License-Identifier: MIT
/*
 * env-cvmhost.c - whether this machine could host each confidential guest
 * type (cvm.host.sev_snp, cvm.host.tdx): "yes", or "no: " and every piece
 * it lacks (cvm-host.c: /dev/kvm, KVM_CAP_VM_TYPES, the kvm_amd / kvm_intel
 * parameter, qemu-system-x86_64 -object help). The firmware is a cell's
 * (its firmware key) and is checked per cell, not here.
 */
#include <stdio.h>

#include "cvm-host.h"
#include "env-local.h"

static const struct {
	const char *type, *key;
} cvm_types[] = {
	{ "sev-snp", "cvm.host.sev_snp" },
	{ "tdx", "cvm.host.tdx" },
};

/**
 * env_collect_cvmhost() - emit the cvm.host.* facts.
 * @s: the sink
 */
void env_collect_cvmhost(const struct env_sink *s)
{
	static const char src[] = "/dev/kvm, KVM_CAP_VM_TYPES, kvm_amd sev_snp / kvm_intel "
		"tdx, qemu-system-x86_64 -object help (cvm-host.c)";
	char why[2048];
	size_t i;

	for (i = 0; i < sizeof(cvm_types) / sizeof(cvm_types[0]); i++) {
		if (cvm_host_check(cvm_types[i].type, NULL, NULL, why, sizeof(why)))
			env_put(s, cvm_types[i].key, src, "yes (a cell also needs its firmware)");
		else
			env_put(s, cvm_types[i].key, src, "no: %s", why);
	}
}
