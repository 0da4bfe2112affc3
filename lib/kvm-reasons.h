/* SPDX-License-Identifier: MIT */
/*
 * kvm-reasons.h - exit-reason names of the running kernel, read from a
 * trace event's print fmt through libtraceevent: every __print_symbolic
 * table applied to a field (kvm_exit's exit_reason, kvm_userspace_exit's
 * reason), with the condition that selects it (kvm_exit: `isa == 1` for
 * the VMX table, `isa != 1` for the SVM one). No reason table is copied
 * into the code; the one mapping kept here is the cross-vendor class of a
 * reason name (../shared/CVM.md).
 */
#ifndef CVMBENCH_KVM_REASONS_H
#define CVMBENCH_KVM_REASONS_H

#include <stddef.h>

struct tp_format;

/* One symbolic value of a table. */
struct kvm_reason {
	unsigned long long code;
	const char *name;         /* as the kernel prints it */
	int table;                /* index into kvm_reasons.tables */
};

/* One __print_symbolic table and the condition that selects it. */
struct kvm_reason_table {
	char cond_field[32];      /* "" when unconditional */
	long long cond_value;
	int cond_eq;              /* 1: FIELD == VALUE, 0: FIELD != VALUE */
	char filter[64];          /* the condition as a trace filter, or "" */
	char isa[8];              /* "vmx", "svm" for kvm_exit's isa tables, else "" */
};

struct kvm_reasons {
	struct kvm_reason *r;
	size_t n;
	struct kvm_reason_table tables[8];
	int ntables;
};

/**
 * kvm_reasons_read() - every symbolic table of @fmt's print args whose value
 * expression reads field @field. Returns 0 (@out->n may be 0: no table), or
 * -errno with the reason in @err.
 */
int kvm_reasons_read(const struct tp_format *fmt, const char *field,
		     struct kvm_reasons *out, char *err, size_t errlen);
/**
 * kvm_reasons_load() - the tables of kvm:@event's field @field from the
 * running kernel's format under @tracing_dir. Returns 0 or -errno (@err).
 */
int kvm_reasons_load(const char *tracing_dir, const char *event, const char *field,
		     struct kvm_reasons *out, char *err, size_t errlen);
/** kvm_reasons_table() - index of the table whose isa is @isa ("svm"), or -1. */
int kvm_reasons_table(const struct kvm_reasons *rs, const char *isa);
/** kvm_reasons_name() - the name of @code in table @table, or NULL. */
const char *kvm_reasons_name(const struct kvm_reasons *rs, int table,
			     unsigned long long code);
/** kvm_reasons_free() - release @rs. */
void kvm_reasons_free(struct kvm_reasons *rs);
/* The cross-vendor classes (../shared/CVM.md); their names are the vmexit probe's. */
enum kvm_class {
	KVM_CLASS_IDLE,           /* HLT, idle-halt, MWAIT, AP HLT loop */
	KVM_CLASS_IO,             /* port I/O */
	KVM_CLASS_MMIO,           /* MMIO, NPF, EPT violation / misconfig */
	KVM_CLASS_MSR,
	KVM_CLASS_CPUID,
	KVM_CLASS_INTERRUPT,      /* external interrupts, windows, NMI, APIC, AVIC */
	KVM_CLASS_PAGE_STATE,     /* GHCB page-state change, MAP_GPA hypercalls */
	KVM_CLASS_OTHER,
	KVM_NCLASS
};

/**
 * kvm_reason_class() - the class of a reason name of either vendor's table
 * (case does not matter: VMX names are upper case, SVM lower) or of
 * kvm_userspace_exit's KVM_EXIT_* names.
 */
enum kvm_class kvm_reason_class(const char *name);

#endif
