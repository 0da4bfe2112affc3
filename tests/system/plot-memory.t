#!/bin/bash
# tests/system/plot-memory.t - `cvmbench plot memory` on a run of native
# cells with the hostmem probe (no root, no VM: the instance process is
# cvmfn): it draws without a gnuplot warning; the points sit at integer VM
# counts taken from cell_param `vms` (set by hand here: these are native
# cells) with N beside each; a cell without hostmem data is left out and
# counted in the title; a run without any is "nothing to draw" (exit 3).
# The other memory figures on the same cells: without their data (no ksm =
# on cell, no cell of several VMs or instances, no KSM time series) each is
# "nothing to draw" with its reason, never a crash; memory-overhead draws
# once a ksm = on / off pair exists, with the overhead the metrics give; on
# a run without hostmem data every one of them is exit 3. memory-scaling keeps
# the N labels of coinciding lines apart (each line's a line lower, in its
# colour) and draws a workload's variant as a line of its own. With every
# cell at one VM (each point in the middle of the plot) the keys of
# memory-scaling and memory-overhead lie outside the plot area
# (tests/system/key-outside.py: below the x axis). (The figures
# drawn from a real run of two VMs: tests/system/hostmem.t.)
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=17
plan $N
if ! command -v gnuplot >/dev/null; then
	[ -n "${CI:-}" ] && { echo "Bail out! gnuplot is missing under CI"; exit 1; }
	skip_rest $N "gnuplot is not installed (apt-get install gnuplot-nox)"; exit 0
fi
if ! command -v sqlite3 >/dev/null; then skip_rest $N "no sqlite3"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
cat > "$tmp/m.ini" <<'INI'
[experiment mem]
workload = null
invocations = 2
warmup = 0
probes = latency, hostmem
hostmem-interval = 0.05
seed = 1, 2, 3, 4
INI
$CVMBENCH run "$tmp/m.ini" --db "$tmp/r.db" --wait-lock 600 >"$tmp/out" 2>&1
is "$?" 0 "four native cells with the hostmem probe run" || sed 's/^/# /' "$tmp/out" | tail -3
# cells 1-2 at one VM, 3 at two VMs; cell 4 loses its hostmem data
sqlite3 "$tmp/r.db" "INSERT OR REPLACE INTO cell_param (cell_id, key, value) VALUES (1, 'vms', '1'),
	(2, 'vms', '1'), (3, 'vms', '2'), (4, 'vms', '2');
	DELETE FROM metric WHERE cell_id = 4 AND probe = 'hostmem'"
$CVMBENCH plot memory --db "$tmp/r.db" --out "$tmp/m.svg" >"$tmp/plot.out" 2>&1
is "$?" 0 "plot memory draws"
is "$(grep -v 'info: wrote' "$tmp/plot.out")" "" "without any gnuplot warning"
grep -q '>N=2<' "$tmp/m.svg" && grep -q '>N=1<' "$tmp/m.svg"
is "$?" 0 "N beside each point: N=2 at one VM, N=1 at two (cell 4 has no data)"
grep -q '1 cells without hostmem data left out' "$tmp/m.svg"
is "$?" 0 "the cell without data is counted in the title"
nodata() {   # FIGURE DB REASON: exit 3, "nothing to draw: REASON"
	$CVMBENCH plot "$1" --db "$2" --out "$tmp/$1.svg" 2>"$tmp/err"
	local rc=$?
	grep -q "$1: nothing to draw: $3" "$tmp/err"
	is "$rc:$?" "3:0" "$1 on ${4:-these cells}: nothing to draw, exit 3, the reason given" ||
		sed 's/^/# /' "$tmp/err"
}
nodata memory-overhead "$tmp/r.db" "run 1 has no ksm = on cell with a ksm = off or model cell" \
	"cells without a ksm = on / off pair"
nodata memory-mixed "$tmp/r.db" "run 1 has no cell of 2 or more VMs with one instance each" \
	"cells of 2 VMs without an instance each"
nodata consolidation "$tmp/r.db" "run 1 has no cell of 2 or more instances" \
	"cells of one instance"
nodata ksm-convergence "$tmp/r.db" "run 1 has no ksm = on cell with the ksm probe's time series" \
	"cells without the ksm probe"
# the memory table: cell 1 as the ksm = off twin of cell 2
sqlite3 "$tmp/r.db" "UPDATE cell_param SET value = 'off' WHERE cell_id = 1 AND key = 'ksm';
	UPDATE cell_param SET value = 'on' WHERE cell_id = 2 AND key = 'ksm'"
want=$(sqlite3 "$tmp/r.db" "SELECT printf('%.1f', ((SELECT value FROM metric WHERE cell_id = 1
	AND name = 'pss_kb' AND probe = 'hostmem') - (SELECT value FROM metric WHERE cell_id = 2
	AND name = 'pss_kb' AND probe = 'hostmem')) / 1024.0)")
$CVMBENCH show --db "$tmp/r.db" --table memory --json > "$tmp/t.json"
got=$(python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))
print(t["rows"][1][t["head"].index("PSS saving vs ksm off MiB")], len(t["rows"]))' "$tmp/t.json")
is "$got" "$want 3" "show --table memory: cell 2's PSS saving against its ksm = off twin, 3 rows (not cell 4)"
$CVMBENCH plot memory-overhead --db "$tmp/r.db" --out "$tmp/o.svg" >"$tmp/plot.out" 2>&1
rc=$?
w=$(sqlite3 "$tmp/r.db" "SELECT printf('%+.1f', 100.0 * ((SELECT value FROM metric WHERE cell_id = 1
	AND name = 'pss_kb' AND probe = 'hostmem') - (SELECT value FROM metric WHERE cell_id = 2
	AND name = 'pss_kb' AND probe = 'hostmem')) / (SELECT value FROM metric WHERE cell_id = 2
	AND name = 'pss_kb' AND probe = 'hostmem'))")
grep -q ">$w %, N=1/1<" "$tmp/o.svg"
is "$rc:$?:$(grep -v 'info: wrote' "$tmp/plot.out")" "0:0:" \
	"memory-overhead: cell 1 (ksm off) $w % over cell 2 (ksm on) at one VM, N=1/1"
# coinciding lines: cells 1 (ksm off) and 2 (ksm on) at the same PSS, one VM
cp "$tmp/r.db" "$tmp/c.db"
sqlite3 "$tmp/c.db" "UPDATE metric SET value = 300000 WHERE probe = 'hostmem' AND
	name = 'pss_kb' AND invocation_id IS NULL AND cell_id IN (1, 2)"
$CVMBENCH plot memory --db "$tmp/c.db" --out "$tmp/c.svg" >/dev/null 2>&1
labels() {   # SVG: "x,y colour" of each N= label
	python3 -c 'import re, sys
s = open(sys.argv[1]).read()
for m in re.finditer(r"translate\(([^)]*)\)[^>]*fill=\"([^\"]*)\"[^>]*>\s*<text><tspan[^>]*>N=", s):
	print(m.group(1), m.group(2))' "$1"
}
labels "$tmp/c.svg" > "$tmp/lab"
is "$(wc -l < "$tmp/lab") $(cut -d' ' -f1 "$tmp/lab" | sort -u | wc -l) $(cut -d' ' -f2 "$tmp/lab" | sort -u | wc -l)" \
	"3 3 3" "memory-scaling: coinciding lines' N labels at 3 places in 3 colours (were one on the other)"
# a variant is a line of its own, named in the legend
sqlite3 "$tmp/c.db" "INSERT OR REPLACE INTO cell_param (cell_id, key, value) VALUES (2, 'variant', 'resnet152')"
$CVMBENCH plot memory --db "$tmp/c.db" --out "$tmp/v.svg" >/dev/null 2>&1
grep -q '>null resnet152: ksm on<' "$tmp/v.svg" && grep -q '>null: ksm off<' "$tmp/v.svg"
is "$?" 0 "memory-scaling: a cell's variant names its own line (null resnet152: ksm on)"
# every cell at one VM: its points in the middle of the plot, where the key inside it was
cp "$tmp/r.db" "$tmp/one.db"
sqlite3 "$tmp/one.db" "UPDATE cell_param SET value = '1' WHERE key = 'vms'"
$CVMBENCH plot memory-scaling --db "$tmp/one.db" --out "$tmp/one.svg" >/dev/null 2>&1 &&
	$CVMBENCH plot memory-overhead --db "$tmp/one.db" --out "$tmp/one-o.svg" >/dev/null 2>&1
is "$?:$(python3 tests/system/key-outside.py "$tmp/one.svg" "$tmp/one-o.svg")" "0:outside" \
	"every cell at one VM: memory-scaling's and memory-overhead's keys outside the plot area"
$CVMBENCH report "$tmp/rep" --db "$tmp/r.db" >/dev/null 2>&1
grep -q "Host memory and KSM" "$tmp/rep/index.md"
is "$?" 0 "the report holds the memory table"
printf '[experiment none]\nworkload = null\ninvocations = 1\n' > "$tmp/n.ini"
$CVMBENCH run "$tmp/n.ini" --db "$tmp/n.db" --wait-lock 600 >/dev/null 2>&1
$CVMBENCH plot memory --db "$tmp/n.db" --out "$tmp/n.svg" 2>"$tmp/err"
rc=$?
grep -q "nothing to draw: run 1 has no cell measured with the hostmem probe" "$tmp/err"
is "$rc:$?" "3:0" "a run without hostmem data: nothing to draw, exit 3"
for f in memory-overhead memory-mixed consolidation ksm-convergence; do
	$CVMBENCH plot $f --db "$tmp/n.db" --out "$tmp/n.svg" 2>"$tmp/err"; echo "$?"
done > "$tmp/rcs"
is "$(tr '\n' ' ' < "$tmp/rcs")$(grep -c 'nothing to draw: run 1 has no' "$tmp/err")" "3 3 3 3 1" \
	"a run without hostmem data: memory-overhead, memory-mixed, consolidation, ksm-convergence exit 3"
