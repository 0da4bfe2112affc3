// SPDX-License-Identifier: MIT
/*
 * tests/unit/kvm-reasons.c - reason tables read from kvm event formats
 * through libtraceevent (lib/kvm-reasons.c), on the captured formats
 * of tests/fixtures/kvm/ (this development machine's 6.18.44 kernel) and
 * of machine B (tests/fixtures/machines/B-pvm-no-cpuidle), and on the live
 * kernel's when tracefs is readable. Checked against golden lists made
 * from the kernel's own uapi headers (SVM_EXIT_REASONS, VMX_EXIT_REASONS
 * of linux-libc-dev 6.1; tests/fixtures/kvm/README.md): every entry of the
 * older kernel's table decodes to the same name (newer kernels only add),
 * plus entries of the 6.18 source; and how a TD's TDVMCALL leaves reach
 * kvm_exit and kvm_userspace_exit, and their classes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm-reasons.h"
#include "tap.h"
#include "tp-format.h"
#include "tracefs-find.h"

#define FIX "tests/fixtures/kvm/"
#define MACHB "tests/fixtures/machines/B-pvm-no-cpuidle/root/sys/kernel/tracing/events/kvm/"

/* Every "code name" line of @golden is in table @isa with that name. */
static int golden_match(const struct kvm_reasons *rs, const char *isa, const char *golden,
			int *lines)
{
	char line[256], name[200];
	unsigned long long code;
	const char *got;
	int t = kvm_reasons_table(rs, isa), bad = 0;
	FILE *f = fopen(golden, "r");

	*lines = 0;
	if (!f || t < 0)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llu %199[^\n]", &code, name) != 2)
			continue;
		(*lines)++;
		got = kvm_reasons_name(rs, t, code);
		if (!got || strcmp(got, name)) {
			printf("#   %s %llu: want %s, got %s\n", isa, code, name, got ? got : "none");
			bad++;
		}
	}
	fclose(f);
	return bad;
}

static void check_kvm_exit(const char *path, const char *what, int is618)
{
	struct tp_format f;
	struct kvm_reasons rs;
	char err[512] = "";
	int n, ok, svm, vmx;

	ok = !tp_format_load_file(&f, path, "kvm", err, sizeof(err)) &&
	     !kvm_reasons_read(&f, "exit_reason", &rs, err, sizeof(err));
	if (!tap_ok(ok, "%s: kvm_exit's reason tables read (%s)", what, err)) {
		tap_ok(0, "skipped");
		tap_ok(0, "skipped");
		if (is618)
			tap_ok(0, "skipped");
		return;
	}
	svm = kvm_reasons_table(&rs, "svm");
	vmx = kvm_reasons_table(&rs, "vmx");
	tap_ok(rs.ntables == 2 && vmx >= 0 && svm >= 0 &&
	       !strcmp(rs.tables[vmx].filter, "isa == 1") &&
	       !strcmp(rs.tables[svm].filter, "isa != 1"),
	       "%s: two tables, VMX under isa == 1, SVM under isa != 1", what);
	ok = golden_match(&rs, "svm", FIX "svm-exit-reasons-6.1.golden", &n) == 0 && n > 100 &&
	     golden_match(&rs, "vmx", FIX "vmx-exit-reasons-6.1.golden", &n) == 0 && n > 60;
	tap_ok(ok, "%s: every SVM and VMX reason of the kernel headers decoded by name", what);
	if (is618)
		tap_ok(!strcmp(kvm_reasons_name(&rs, svm, 0x0a6) ?: "", "idle-halt") &&
	       !strcmp(kvm_reasons_name(&rs, svm, 0x80000010) ?: "",
		       "vmgexit_page_state_change") &&
	       !strcmp(kvm_reasons_name(&rs, svm, 0xffffffffULL) ?: "", "invalid_guest_state") &&
	       !strcmp(kvm_reasons_name(&rs, vmx, 77) ?: "", "TDCALL") &&
	       kvm_reasons_name(&rs, vmx, 0x78) == NULL,
	       "%s: 6.18 entries (idle-halt, vmgexit sub-codes, -1 as a u32, TDCALL), "
	       "no VMX name for an SVM code", what);
	kvm_reasons_free(&rs);
	tp_format_free(&f);
}

static void check_userspace_exit(void)
{
	struct tp_format f;
	struct kvm_reasons rs = { 0 };
	char err[512] = "";
	int ok = !tp_format_load_file(&f, FIX "kvm_userspace_exit-6.18.44.format", "kvm", err,
				      sizeof(err)) &&
		 !kvm_reasons_read(&f, "reason", &rs, err, sizeof(err));

	tap_ok(ok && rs.ntables == 1 && !rs.tables[0].filter[0] &&
	       !strcmp(kvm_reasons_name(&rs, 0, 2) ?: "", "KVM_EXIT_IO") &&
	       !strcmp(kvm_reasons_name(&rs, 0, 5) ?: "", "KVM_EXIT_HLT"),
	       "kvm_userspace_exit: one unconditional table, 2 = KVM_EXIT_IO, 5 = KVM_EXIT_HLT "
	       "(%s)", err);
	kvm_reasons_free(&rs);
	if (ok)
		tp_format_free(&f);
}

static void check_errors_and_classes(void)
{
	struct tp_format f;
	struct kvm_reasons rs;
	char err[512] = "";

	tap_ok(!tp_format_load_file(&f, FIX "kvm_vmgexit_enter-6.18.44.format", "kvm", err,
				    sizeof(err)) &&
	       !kvm_reasons_read(&f, "exit_reason", &rs, err, sizeof(err)) && rs.n == 0,
	       "kvm_vmgexit_enter: no symbolic table (GHCB codes are named from kvm_exit's)");
	kvm_reasons_free(&rs);
	tap_ok(kvm_reasons_read(&f, "no_such_field", &rs, err, sizeof(err)) == -2 &&
	       strstr(err, "no_such_field"), "a missing field is -ENOENT, named");
	tp_format_free(&f);
	tap_ok(tp_format_load_file(&f, FIX "no-such.format", "kvm", err, sizeof(err)) < 0 &&
	       strstr(err, "no-such.format"), "a missing file is an error naming it");
	tap_ok(kvm_reason_class("HLT") == KVM_CLASS_IDLE &&
	       kvm_reason_class("hlt") == KVM_CLASS_IDLE &&
	       kvm_reason_class("vmgexit_ap_hlt_loop") == KVM_CLASS_IDLE &&
	       kvm_reason_class("IO_INSTRUCTION") == KVM_CLASS_IO &&
	       kvm_reason_class("io") == KVM_CLASS_IO &&
	       kvm_reason_class("npf") == KVM_CLASS_MMIO &&
	       kvm_reason_class("vmgexit_mmio_read") == KVM_CLASS_MMIO &&
	       kvm_reason_class("MSR_WRITE") == KVM_CLASS_MSR &&
	       kvm_reason_class("cpuid") == KVM_CLASS_CPUID &&
	       kvm_reason_class("avic_incomplete_ipi") == KVM_CLASS_INTERRUPT &&
	       kvm_reason_class("vmgexit_page_state_change") == KVM_CLASS_PAGE_STATE &&
	       kvm_reason_class("KVM_EXIT_MMIO") == KVM_CLASS_MMIO &&
	       kvm_reason_class("rdtsc") == KVM_CLASS_OTHER &&
	       kvm_reason_class("iobogus") == KVM_CLASS_OTHER,
	       "cross-vendor classes (names of either case)");
}

/*
 * A TD's TDVMCALLs on the host's kvm_exit (6.18 table). Independent facts:
 * the GHCI leaf numbers (Intel TDX Guest-Hypervisor Communication Interface;
 * the instruction leaves are the VMX basic exit reasons of the instruction,
 * the others in arch/x86/include/asm/shared/tdx.h and the KVM selftests'
 * tools/testing/selftests/kvm/include/x86/tdx/tdx.h), and what
 * tdcall_to_vmx_exit_reason() (arch/x86/kvm/vmx/tdx.c) reports for each.
 */
static const struct {
	const char *leaf_name;
	unsigned long long leaf, reported;
	const char *name;
	enum kvm_class cls;
} tdvmcalls[] = {
	{ "Instruction.CPUID", 10, 10, "CPUID", KVM_CLASS_CPUID },
	{ "Instruction.HLT", 12, 12, "HLT", KVM_CLASS_IDLE },
	{ "Instruction.IO", 30, 30, "IO_INSTRUCTION", KVM_CLASS_IO },
	{ "Instruction.RDMSR", 31, 31, "MSR_READ", KVM_CLASS_MSR },
	{ "Instruction.WRMSR", 32, 32, "MSR_WRITE", KVM_CLASS_MSR },
	{ "#VE.RequestMMIO", 48, 49, "EPT_MISCONFIG", KVM_CLASS_MMIO },
	{ "GetTdVmCallInfo", 0x10000, 77, "TDCALL", KVM_CLASS_OTHER },
	{ "MapGPA", 0x10001, 77, "TDCALL", KVM_CLASS_OTHER },
	{ "GetQuote", 0x10002, 77, "TDCALL", KVM_CLASS_OTHER },
	{ "ReportFatalError", 0x10003, 77, "TDCALL", KVM_CLASS_OTHER },
	{ "SetupEventNotifyInterrupt", 0x10004, 77, "TDCALL", KVM_CLASS_OTHER },
};

static int tdvmcall_ok(const struct kvm_reasons *rs, int vmx, size_t i)
{
	const char *got = kvm_reasons_name(rs, vmx, tdvmcalls[i].reported);
	int ok = got && !strcmp(got, tdvmcalls[i].name) &&
		 kvm_reason_class(got) == tdvmcalls[i].cls;

	if (!ok)
		printf("#   %s (0x%llx): kvm_exit %llu is %s, want %s\n", tdvmcalls[i].leaf_name,
		       tdvmcalls[i].leaf, tdvmcalls[i].reported, got ? got : "none",
		       tdvmcalls[i].name);
	return ok;
}

static void check_tdx_leaves(void)
{
	struct tp_format f, u;
	struct kvm_reasons rs, us;
	char err[512] = "";
	int vmx, ok[2] = { 1, 1 };
	size_t i;

	if (tp_format_load_file(&f, FIX "kvm_exit-6.18.44.format", "kvm", err, sizeof(err)) ||
	    kvm_reasons_read(&f, "exit_reason", &rs, err, sizeof(err))) {
		tap_ok(0, "TDX: kvm_exit format (%s)", err);
		tap_ok(0, "skipped");
		tap_ok(0, "skipped");
		return;
	}
	vmx = kvm_reasons_table(&rs, "vmx");
	for (i = 0; i < sizeof(tdvmcalls) / sizeof(tdvmcalls[0]); i++)
		ok[tdvmcalls[i].reported == 77] &= tdvmcall_ok(&rs, vmx, i);
	tap_ok(ok[0], "TDVMCALL CPUID, HLT, IO, RDMSR, WRMSR, #VE.RequestMMIO: reported as "
	       "VMX reasons, classed cpuid, idle, io, msr, msr, mmio");
	tap_ok(ok[1] && !strcmp(kvm_reasons_name(&rs, vmx, 18) ?: "", "VMCALL") &&
	       kvm_reason_class("VMCALL") == KVM_CLASS_OTHER,
	       "MapGPA, GetQuote, ReportFatalError, SetupEventNotifyInterrupt, GetTdVmCallInfo "
	       "stay TDCALL (77), other; KVM hypercalls VMCALL (18), other");
	kvm_reasons_free(&rs);
	tp_format_free(&f);
	ok[0] = !tp_format_load_file(&u, FIX "kvm_userspace_exit-6.18.44.format", "kvm", err,
				     sizeof(err)) &&
		!kvm_reasons_read(&u, "reason", &us, err, sizeof(err));
	tap_ok(ok[0] && !strcmp(kvm_reasons_name(&us, 0, 3) ?: "", "KVM_EXIT_HYPERCALL") &&
	       kvm_reason_class("KVM_EXIT_HYPERCALL") == KVM_CLASS_PAGE_STATE &&
	       !kvm_reasons_name(&us, 0, 40),
	       "kvm_userspace_exit: MapGPA's KVM_EXIT_HYPERCALL (3) is page-state; KVM_EXIT_TDX "
	       "(40: GetQuote, ...) has no name in the 6.18 table (%s)", err);
	if (ok[0]) {
		kvm_reasons_free(&us);
		tp_format_free(&u);
	}
}

int main(void)
{
	struct tracefs_place place;
	char live[512] = "(tracefs is not mounted)";

	/* the running kernel's format, where the tool finds tracefs mounted */
	if (tracefs_find(&place) && place.mounted)
		snprintf(live, sizeof(live), "%s/events/kvm/kvm_exit/format", place.dir);
	tap_plan(19);
	check_kvm_exit(FIX "kvm_exit-6.18.44.format", "this machine's 6.18.44 capture", 1);
	check_kvm_exit(MACHB "kvm_exit/format", "machine B's capture", 1);
	if (place.mounted && !access(live, R_OK)) {
		check_kvm_exit(live, "the running kernel", 0);
	} else {
		int i;

		for (i = 0; i < 3; i++)
			printf("ok %d # SKIP the running kernel's kvm_exit format is not "
			       "readable (%s)\n", ++tap_count, live);
	}
	check_userspace_exit();
	check_errors_and_classes();
	check_tdx_leaves();
	return tap_done();
}
