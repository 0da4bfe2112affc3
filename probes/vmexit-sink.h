/* SPDX-License-Identifier: MIT */
/*
 * vmexit-sink.h - the vmexit table (results-schema/007-vmexit.sql) as the
 * vmexit probe writes it through the sink, and the fidelity check between
 * its two sources: the tracepoint total of kvm_exit against KVM's own
 * `exits` statistic of the same window.
 */
#ifndef CVMBENCH_VMEXIT_SINK_H
#define CVMBENCH_VMEXIT_SINK_H

#include <stddef.h>

#include "sink.h"

/* The largest disagreement between the two sources not flagged, in percent. */
#define VMEXIT_FIDELITY_PCT 1.0

/* One row; strings are the caller's, NULL (and < 0, NaN) stored as NULL. */
struct vmexit_row {
	long long vm_idx;
	const char *isa;
	const char *event;
	long long reason_code;
	const char *reason_name;
	const char *class;
	long long count;
	long long time_ns;
	const char *source;       /* tracepoint, or kvm-stats (VMEXIT_KVM_STATS) */
	const char *method;
	long long counters_per_event;
	double cost_ns_per_event;
	const char *fidelity;
	const char *skip;
};

extern const struct sink_table vmexit_table;

/** vmexit_row_init() - @r with every optional column unknown (NULL). */
void vmexit_row_init(struct vmexit_row *r, const char *source, const char *method,
		     const char *event);

/**
 * vmexit_fidelity() - whether @tracepoint exits and KVM's @kvm_exits of one
 * window agree within VMEXIT_FIDELITY_PCT of the larger, give or take
 * @kicks (exits KVM's window holds that the counted one cannot: the vCPU
 * kicks of the window's closing query-stats, one per vCPU asked): 0 if
 * they do, 1 with the disagreement in words in @buf if not. Both 0 agree.
 */
int vmexit_fidelity(double tracepoint, double kvm_exits, double kicks, char *buf,
		    size_t len);

/** vmexit_put() - write @r into the vmexit table through @s. 0 or -errno. */
int vmexit_put(struct sink *s, const struct vmexit_row *r);

#endif
