/* SPDX-License-Identifier: MIT */
/*
 * vmexit-metrics.h - the names under which the vmexit probe (vmexit.c)
 * stores what it counted, for the probe and the analysis that reads them.
 * Per reason: "<event>.<isa>.<name>" (kvm_exit.svm.hlt), count, and the
 * same with VMEXIT_RATE appended, per second of the window (vmexit-detail
 * = reason only); per class: "<event>.class.<class>" likewise; per event:
 * "<event>.total".
 */
#ifndef CVMBENCH_VMEXIT_METRICS_H
#define CVMBENCH_VMEXIT_METRICS_H

#define VMEXIT_PROBE        "vmexit"
#define VMEXIT_RATE         ".per_s"
#define VMEXIT_CLASS        ".class."
#define VMEXIT_TOTAL        ".total"
#define VMEXIT_KVM_EXIT     "kvm_exit"
#define VMEXIT_USERSPACE    "kvm_userspace_exit"
#define VMEXIT_VMGEXIT      "kvm_vmgexit_enter"
/* the probe's own cost: counters open, ns spent reading them per window */
#define VMEXIT_COUNTERS     "counters_open"
#define VMEXIT_READ_NS      "counters_read_ns"
/* kvm_exit counters each exit of a counted thread passes through */
#define VMEXIT_PER_EXIT     "counters_per_exit"
/* ns each kvm_exit of a counted thread costs it, measured (tpcount_cost_shape) */
#define VMEXIT_EVENT_NS     "counters_event_ns"
#define VMEXIT_NOTE_COST    "counters_event_ns_skip"   /* why it was not measured */
/* the cross-vendor classes, in the order of enum kvm_class (kvm-reasons.h) */
#define VMEXIT_CLASSES(X) X("idle") X("io") X("mmio") X("msr") X("cpuid") \
	X("interrupt") X("page-state") X("other")
/* cell_param notes */
#define VMEXIT_NOTE_METHOD  "method"
#define VMEXIT_NOTE_THREADS "threads_counted"
#define VMEXIT_NOTE_DETAIL  "detail"
#define VMEXIT_NOTE_NO_RATE "no_rate"   /* a window without a length: why no rate */

#endif
