// SPDX-License-Identifier: MIT
/*
 * tests/unit/exit-pair.c - exit-handling time from kvm_exit -> kvm_entry
 * pairs (lib/exit-pair.c) on synthetic event sequences whose times
 * the test sets: two vCPU threads interleaved, an exit whose entry never
 * came, an entry without an exit (the stream's first), an entry timed
 * before its exit; then raw records built at the offsets of the captured
 * 6.18 format files (tests/fixtures/kvm/kvm_exit, kvm_entry), decoded by
 * the fields the formats give, and another event's record ignored.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "exit-pair.h"
#include "tap.h"
#include "tp-format.h"

#define FIX "tests/fixtures/kvm/"

static void sequence_checks(void)
{
	struct exit_pair p;
	const struct exit_pair_reason *hlt, *io;

	memset(&p, 0, sizeof(p));
	exit_pair_entry(&p, 10, 50);              /* the stream's first: no exit before */
	exit_pair_exit(&p, 10, 100, 2, 120);      /* thread 10: hlt for 900 ns */
	exit_pair_exit(&p, 11, 150, 2, 123);      /* thread 11: io for 50 ns */
	exit_pair_entry(&p, 11, 200);
	exit_pair_entry(&p, 10, 1000);
	exit_pair_exit(&p, 10, 2000, 2, 120);     /* hlt for 3000 ns */
	exit_pair_entry(&p, 10, 5000);
	exit_pair_exit(&p, 11, 6000, 2, 123);     /* its entry lost: replaced by the next */
	exit_pair_exit(&p, 11, 7000, 2, 123);     /* io for 70 ns */
	exit_pair_entry(&p, 11, 7070);
	exit_pair_exit(&p, 10, 9000, 2, 120);
	exit_pair_entry(&p, 10, 8000);            /* before its exit: not counted */
	hlt = exit_pair_find(&p, 2, 120);
	io = exit_pair_find(&p, 2, 123);
	tap_ok(hlt && hlt->count == 2 && hlt->time_ns == 3900,
	       "two threads interleaved: hlt 2 pairs, 3900 ns (%llu, %llu)",
	       hlt ? (unsigned long long)hlt->count : 0,
	       hlt ? (unsigned long long)hlt->time_ns : 0);
	tap_ok(io && io->count == 2 && io->time_ns == 120, "io 2 pairs, 120 ns");
	tap_ok(p.entries_unpaired == 1 && p.exits_unpaired == 1 && p.backwards == 1,
	       "an entry without exit, an exit without entry, a backwards pair: counted apart, "
	       "not guessed (%llu %llu %llu)", (unsigned long long)p.entries_unpaired,
	       (unsigned long long)p.exits_unpaired, (unsigned long long)p.backwards);
	tap_ok(!exit_pair_find(&p, 1, 120), "the isa is part of the key (vmx 120: none)");
	exit_pair_free(&p);
}

/* A record of @f: common_type, common_pid and (kvm_exit) exit_reason and isa. */
static size_t record(unsigned char *buf, const struct tp_format *f, int pid, uint32_t reason,
		     uint32_t isa)
{
	unsigned int off, size;
	uint16_t type = (uint16_t)tp_format_id(f);
	uint32_t v;

	memset(buf, 0xa5, 128);   /* what a field's neighbours hold must not matter */
	if (!tp_format_field(f, "common_type", &off, &size))
		memcpy(buf + off, &type, 2);
	if (!tp_format_field(f, "common_pid", &off, &size))
		memcpy(buf + off, &pid, 4);
	v = reason;
	if (!tp_format_field(f, "exit_reason", &off, &size))
		memcpy(buf + off, &v, 4);
	v = isa;
	if (!tp_format_field(f, "isa", &off, &size))
		memcpy(buf + off, &v, 4);
	return 72;
}

static void format_checks(void)
{
	struct tp_format x, e;
	struct exit_pair_fields fl;
	struct exit_pair p;
	unsigned char buf[128];
	const struct exit_pair_reason *r;
	char err[256] = "";
	int ret;

	memset(&p, 0, sizeof(p));
	ret = tp_format_load_file(&x, FIX "kvm_exit-6.18.44.format", "kvm", err, sizeof(err)) ?:
	      tp_format_load_file(&e, FIX "kvm_entry-6.18.44.format", "kvm", err, sizeof(err)) ?:
	      exit_pair_fields_load(&fl, &x, &e, err, sizeof(err));
	if (!tap_ok(!ret, "the captured formats' fields (%s)", err))
		return;
	ret = exit_pair_feed(&p, &fl, buf, record(buf, &x, 4242, 0x78, 2), 1000) ?:
	      exit_pair_feed(&p, &fl, buf, record(buf, &e, 4243, 0, 0), 1100) ?:
	      exit_pair_feed(&p, &fl, buf, record(buf, &e, 4242, 0, 0), 1750);
	r = exit_pair_find(&p, 2, 0x78);
	tap_ok(!ret && r && r->count == 1 && r->time_ns == 750 && p.entries_unpaired == 1,
	       "raw records at the formats' offsets: svm 0x78 (hlt) 750 ns, another thread's "
	       "entry not its pair");
	buf[fl.type_off] ^= 0x7f;  /* another event */
	tap_ok(!exit_pair_feed(&p, &fl, buf, 72, 2000) && p.other == 1,
	       "another event's record: counted apart");
	record(buf, &x, 4242, 0x78, 2);
	tap_ok(exit_pair_feed(&p, &fl, buf, 20, 2000) == -EINVAL,
	       "a kvm_exit record shorter than its fields: -EINVAL");
	tp_format_free(&x);
	tp_format_free(&e);
	exit_pair_free(&p);
}

int main(void)
{
	tap_plan(8);
	sequence_checks();
	format_checks();
	return tap_done();
}
