#!/bin/bash
# tests/system/calibrate-pidns.t - the counting engine inside a pid namespace
# of its own (`unshare -p -f --mount-proc`, as in a privileged container):
# the thread ids it is given are the namespace's, the kernel's trace records
# and bpf_get_current_pid_tgid() carry the initial namespace's. Every method
# must count exactly there or refuse with the reason: never a 0 that looks
# like a count (before the fix: every bpf and trace-stream row read 0).
# Then the bpf method's count by process (TPCOUNT_TGID, the vmexit probe's
# way) in the namespace: build/tests/tpcount-bpf.t run inside it.
# Not root, or unshare refused (no CLONE_NEWPID here): SKIP with the reason.
set -u
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state

plan 6
if [ "$(id -u)" != 0 ]; then
	skip_all 6 "needs root"
fi
if ! why=$(unshare -p -f --mount-proc true 2>&1); then
	skip_all 6 "unshare -p -f --mount-proc refused here: ${why:-no reason given}"
fi
inns() { unshare -p -f --mount-proc "$@"; }
out=$(inns "$CVMBENCH" calibrate counters --calls 2001 --windows 2 --wait-lock 300 2>&1); rc=$?
if [ $rc = 3 ]; then
	skip_all 6 "$(echo "$out" | grep '^SKIP' | head -1)"
fi
echo "$out" | sed 's/^/# /'
is $rc 0 "calibrate counters in a pid namespace of its own: exit 0"
is "$(echo "$out" | grep -c 'MISMATCH')" 0 "no count differs from the calls made (no silent 0)"
if echo "$out" | grep -q '^bpf method not checked'; then
	ok "$(echo "$out" | grep -c '^bpf method not checked: .*pid namespace')" -ge 1 \
	   "bpf refused with the pid namespace as the reason"
else
	is "$(echo "$out" | grep -c '^[a-z_]*:sys_enter[a-z_]* bpf .* ok$')" 12 \
	   "bpf counts the namespace's threads exactly (its own ids, helper 120)"
fi
if echo "$out" | grep -q '^trace-stream method not checked'; then
	ok "$(echo "$out" | grep -c '^trace-stream method not checked: .*pid namespace')" -ge 1 \
	   "trace-stream refused with the pid namespace as the reason"
else
	is "$(echo "$out" | grep -c '^raw_syscalls:sys_enter trace-stream .* ok$')" 16 \
	   "trace-stream counts exactly"
fi
out=$(CVMBENCH_TEST_BPF_MAPS=1 inns "$CVMBENCH" calibrate counters --calls 2001 --windows 1 \
      --wait-lock 300 2>&1)
if echo "$out" | grep -q '^bpf method not checked'; then
	skip "$(echo "$out" | grep -m1 '^bpf method not checked')"
else
	is "$(echo "$out" | grep -c '^[a-z_]*:sys_enter[a-z_]* bpf .* ok$')" 6 \
	   "bpf with hash maps for threads and values, in the namespace: exact"
fi
unit=${BUILD:-build}/tests/tpcount-bpf.t
if [ -x "$unit" ]; then
	out=$(inns "$unit" 2>&1)
	echo "$out" | sed 's/^/# /'
	is "$(echo "$out" | grep -cE '^ok [0-9]+ - bpf, by process')/$(echo "$out" | grep -c '^not ok')" 2/0 \
	   "bpf by process (tgid of the namespace), condition and rest in the namespace: exact"
else
	skip "$unit not built (make check builds it)"
fi
