/* SPDX-License-Identifier: MIT */
/*
 * idle-exits.h - the host's VM exits of an idle cell's cell window, from
 * the vmexit table (the vmexit probe, docs/probes/vmexit.md), for the
 * idle-policy table and figure.
 */
#ifndef CVMBENCH_IDLE_EXITS_H
#define CVMBENCH_IDLE_EXITS_H

struct sqlite3;
struct idle_cell;

/**
 * idle_exits_load() - fill @c's exits, hlt_exits, hlt_pct and hlt_time_pct
 * from the kvm_exit tracepoint rows of its cell window (summed over isa
 * tables): exits the `total` rows, hlt_exits the rows of class idle (HLT,
 * idle-halt, MWAIT, AP HLT loop; no such row with a total is 0 exits),
 * hlt_time_pct the idle class's exit-handling time in % of the total's.
 * Each NAN where not known: no vmexit table (a database before schema 007),
 * no kvm_exit total, a total that is a skip, a time not measured
 * (vmexit-time off, or NULL in any row it sums). Returns 0 or -EIO.
 */
int idle_exits_load(struct sqlite3 *h, struct idle_cell *c);

#endif
