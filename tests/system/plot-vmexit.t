#!/bin/bash
# tests/system/plot-vmexit.t - the vmexit-rate figure on crafted databases
# (tests/system/craft-db.py vmexit): a run whose first cell has kvm_exit
# counts by class and whose other cell was skipped draws one bar (the
# skipped cell is left out, not drawn as zero); a run with only
# kvm_userspace_exit counts (a host whose KVM does not trace kvm_exit)
# draws those and says so in the title; a run without counts is "nothing
# to draw" with the reason, exit 3.
# Against slowdown (craft-db.py vmexit-pair, pair): a confidential cell
# with counts whose regular twin is in the run gets, under its label, the
# slowdown and interval, N of both sides and each median's coverage that
# `cvmbench compare --json` gives for that pair (its output, read here by
# Python), about the 1.25 the crafted calls are slower, and a point on the
# right axis; its twin is labelled "regular twin"; without a pair the title
# says "no paired run", also when compare refuses the pair; a twin of
# another run, or experiment, is named;
# the report's caption counts a twin that is also drawn once.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=16
py=/usr/bin/python3
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT; echo "# tmp $tmp"
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

# --- against slowdown ----------------------------------------------------
cp "$tmp/base.db" "$tmp/vp.db" && $py tests/system/craft-db.py "$tmp/vp.db" vmexit-pair sev-snp
./cvmbench plot vmexit-rate --db "$tmp/vp.db" --out "$tmp/vp.svg" 2> "$tmp/err"
is "$?:$(grep -vc '^cvmbench: info: wrote' "$tmp/err")" "0:0" \
	"a confidential cell and its regular twin in the run: drawn, gnuplot printed nothing" ||
	sed 's/^/# /' "$tmp/err"
./cvmbench compare --db "$tmp/vp.db" --json > "$tmp/cmp.json" 2> /dev/null
want=$($py - "$tmp/cmp.json" <<'PY'
import json, sys
p = [p for p in json.load(open(sys.argv[1]))["pairs"] if p["side"] == "sev-snp"][0]["stats"]
print("slowdown %.3f [%.3f, %.3f]" % (p["ratio"], p["ratio_ci"][0], p["ratio_ci"][1]))
print("N=%d/%d, cov %.1f/%.1f%%" % (p["base"]["n"], p["side"]["n"],
      100 * p["base"]["median_ci_coverage"], 100 * p["side"]["median_ci_coverage"]))
PY
)
got=$(sed -n 's/^[[:space:]]*<text>\(slowdown [0-9].*\|N=[0-9]*\/.*\)<\/text>$/\1/p' "$tmp/vp.svg")
is "$got" "$want" "... under its label the slowdown, interval, N and coverage compare gives"
case "$got" in slowdown\ 1.2[45]*) r=ok ;; *) r="$got" ;; esac
is "$r" ok "... about the 1.25 the crafted calls are slower"
grep -q ">slowdown (right axis)<" "$tmp/vp.svg" && grep -q ">regular twin (baseline)<" "$tmp/vp.svg" &&
	! grep -q "no paired run" "$tmp/vp.svg" && ! grep -q "baseline from" "$tmp/vp.svg"
is "$?" 0 "... a point on the right axis, the twin labelled, no 'baseline from' (same run)"
./cvmbench report "$tmp/rep" --db "$tmp/vp.db" > /dev/null 2>&1
grep -A6 '^### vmexit-rate' "$tmp/rep/index.md" | grep -q "^Data: .*2 cells, N = 40 invocations;"
is "$?" 0 "the report's caption: 2 cells, N = 40 (the twin is drawn: counted once)"
grep -q "no paired run" "$tmp/kx.svg" && ! grep -q ">slowdown [0-9]" "$tmp/kx.svg"
is "$?" 0 "no pair: the title says no paired run, no slowdown is drawn"

# a pair compare refuses (the sides' guest images differ): no slowdown drawn
cp "$tmp/vp.db" "$tmp/rf.db"
$py -c 'import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
d.execute("INSERT INTO cell_param SELECT id, \x27guest.image\x27, cell_key FROM cell "
          "WHERE backend = \x27qemu\x27")
d.commit()' "$tmp/rf.db"
./cvmbench plot vmexit-rate --db "$tmp/rf.db" --out "$tmp/rf.svg" 2> /dev/null
is "$(grep -c '>pair refused: setups differ (compare)<' "$tmp/rf.svg"):$(grep -c 'no paired run' "$tmp/rf.svg")" \
	"2:1" "a refused pair: both cells say so, no paired run"
# the confidential cells in a run of their own (cloud pair): twin of run 1
cp "$tmp/base.db" "$tmp/xr.db" && $py tests/system/craft-db.py "$tmp/xr.db" pair tdx &&
	$py tests/system/craft-db.py "$tmp/xr.db" vmexit kvm_exit
./cvmbench plot vmexit-rate --db "$tmp/xr.db" --out "$tmp/xr1.svg" 2> /dev/null
grep -q ">regular twin (baseline)<" "$tmp/xr1.svg" && grep -q "no paired run" "$tmp/xr1.svg"
is "$?" 0 "counts on the regular run: its cell is the twin, no paired run drawn"
$py - "$tmp/xr.db" <<'PY'
import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
d.execute("UPDATE metric SET cell_id = (SELECT c2.id FROM cell c1 JOIN cell c2 ON "
          "c2.cell_key = c1.cell_key AND c2.run_id = (SELECT min(id) FROM run) WHERE "
          "c1.id = metric.cell_id) WHERE probe = 'vmexit'")
d.commit()
PY
cvm=$($py -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT min(id) FROM run").fetchone()[0])' "$tmp/xr.db")
./cvmbench plot vmexit-rate --db "$tmp/xr.db" --run "$cvm" --out "$tmp/xr2.svg" 2> /dev/null
grep -q ">N=3/3, cov [0-9.]*/[0-9.]*%<" "$tmp/xr2.svg" && grep -q ">baseline from run 1<" "$tmp/xr2.svg"
is "$?" 0 "counts on the tdx run: its slowdown, 'baseline from run 1'"
$py -c 'import sqlite3, sys
d = sqlite3.connect(sys.argv[1]); d.execute("UPDATE cell SET experiment = \x27reg-exp\x27 WHERE run_id = 1")
d.commit()' "$tmp/xr.db"
./cvmbench plot vmexit-rate --db "$tmp/xr.db" --run "$cvm" --out "$tmp/xr3.svg" 2> /dev/null
grep -q ">baseline from reg-exp, run 1<" "$tmp/xr3.svg"
is "$?" 0 "... 'baseline from reg-exp, run 1' when the twin is another experiment's too"
