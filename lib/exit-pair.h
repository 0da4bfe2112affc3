/* SPDX-License-Identifier: MIT */
/*
 * exit-pair.h - exit-handling time per reason from kvm:kvm_exit ->
 * kvm:kvm_entry pairs: a vCPU thread's exit, then its next entry; the time
 * between the two records is the time KVM (and user space, for an exit it
 * passes on) took to handle that exit. Fed raw trace records (the record's
 * data and timestamp, as libtracefs streams them), keyed by the thread
 * (common_pid: one vCPU per thread, unique across VMs, unlike vcpu_id).
 * Where the two records of a pair are missing one, nothing is guessed:
 * an exit without its entry and an entry without its exit are counted
 * apart (the stream's first entry is one).
 */
#ifndef CVMBENCH_EXIT_PAIR_H
#define CVMBENCH_EXIT_PAIR_H

#include <stddef.h>
#include <stdint.h>

#include "tp-format.h"

/* Handling time of one (isa, reason). */
struct exit_pair_reason {
	uint32_t isa, reason;
	uint64_t count, time_ns;
};

/* Where kvm_exit's and kvm_entry's fields are in their records. */
struct exit_pair_fields {
	int exit_id, entry_id;    /* common_type of each */
	unsigned int type_off, type_size, pid_off, pid_size, xpid_off, xpid_size;
	unsigned int reason_off, reason_size, isa_off, isa_size;  /* isa_size 0: none */
};

struct exit_pair_pending;

struct exit_pair {
	struct exit_pair_pending *pend;   /* per thread: its open exit */
	size_t npend, cap_pend;
	struct exit_pair_reason *r;
	size_t nr, cap_r;
	uint64_t exits_unpaired;  /* an exit whose entry never came (or another exit came) */
	uint64_t entries_unpaired;/* an entry without an exit before it */
	uint64_t backwards;       /* an entry timed before its exit: not counted */
	uint64_t other;           /* records of neither event */
};

/**
 * exit_pair_fields_load() - @fl from the formats of kvm_exit @x and
 * kvm_entry @e (the running kernel's, or captured ones). 0, or -ENOENT
 * with the missing field in @err.
 */
int exit_pair_fields_load(struct exit_pair_fields *fl, const struct tp_format *x,
			  const struct tp_format *e, char *err, size_t errlen);
/** exit_pair_exit() - thread @tid left the guest at @ts_ns for (@isa, @reason). */
int exit_pair_exit(struct exit_pair *p, int tid, uint64_t ts_ns, uint32_t isa, uint32_t reason);
/** exit_pair_entry() - thread @tid entered the guest at @ts_ns: closes its open exit. */
int exit_pair_entry(struct exit_pair *p, int tid, uint64_t ts_ns);
/**
 * exit_pair_feed() - one raw record (@data, @len bytes, at @ts_ns): a
 * kvm_exit or kvm_entry by its common_type, else counted in @p->other.
 * -EINVAL for a record shorter than its fields.
 */
int exit_pair_feed(struct exit_pair *p, const struct exit_pair_fields *fl, const void *data,
		   size_t len, uint64_t ts_ns);
/** exit_pair_find() - the time of (@isa, @reason), or NULL if none was paired. */
const struct exit_pair_reason *exit_pair_find(const struct exit_pair *p, uint32_t isa,
					      uint32_t reason);
/** exit_pair_free() - release @p's tables (it may be zeroed). */
void exit_pair_free(struct exit_pair *p);

#endif
