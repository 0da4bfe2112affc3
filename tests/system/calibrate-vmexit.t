#!/bin/bash
# tests/system/calibrate-vmexit.t - the vmexit probe's sources against the
# micro-VM of lib/kvm-toy.c (plain KVM ioctls, real-mode guest code
# making N port writes, M MMIO writes and H HLTs per window):
# kvm:kvm_userspace_exit by reason must count exactly N+1 / M / H per
# window (the +1: the write that ends the run); kvm:kvm_exit by reason and
# KVM's vCPU statistics must be exact where they count at all. Where
# kvm_exit never fires (a PVM host: kvm_pvm), that check is a SKIP with
# the reason; no /dev/kvm or not root: SKIP.
set -u
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state    # its journal: a tracefs mount, an instance

plan 4
if [ "$(id -u)" != 0 ]; then skip_rest 4 "not root"; exit 0; fi
# no /dev/kvm: the tool's own check says so (exit 3, "SKIP vmexit: /dev/kvm: ...")
out=$("$CVMBENCH" calibrate vmexit --calls 500 --windows 3 --wait-lock 300 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
if [ $rc = 3 ]; then skip_rest 4 "$(echo "$out" | grep '^SKIP' | head -1)"; exit 0; fi
is $rc 0 "calibrate vmexit: exit 0 (every count that counts is exact)"
is "$(echo "$out" | grep -c '  kvm_userspace_exit .* ok$')" 9 \
   "kvm_userspace_exit: io, mmio and hlt exact in each of 3 windows"
if echo "$out" | grep -q 'kvm:kvm_exit did not fire'; then
	skip "$(echo "$out" | grep -m1 'kvm:kvm_exit did not fire' | sed 's/^ *//')"
else
	is "$(echo "$out" | grep -c '  kvm_exit .* ok$')" 6 "kvm_exit: io and hlt exact in each window"
fi
is "$(echo "$out" | grep -c MISMATCH)" 0 "no mismatch in any source"
