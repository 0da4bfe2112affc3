#!/bin/bash
# tests/system/calibrate-counters.t - the tracepoint-counter engine
# (tracing/tpcount.c) against counts the test makes itself: two threads
# make known numbers of getpid and getppid calls per window while the main
# thread makes getpid calls of its own; `cvmbench calibrate counters` must
# count each thread's calls exactly, per call and per window, the main
# thread excluded. The check must be able to fail: counting the main
# thread in place of a worker (CVMBENCH_CALIB_FAULT=tid) is a mismatch,
# exit 1. Every method of the engine: perf-filter counters (one value each,
# and a filter each), bpf (one eBPF program; again with its hash maps
# forced, CVMBENCH_TEST_BPF_MAPS), and trace-stream (a journalled tracefs
# instance, skipped with the reason when the journal's host lock is held). Not root, no tracefs, no syscall events or perf refused: SKIP
# with the reason cvmbench gives.
set -u
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state    # its journal: a tracefs mount, an instance

plan 11
"$CVMBENCH" calibrate bogus > /dev/null 2>&1; is $? 2 "an unknown target is a usage error (exit 2)"
"$CVMBENCH" calibrate counters --calls 0 > /dev/null 2>&1; is $? 2 "--calls 0 is a usage error"

calibrate 9 counters --calls 5000 --windows 3 --wait-lock 300
is $rc 0 "calibrate counters: exit 0" || sed "s/^/# stderr: /" "$tmp/err"
echo "$out" | sed 's/^/# /'
is "$(echo "$out" | grep -c ' ok$')" \
   "$(( $(echo "$out" | grep -c '^raw_syscalls') + $(echo "$out" | grep -c '^syscalls:') ))" \
   "every requested-against-counted line is exact"
is "$(echo "$out" | grep -c '^raw_syscalls:sys_enter perf-filter  .* ok$')" 12 \
   "raw_syscalls:sys_enter by id, perf-filter: 3 windows x 2 threads x 2 calls"
is "$(echo "$out" | grep -c "^raw_syscalls:sys_enter perf-filter or'ed .* ok$")" 12 \
   "perf-filter, a filter per counter (or'ed ids): 3 windows x 2 threads x 2 counters"
if echo "$out" | grep -q '^trace-stream method not checked'; then
	skip "$(echo "$out" | grep '^trace-stream method not checked')"
else
	is "$(echo "$out" | grep -c '^raw_syscalls:sys_enter trace-stream .* ok$')" 24 \
	   "trace-stream (a tracefs instance of its own), by id and or'ed: exact"
fi
if echo "$out" | grep -q '^bpf method not checked'; then
	skip_rest 2 "$(echo "$out" | grep -m1 '^bpf method not checked')"
else
	is "$(echo "$out" | grep -c '^raw_syscalls:sys_enter bpf .* ok$')/$(echo "$out" |
	      grep -c '^syscalls:sys_enter_getpid bpf .* ok$')" 12/6 \
	   "bpf (one eBPF program, threads compared inline, values in an array): exact"
	out2=$(CVMBENCH_TEST_BPF_MAPS=1 "$CVMBENCH" calibrate counters --calls 5000 --windows 3 \
	       --wait-lock 300 2>"$tmp/err")
	is "$(echo "$out2" | grep -c '^[a-z_]*:sys_enter[a-z_]* bpf .* ok$')" 18 \
	   "bpf with hash maps for threads and values (> 32 threads, values >= 65536): exact"
fi
out=$(CVMBENCH_CALIB_FAULT=tid "$CVMBENCH" calibrate counters --calls 500 --windows 1 --wait-lock 300 2>"$tmp/err"); rc=$?
is $rc 1 "counting the main thread instead of a worker is caught (exit 1)"
ok "$(echo "$out" | grep -c MISMATCH)" -ge 2 "... and printed as MISMATCH"
