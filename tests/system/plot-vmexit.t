#!/bin/bash
# tests/system/plot-vmexit.t - the vmexit-rate figure on crafted databases
# (tests/system/craft-db.py vmexit): a run whose first cell has kvm_exit
# counts by class and whose other cell was skipped draws one bar (the
# skipped cell is left out, not drawn as zero); a run with only
# kvm_userspace_exit counts (a host whose KVM does not trace kvm_exit)
# draws those and says so in the title; a run without counts is "nothing
# to draw" with the reason, exit 3.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=6
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
plan $N
if [ ! -x ./cvmbench ] || [ ! -x $py ]; then skip_rest $N "./cvmbench and $py are needed"; exit 0; fi
if ! command -v gnuplot > /dev/null; then
	[ -n "${CI:-}" ] && { echo "Bail out! gnuplot is missing under CI"; exit 1; }
	skip_rest $N "gnuplot is not installed (apt-get install gnuplot-nox)"
	exit 0
fi
printf '[experiment vx]\nworkload = null\nthreads = 1, 2\ninvocations = 3\nwarmup = 0\n' \
	> "$tmp/vx.ini"
./cvmbench run "$tmp/vx.ini" --db "$tmp/base.db" --wait-lock 300 > /dev/null 2>&1
is $? 0 "a small warm run (two cells)"

./cvmbench plot vmexit-rate --db "$tmp/base.db" --out "$tmp/none.svg" 2> "$tmp/err"
rc=$?
grep -q "nothing to draw: run 1 has no cell with VM-exit counts" "$tmp/err"
is "$rc:$?" "3:0" "no counts: exit 3, nothing to draw, why" || sed 's/^/# /' "$tmp/err"

cp "$tmp/base.db" "$tmp/kx.db" && $py tests/system/craft-db.py "$tmp/kx.db" vmexit kvm_exit
./cvmbench plot vmexit-rate --db "$tmp/kx.db" --out "$tmp/kx.svg" 2> "$tmp/err"
is $? 0 "kvm_exit counts in one cell, a skip in the other: drawn" || sed 's/^/# /' "$tmp/err"
grep -q "kvm_exit per second by class" "$tmp/kx.svg" && grep -q ">idle<" "$tmp/kx.svg" &&
	grep -q ">page-state<" "$tmp/kx.svg"
is $? 0 "... titled kvm_exit, with the classes in the key"
# two cells would be labelled apart (null threads=1, null threads=2)
# N: the cell's measured invocations, 3 as the config asks
is "$(grep -c '>null (N=3)<' "$tmp/kx.svg")" 1 \
   "... one bar, labelled by the workload and N=3 invocations: the skipped cell is left out"

cp "$tmp/base.db" "$tmp/ku.db" && $py tests/system/craft-db.py "$tmp/ku.db" vmexit kvm_userspace_exit
./cvmbench plot vmexit-rate --db "$tmp/ku.db" --out "$tmp/ku.svg" 2> /dev/null &&
	grep -q "kvm_userspace_exit per second by class" "$tmp/ku.svg"
is $? 0 "only kvm_userspace_exit counts: drawn, and the title says which event"
