// SPDX-License-Identifier: MIT
/*
 * vmexit-sink.c - the vmexit table declared for the sink, and the 1 %
 * fidelity flag between the tracepoint count and KVM's statistics
 * (vmexit-sink.h).
 */
#include <math.h>
#include <stdio.h>

#include "vmexit-sink.h"

static const struct sink_column cols[] = {
	SINK_CELL("cell_id"),
	SINK_INVOCATION("invocation_id"),
	SINK_KNOWN(struct vmexit_row, vm_idx),
	SINK_TEXT(struct vmexit_row, isa),
	SINK_TEXT(struct vmexit_row, event),
	SINK_KNOWN(struct vmexit_row, reason_code),
	SINK_TEXT(struct vmexit_row, reason_name),
	SINK_TEXT(struct vmexit_row, class),
	SINK_KNOWN(struct vmexit_row, count),
	SINK_KNOWN(struct vmexit_row, time_ns),
	SINK_TEXT(struct vmexit_row, source),
	SINK_TEXT(struct vmexit_row, method),
	SINK_KNOWN(struct vmexit_row, counters_per_event),
	SINK_REAL(struct vmexit_row, cost_ns_per_event),
	SINK_TEXT(struct vmexit_row, fidelity),
	SINK_TEXT(struct vmexit_row, skip),
};

const struct sink_table vmexit_table = SINK_TABLE("vmexit", cols);

void vmexit_row_init(struct vmexit_row *r, const char *source, const char *method,
		     const char *event)
{
	*r = (struct vmexit_row){ .vm_idx = -1, .event = event, .reason_code = -1,
				  .count = -1, .time_ns = -1, .source = source,
				  .method = method, .counters_per_event = -1,
				  .cost_ns_per_event = NAN };
}

int vmexit_fidelity(double tracepoint, double kvm_exits, double kicks, char *buf,
		    size_t len)
{
	double big = fmax(tracepoint, kvm_exits), diff = fabs(tracepoint - kvm_exits);

	if (diff <= big * VMEXIT_FIDELITY_PCT / 100.0 + kicks)
		return 0;
	snprintf(buf, len, "kvm_exit counted %.0f, KVM's exits %.0f: %.2f %% apart (> %.0f %%%s)",
		 tracepoint, kvm_exits, 100.0 * diff / big, VMEXIT_FIDELITY_PCT,
		 kicks > 0 ? " and the query's vCPU kicks" : "");
	return 1;
}

int vmexit_put(struct sink *s, const struct vmexit_row *r)
{
	int64_t id = sink_row(s, &vmexit_table, r);

	return id < 0 ? (int)id : 0;
}
