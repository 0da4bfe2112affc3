#!/bin/bash
# tests/system/plot-memory.t - `cvmbench plot memory` on a run of native
# cells with the hostmem probe (no root, no VM: the instance process is
# cvmfn): it draws without a gnuplot warning; the points sit at integer VM
# counts taken from cell_param `vms` (set by hand here: these are native
# cells) with N beside each; a cell without hostmem data is left out and
# counted in the title; a run without any is "nothing to draw" (exit 3).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=8
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
# the memory table: cell 1 as the ksm = off twin of cell 2
sqlite3 "$tmp/r.db" "UPDATE cell_param SET value = 'off' WHERE cell_id = 1 AND key = 'ksm';
	UPDATE cell_param SET value = 'on' WHERE cell_id = 2 AND key = 'ksm'"
want=$(sqlite3 "$tmp/r.db" "SELECT printf('%.1f', ((SELECT value FROM metric WHERE cell_id = 1
	AND name = 'pss_kb' AND probe = 'hostmem') - (SELECT value FROM metric WHERE cell_id = 2
	AND name = 'pss_kb' AND probe = 'hostmem')) / 1024.0)")
$CVMBENCH show --db "$tmp/r.db" --table memory --json > "$tmp/t.json"
got=$(python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))
print(t["rows"][1][11], len(t["rows"]))' "$tmp/t.json")
is "$got" "$want 3" "show --table memory: cell 2's PSS saving against its ksm = off twin, 3 rows (not cell 4)"
$CVMBENCH report "$tmp/rep" --db "$tmp/r.db" >/dev/null 2>&1
grep -q "Host memory and KSM" "$tmp/rep/index.md"
is "$?" 0 "the report holds the memory table"
printf '[experiment none]\nworkload = null\ninvocations = 1\n' > "$tmp/n.ini"
$CVMBENCH run "$tmp/n.ini" --db "$tmp/n.db" --wait-lock 600 >/dev/null 2>&1
$CVMBENCH plot memory --db "$tmp/n.db" --out "$tmp/n.svg" 2>"$tmp/err"
rc=$?
grep -q "nothing to draw: run 1 has no cell measured with the hostmem probe" "$tmp/err"
is "$rc:$?" "3:0" "a run without hostmem data: nothing to draw, exit 3"
