#!/bin/bash
# tests/system/plot-vmexit-reasons.t - the vmexit table read back: `show
# --table vmexit` and `plot vmexit-reasons` on crafted databases
# (tests/system/craft-db.py vmexit-rows: kvm_exit by reason with times for
# some, a total flagged against KVM's exits, KVM's statistics of VM 0 and a
# kvm-stats skip for VM 1) and on databases without rows (exit 3 with the
# reason: no cell ran the probe, or the probe's skips). The figure puts the
# largest count first, draws time only where measured, and --only picks
# the cell (one without rows, or an unknown key: nothing to draw, why).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=13
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
plan $N
if [ ! -x ./cvmbench ] || [ ! -x $py ]; then skip_rest $N "./cvmbench and $py are needed"; exit 0; fi
printf '[experiment vx]\nworkload = null\nthreads = 1, 2\ninvocations = 3\nwarmup = 0\n' \
	> "$tmp/vx.ini"
./cvmbench run "$tmp/vx.ini" --db "$tmp/base.db" --wait-lock 300 > /dev/null 2>&1
is $? 0 "a small warm run (two cells)"

./cvmbench show --table vmexit --db "$tmp/base.db" > "$tmp/out" 2> "$tmp/err"
rc=$?
grep -q "no cell ran the vmexit probe" "$tmp/err"
is "$rc:$?:$(wc -c < "$tmp/out")" "3:0:0" "show, no rows: exit 3, why, no table" ||
	sed 's/^/# /' "$tmp/err"

cp "$tmp/base.db" "$tmp/sk.db" && $py tests/system/craft-db.py "$tmp/sk.db" vmexit kvm_exit
./cvmbench show --table vmexit --db "$tmp/sk.db" > /dev/null 2> "$tmp/err"
rc=$?
grep -q "vmexit skipped: the VMs run under tcg" "$tmp/err"
is "$rc:$?" "3:0" "show, rows skipped: exit 3 with the probe's skip reason" ||
	sed 's/^/# /' "$tmp/err"

cp "$tmp/base.db" "$tmp/r.db" && $py tests/system/craft-db.py "$tmp/r.db" vmexit-rows 'we"ird'
./cvmbench show --table vmexit --db "$tmp/r.db" > "$tmp/out" 2> "$tmp/err"
is $? 0 "show --table vmexit: rows" || sed 's/^/# /' "$tmp/err"
grep "kvm_exit" "$tmp/out" | grep " total " | grep -q "1.50 % apart"
is $? 0 "... the kvm_exit total carries the fidelity flag"
grep "kvm-stats" "$tmp/out" | grep -q "^ *vx-[0-9a-f]* *cell *1 .*exits  *- .*does not run under KVM"
is $? 0 "... VM 1's KVM statistics: no count, the reason" || grep kvm-stats "$tmp/out" | sed 's/^/# /'

./cvmbench show --db "$tmp/r.db" > "$tmp/out" 2> "$tmp/err"
grep -q "probe vmexit flag_vmexit_fidelity: kvm_exit and KVM's own exits counter differ by more than 1 %" "$tmp/out"
is $? 0 "plain show lists the fidelity flag under flags" || sed -n '/^flags/,/^errors/p' "$tmp/out" | sed 's/^/# /'

./cvmbench show --table vmexit --json --db "$tmp/r.db" > "$tmp/json"
$py - "$tmp/json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
tot = [r for r in rows if r["reason"] == "total"][0]
vm1 = [r for r in rows if r["vm"] == 1][0]
inv = [r for r in rows if r["invocation"] is not None]
sys.exit(0 if len(rows) == 11 and "1.50 %" in tot["fidelity"] and vm1["count"] is None
         and "KVM" in vm1["skip"] and inv[0]["count"] == 60 else 1)
PY
is $? 0 "show --json: 11 rows, the flag, a skip with count null, the invocation window"

if ! command -v gnuplot > /dev/null; then
	[ -n "${CI:-}" ] && { echo "Bail out! gnuplot is missing under CI"; exit 1; }
	skip_rest $N "gnuplot is not installed (apt-get install gnuplot-nox)"
	exit 0
fi
./cvmbench plot vmexit-reasons --db "$tmp/base.db" --out "$tmp/none.svg" 2> "$tmp/err"
rc=$?
grep -q "nothing to draw: run 1 has no cell with VM exits by reason" "$tmp/err"
is "$rc:$?" "3:0" "plot, no rows: exit 3, nothing to draw, why" || sed 's/^/# /' "$tmp/err"

./cvmbench plot vmexit-reasons --db "$tmp/r.db" --out "$tmp/r.svg" 2> "$tmp/err"
is $? 0 "plot vmexit-reasons: the first cell with rows" || sed 's/^/# /' "$tmp/err"
grep -q "kvm_exit by reason" "$tmp/r.svg" && grep -q "time per reason" "$tmp/r.svg"
is $? 0 "... counts, and time per reason (some rows have it)"
# largest count first: io 6000, hlt 4000, npf 2000, msr 500, the odd name 10
order=$(grep -o '>[a-z"'"'"']* ([a-z]*)<' "$tmp/r.svg" | head -5 | tr -d '<>' | cut -d' ' -f1 | tr '\n' ' ')
is "$order" "io hlt npf msr we'ird " "... reasons by count, largest first"

key2=$(sqlite3 "$tmp/r.db" "SELECT cell_key FROM cell ORDER BY id LIMIT 1 OFFSET 1" 2>/dev/null ||
	$py -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT cell_key FROM cell ORDER BY id LIMIT 1 OFFSET 1').fetchone()[0])" "$tmp/r.db")
./cvmbench plot vmexit-reasons --db "$tmp/r.db" --only "$key2" --out "$tmp/o.svg" 2> "$tmp/err"
rc=$?
grep -q "cell $key2 of run 1 has no VM exits by reason" "$tmp/err"
r1=$rc:$?
./cvmbench plot vmexit-reasons --db "$tmp/r.db" --only no-such-cell --out "$tmp/o.svg" 2> "$tmp/err"
rc=$?
grep -q "run 1 has no cell no-such-cell" "$tmp/err"
is "$r1 $rc:$? $([ -e "$tmp/o.svg" ]; echo $?)" "3:0 3:0 1" \
   "--only a cell without rows, or no such cell: exit 3, why, no figure"
