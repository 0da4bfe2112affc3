#!/bin/bash
# tests/system/resume.t - `cvmbench run --resume` and `--only` (issue 17),
# checked with sqlite3 against an uninterrupted run of the same config:
# kill -9 at 5 random points of a small native config (each restart with
# --resume, killed again), then a last --resume: the same set of ok cells as
# the uninterrupted run, one current row per cell, every cut-off cell's rows
# kept but superseded, and no invocation counted twice by show, export,
# compare or merge; --only re-runs a cell into the same run; a resume with
# another config is refused naming the differing keys (exit 2), a run of
# another machine too; show lists the cells in the matrix order after
# --resume and --only, as the uninterrupted run. Native cells change no
# host setting: the run's host lock is a private file
# (CVMBENCH_TEST_HOST_LOCK).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=27
plan $N
command -v sqlite3 >/dev/null || skip_all $N "no sqlite3"
[ -x "$CVMBENCH" ] || skip_all $N "no $CVMBENCH (make)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock
q() { sqlite3 -batch -noheader "$1" "$2"; }
INV=2000
cat > "$tmp/r.ini" <<INI
[defaults]
size = test
probes = latency
invocations = $INV
warmup = 2
[experiment resume]
workload = null, hello-world
threads = 1, 2
repeats = 2
INI
CELLS=8

$CVMBENCH run "$tmp/r.ini" --db "$tmp/ref.db" 2>"$tmp/err"
is "$? $(q "$tmp/ref.db" "SELECT status || ' ' || cells_ok FROM run")" "0 complete $CELLS" \
	"the uninterrupted run: $CELLS cells ok" || sed 's/^/# /' "$tmp/err"

# kill -9 at 5 random points (10 ms .. 1 s into each start; a whole run takes about 1.5 s)
db=$tmp/k.db
kills=""
# first a kill surely inside a cell: once it has 100 calls stored
$CVMBENCH run "$tmp/r.ini" --db "$db" >/dev/null 2>>"$tmp/kill.err" &
pid=$!
for ((w = 0; w < 500; w++)); do
	[ "$(q "$db" "SELECT count(*) FROM invocation WHERE cell_id = (SELECT max(id) FROM cell)" 2>/dev/null)" -gt 100 ] 2>/dev/null && break
	sleep 0.01
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
for i in 1 2 3 4 5; do
	args=(run "$tmp/r.ini" --db "$db" --resume)
	$CVMBENCH "${args[@]}" >/dev/null 2>>"$tmp/kill.err" &
	pid=$!
	t=$(printf '0.%03d' $((10 + RANDOM % 990)))
	sleep "$t"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	kills="$kills $t:$(q "$db" "SELECT count(*) FROM cell WHERE status = 'ok'" 2>/dev/null)"
done
echo "# kill points (s:cells ok at the kill):$kills"
$CVMBENCH run "$tmp/r.ini" --db "$db" --resume 2>"$tmp/err"
is "$?" 0 "the last --resume exits 0" || sed 's/^/# /' "$tmp/err"
is "$(q "$db" "SELECT count(*) || ' ' || group_concat(status) FROM run")" "1 complete" \
	"one run in the database, complete"
cur="SELECT * FROM cell WHERE id IN (SELECT max(id) FROM cell GROUP BY run_id, cell_key)"
okset="SELECT group_concat(cell_key, ' ') FROM (SELECT cell_key FROM ($cur) WHERE status = 'ok' ORDER BY cell_key)"
is "$(q "$db" "$okset")" "$(q "$tmp/ref.db" "$okset")" "the same set of ok cells as the uninterrupted run"
is "$(q "$db" "SELECT cells_total || ' ' || cells_ok || ' ' || cells_failed FROM run")" "$CELLS $CELLS 0" \
	"the run's counts are the whole matrix's"
is "$(q "$db" "SELECT count(*) FROM ($cur) c WHERE (SELECT count(*) FROM invocation i WHERE i.cell_id = c.id AND i.phase = 'measured') != $INV")" 0 \
	"every current cell has exactly $INV measured calls"
old=$(q "$db" "SELECT count(*) FROM cell WHERE id NOT IN (SELECT id FROM ($cur))")
is "$(q "$db" "SELECT count(*) FROM cell WHERE id NOT IN (SELECT id FROM ($cur)) AND status = 'ok'") $((old > 0))" "0 1" \
	"cut-off cells were run again ($old superseded rows), no cell that had ended ok"
is "$(q "$db" "SELECT count(*) FROM cell WHERE status = 'running'")" 0 "no cell left 'running'"

# readers count every call once
$CVMBENCH show --db "$db" --json > "$tmp/show.json" 2>/dev/null
is "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["run"]["cells"]; print(len(r), sum(c["latency_ms"]["n"] for c in r))' "$tmp/show.json")" \
	"$CELLS $((CELLS * INV))" "show: $CELLS cells, $((CELLS * INV)) measured calls"
nrows() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["invocations"]))' "$1"; }
$CVMBENCH export --json --db "$db" --out "$tmp/inv.json" 2>/dev/null
want=$(q "$db" "SELECT count(*) FROM invocation WHERE cell_id IN (SELECT id FROM ($cur))")
is "$(nrows "$tmp/inv.json")" "$want" "export: the current cells' calls only ($want of $(q "$db" "SELECT count(*) FROM invocation"))"
# the cells tables only: a flag line (here every cell flagged noisy, as a
# busy machine does) names the cell too
show_cells() { awk '/^cells:/ { f = 1; next } /^  columns:/ { f = 0 } f && /^  resume-/' "$1" | wc -l; }
report_cells() { awk '/^## / { f = ($0 == "## Cells") } f && /^\| resume-/' "$1" | wc -l; }
q "$db" "INSERT INTO metric (cell_id, probe, name, value, unit) SELECT id, 'noise', 'flag_noisy', 1, 'flag' FROM ($cur)
	WHERE id NOT IN (SELECT cell_id FROM metric WHERE name = 'flag_noisy' AND value != 0 AND invocation_id IS NULL)"
$CVMBENCH show --db "$db" > "$tmp/show.txt" 2>/dev/null
is "$(show_cells "$tmp/show.txt") $(grep -c '^  resume-.* flag_noisy: ' "$tmp/show.txt")" "$CELLS $CELLS" \
	"show (text): one line per cell in the cells table (and a flag line per cell beside it)"
$CVMBENCH merge --out "$tmp/m.db" "$db" >/dev/null 2>&1
$CVMBENCH export --json --db "$tmp/m.db" --out "$tmp/minv.json" 2>/dev/null
is "$(nrows "$tmp/minv.json")" "$want" "merge keeps the superseded rows superseded (export of the merge: $want calls)"
$CVMBENCH report "$tmp/rep" --db "$db" >/dev/null 2>&1
is "$(report_cells "$tmp/rep/index.md")" "$CELLS" "report: one row per cell in its cells table"

# merge, --resume, merge again: the output gets the resumed run's new cells
m2=$tmp/m2.db k2=$tmp/k2.db
$CVMBENCH run "$tmp/r.ini" --db "$k2" >/dev/null 2>>"$tmp/kill.err" &
pid=$!
for ((w = 0; w < 1000; w++)); do
	[ "$(q "$k2" "SELECT count(*) FROM cell WHERE status = 'ok'" 2>/dev/null)" -ge 2 ] 2>/dev/null && break
	sleep 0.01
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
$CVMBENCH merge --out "$m2" "$k2" >/dev/null 2>&1
first=$(q "$m2" "SELECT count(*) FROM cell")
# --only a cell into the unfinished run: exit from that cell (0), the run interrupted still
okkey=$(q "$k2" "SELECT cell_key FROM cell WHERE status = 'ok' ORDER BY id LIMIT 1")
$CVMBENCH run "$tmp/r.ini" --db "$k2" --only "$okkey" >/dev/null 2>"$tmp/err"
is "$? $(q "$k2" "SELECT count(*) || ' ' || status FROM run")" "0 1 interrupted" \
	"--only into an unfinished run: exit 0 (its cell measured), the run still interrupted over its matrix" ||
	sed 's/^/# /' "$tmp/err"
$CVMBENCH run "$tmp/r.ini" --db "$k2" --resume >/dev/null 2>"$tmp/err"
$CVMBENCH merge --out "$m2" "$k2" > "$tmp/merge.out" 2>&1
rc=$?
rows() { q "$1" "SELECT (SELECT count(*) FROM run) || ' ' || (SELECT status || ' ' || cells_ok FROM run)
	|| ' ' || (SELECT count(*) FROM cell) || ' ' || (SELECT count(*) FROM cell WHERE status = 'ok')
	|| ' ' || (SELECT count(*) FROM invocation) || ' ' || ($okset)"; }
is "$rc $(rows "$m2")" "0 $(rows "$k2")" \
	"merge after --resume: the run's new cells, calls, status and counts (merged first with $first cells)" ||
	sed 's/^/# /' "$tmp/merge.out"
$CVMBENCH export --json --db "$m2" --out "$tmp/m2inv.json" 2>/dev/null
is "$(nrows "$tmp/m2inv.json")" "$(q "$k2" "SELECT count(*) FROM invocation WHERE cell_id IN (SELECT id FROM ($cur))")" \
	"and its export counts the current cells' calls only"
$CVMBENCH merge --out "$m2" "$k2" >/dev/null 2>&1
is "$(rows "$m2")" "$(rows "$k2")" "a third merge adds nothing"

# --only: re-run one cell into the same run
key=$(q "$db" "SELECT cell_key FROM cell ORDER BY id LIMIT 1")
$CVMBENCH run "$tmp/r.ini" --db "$db" --only "$key" 2>"$tmp/err"
is "$? $(q "$db" "SELECT count(*) || ' ' || group_concat(status) FROM run")" "0 1 complete" \
	"--only re-runs a cell into the same run, still complete" || sed 's/^/# /' "$tmp/err"
is "$(q "$db" "SELECT count(*) FROM cell WHERE cell_key = '$key'") $(q "$db" "SELECT count(*) FROM ($cur) WHERE cell_key = '$key'")" \
	"$(( $(q "$tmp/k.db" "SELECT count(*) FROM cell WHERE cell_key = '$key'") )) 1" \
	"its older row is kept, one is current"
$CVMBENCH show --db "$db" --json > "$tmp/show2.json" 2>/dev/null
is "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["run"]["cells"]))' "$tmp/show2.json")" \
	"$CELLS" "show of the latest run draws all $CELLS cells after --only"
# the cells in the config's matrix order, as the uninterrupted run lists
# them, not by row id (a cell measured again has the newest row): text
# (key and the settings of its row) and JSON, after kills and --resume and
# --only ($db), and after --only into an unfinished run then --resume ($k2)
order() {
	$CVMBENCH show --db "$1" 2>/dev/null | awk '/^cells:/ { f = 1; next } /^  columns:/ { f = 0 } f && /^  resume-/ { print $1, $2, $3, $4 }' | tr '\n' ' '
	$CVMBENCH show --db "$1" --json 2>/dev/null | python3 -c 'import json,sys; print(" ".join(c["cell_key"] for c in json.load(sys.stdin)["run"]["cells"]))'
}
is "$(order "$db") | $(order "$k2")" "$(order "$tmp/ref.db") | $(order "$tmp/ref.db")" \
	"show lists the cells in the matrix order after --resume and --only, as the uninterrupted run"

# refused: another config (naming the keys), a run of another machine
sed -e "s/invocations = $INV/invocations = 7/" -e 's/threads = 1, 2/threads = 1/' \
	"$tmp/r.ini" > "$tmp/other.ini"
$CVMBENCH run "$tmp/other.ini" --db "$db" --resume 2>"$tmp/err"
rc=$?
grep -q "invocations: '$INV' vs '7'" "$tmp/err" && grep -q "threads: '1, 2' vs '1'" "$tmp/err"
is "$rc $?" "2 0" "--resume with another config: exit 2, naming invocations and threads" ||
	sed 's/^/# /' "$tmp/err"
is "$(q "$db" "SELECT count(*) FROM run") $(q "$db" "SELECT count(*) FROM cell WHERE status = 'running'")" "1 0" \
	"and the database is left as it was"
cp "$db" "$tmp/h.db"
q "$tmp/h.db" "UPDATE run SET hostname = 'elsewhere', status = 'interrupted'"
$CVMBENCH run "$tmp/r.ini" --db "$tmp/h.db" --resume 2>"$tmp/err"
rc=$?
grep -q "measured on host 'elsewhere'" "$tmp/err"
is "$rc $?" "2 0" "--resume of a run measured on another host: exit 2, naming it"
# refused: a run of another cvmbench version, a run holding cells this matrix has not
cp "$db" "$tmp/v.db"
q "$tmp/v.db" "UPDATE run SET cvmbench_version = '0000000-other', status = 'interrupted'"
$CVMBENCH run "$tmp/r.ini" --db "$tmp/v.db" --resume 2>"$tmp/err"
rc=$?
grep -q "measured by cvmbench 0000000-other, this is " "$tmp/err"
is "$rc $? $(q "$tmp/v.db" "SELECT status FROM run")" "2 0 interrupted" "--resume of a run of another cvmbench version: exit 2, naming it" ||
	sed 's/^/# /' "$tmp/err"
cp "$db" "$tmp/f.db"
q "$tmp/f.db" "UPDATE cell SET cell_key = 'resume-0badce11' WHERE id = (SELECT max(id) FROM cell); UPDATE run SET status = 'interrupted'"
$CVMBENCH run "$tmp/r.ini" --db "$tmp/f.db" --resume 2>"$tmp/err"
rc=$?
grep -q "holds 1 cell not in the matrix of .*: resume-0badce11" "$tmp/err"
is "$rc $? $(q "$tmp/f.db" "SELECT count(*) FROM cell")" "2 0 $(q "$db" "SELECT count(*) FROM cell")" \
	"--resume of a run with a cell outside the matrix: exit 2, naming the cell" || sed 's/^/# /' "$tmp/err"
# --resume with nothing to resume starts a run
$CVMBENCH run "$tmp/r.ini" --db "$tmp/new.db" --resume 2>"$tmp/err"
grep -q "to resume: starting one" "$tmp/err"
is "$? $(q "$tmp/new.db" "SELECT status FROM run")" "0 complete" "--resume into an empty database: a new run"
