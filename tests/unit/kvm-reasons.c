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
 * plus entries of the 6.18 source.
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

int main(void)
{
	struct tracefs_place place;
	char live[512] = "(tracefs is not mounted)";

	/* the running kernel's format, where the tool finds tracefs mounted */
	if (tracefs_find(&place) && place.mounted)
		snprintf(live, sizeof(live), "%s/events/kvm/kvm_exit/format", place.dir);
	tap_plan(16);
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
	return tap_done();
}
