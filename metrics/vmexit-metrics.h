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
/*
 * ns each kvm_exit of a counted thread costs it, measured (tpcount-shape.h):
 * the median of paired rounds, and its interval
 */
#define VMEXIT_EVENT_NS     "counters_event_ns"
#define VMEXIT_EVENT_NS_LO  "counters_event_ns_lo"
#define VMEXIT_EVENT_NS_HI  "counters_event_ns_hi"
#define VMEXIT_NOTE_COST    "counters_event_ns_skip"   /* why it was not measured */
/* the cross-vendor classes, in the order of enum kvm_class (kvm-reasons.h) */
#define VMEXIT_CLASSES(X) X("idle") X("io") X("mmio") X("msr") X("cpuid") \
	X("interrupt") X("page-state") X("other")
/*
 * KVM's per-vCPU statistics read beside the tracepoint counts (the vmexit
 * table's source kvm-stats, event VMEXIT_KVM_STATS): counts, and (*_ns)
 * times, stored in time_ns.
 */
#define VMEXIT_KVM_STATS    "kvm-stats"
#define VMEXIT_STAT_NAMES(X) X("exits") X("halt_exits") X("io_exits") X("mmio_exits") \
	X("irq_exits") X("halt_successful_poll") X("halt_attempted_poll") X("halt_wakeup") \
	X("halt_poll_success_ns") X("halt_poll_fail_ns") X("halt_wait_ns")
/*
 * 1 in a window whose kvm_exit total and KVM's exits disagree beyond 1 %
 * (the vmexit table's fidelity column says by how much); the view v_flag
 * (analysis/views.sql) lists it, so `show` prints it under flags
 */
#define VMEXIT_FLAG_FIDELITY "flag_vmexit_fidelity"
/* ns the window's reads of KVM's statistics over QMP took */
#define VMEXIT_STATS_READ_NS "kvm_stats_read_ns"
/* cell_param notes */
#define VMEXIT_NOTE_METHOD  "method"
#define VMEXIT_NOTE_THREADS "threads_counted"
#define VMEXIT_NOTE_DETAIL  "detail"
#define VMEXIT_NOTE_NO_RATE "no_rate"   /* a window without a length: why no rate */
#define VMEXIT_NOTE_NO_BPF  "method_why"  /* why a source is not counted with bpf */
/*
 * vmexit-time = on (vmexit-time.h): records of kvm_exit and kvm_entry
 * streamed and dropped in the window, ns one streamed event costs (the
 * trace-stream method's calibration), 1 in a window without handling
 * time, and why (notes: the cell window's, the first invocation's)
 */
#define VMEXIT_TIME_EVENTS   "time_events_streamed"
#define VMEXIT_TIME_LOST     "time_events_lost"
#define VMEXIT_TIME_EVENT_NS "time_event_ns"
#define VMEXIT_TIME_EVENT_NS_LO "time_event_ns_lo"
#define VMEXIT_TIME_EVENT_NS_HI "time_event_ns_hi"
#define VMEXIT_FLAG_TIME     "flag_vmexit_time_unknown"
#define VMEXIT_NOTE_TIME     "time_why"
#define VMEXIT_NOTE_TIME_INV "time_invocation_why"
#define VMEXIT_NOTE_TIME_COST "time_event_ns_skip"

#endif
