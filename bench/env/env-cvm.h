/* SPDX-License-Identifier: MIT */
/*
 * env-cvm.h - internals of the confidential-VM detection: one check per
 * piece of evidence (env-cvm-checks.c), combined in env-cvm.c.
 */
#ifndef CVMBENCH_ENV_CVM_H
#define CVMBENCH_ENV_CVM_H

/* Ordered: a higher level is a stronger (more specific) finding. */
enum cvm_level { CVM_NONE, CVM_SEV, CVM_SEV_ES, CVM_SEV_SNP, CVM_TDX };

/* What one piece of evidence said. */
struct cvm_ev {
	const char *name;	/* e.g. "cpuid_0x21"; key cvm.evidence.<name> */
	char source[160];	/* where it was read */
	char said[512];		/* what it said, in words */
	enum cvm_level level;	/* the CVM kind it shows; CVM_NONE if none */
};

typedef void (*cvm_check_fn)(struct cvm_ev *ev);

void cvm_check_cpuid_0x21(struct cvm_ev *ev);
void cvm_check_cpuid_0x8000001f(struct cvm_ev *ev);
void cvm_check_cpuinfo(struct cvm_ev *ev);
void cvm_check_msr(struct cvm_ev *ev);
void cvm_check_kmsg(struct cvm_ev *ev);
void cvm_check_devices(struct cvm_ev *ev);
void cvm_check_ccel(struct cvm_ev *ev);

const char *cvm_level_name(enum cvm_level level);
enum cvm_level cvm_level_of_text(const char *text);

#endif
