#!/bin/bash
# tests/system/study.t - `cvmbench study` end to end on a tiny study of two
# native configs (tests/fixtures/study/tiny.list), checked with sqlite3:
# one run per config in one database and one report of both runs (each
# run's figures, the skips with their reason, each run and its config named
# in the summary); killed (kill -9) in the middle of its second config after
# the first config's rows are stored, the same command completes it without
# measuring a stored cell again (rows counted before and after), and a third
# time measures nothing. The poll cells are skipped for the captured machine
# without a cpuidle driver (CVMBENCH_SYSROOT), on any machine. Also
# `report --run all` and several --run against the old one-run report, and
# a list naming a missing config (exit 2, file and line).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=18
plan $N
command -v sqlite3 >/dev/null || skip_all $N "no sqlite3"
[ -x "$CVMBENCH" ] || skip_all $N "no $CVMBENCH (make)"
command -v gnuplot >/dev/null || skip_all $N "no gnuplot (the report draws its figures)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock
export CVMBENCH_SYSROOT=$PWD/tests/fixtures/machines/B-pvm-no-cpuidle/root
q() { sqlite3 -batch -noheader "$1" "$2"; }
LIST=tests/fixtures/study/tiny.list
WARM=tests/fixtures/study/warm.ini IDLE=tests/fixtures/study/idle.ini
INV=600           # idle.ini's invocations per cell
cur="SELECT * FROM cell WHERE id IN (SELECT max(id) FROM cell GROUP BY run_id, cell_key)"

# 1. the whole study into an empty database
$CVMBENCH study $LIST --db "$tmp/s.db" --out "$tmp/rep" 2>"$tmp/err"
is "$? $(q "$tmp/s.db" "SELECT group_concat(id || ':' || config_path || ':' || status, ' ') FROM run")" \
	"3 1:$WARM:complete 2:$IDLE:partial" \
	"a run per config, in the list's order; exit 3 for the skipped poll cells" || sed 's/^/# /' "$tmp/err"
is "$(q "$tmp/s.db" "SELECT run_id || ':' || status || ':' || count(*) FROM cell GROUP BY run_id, status ORDER BY run_id, status")" \
	"$(printf '1:ok:2\n2:ok:4\n2:skipped:4')" "cells: 2 ok of warm.ini; 4 ok, 4 skipped of idle.ini"
ls "$tmp/rep" > "$tmp/files"
is "$(grep -c '^warm-latency-run[12]\.\(png\|svg\)$' "$tmp/files")" 4 \
	"the report draws warm-latency for each run (warm-latency-run1, -run2: .png and .svg)"
md=$tmp/rep/index.md
is "$(grep -cE "^\| (1 \| $WARM|2 \| $IDLE) \| " "$md")" 2 "its summary names each run and its config"
is "$(grep -c '^### warm-latency (run [12])$' "$md")" 2 "its Figures section has both runs' figures"
reason=$(q "$tmp/s.db" "SELECT reason FROM skip s JOIN cell c ON c.id = s.cell_id WHERE c.run_id = 2 LIMIT 1")
# Markdown escapes the reason's underscores
skips=$(awk '/^## Run 2: /{r=1} r && /^### Skips/{s=1; next} s && /^### /{exit} s && /^\| tiny-idle-/' "$md" |
	grep -F "$(printf '%s' "$reason" | sed 's/_/\\_/g')" | cut -d' ' -f2 | sort | tr '\n' ' ')
is "$skips" "$(q "$tmp/s.db" "SELECT cell_key FROM cell WHERE run_id = 2 AND status = 'skipped' ORDER BY cell_key" | tr '\n' ' ')" \
	"run 2's Skips list its skipped cells, each with the stored reason ($(echo "$reason" | cut -c1-30)...)"
ok "$(grep -c '^| idle = poll: no cpuidle driver.* | skip | 4 |$' "$md")" -eq 1 "the summary counts the skip reason once, for its 4 cells"

# 2. killed in the middle of the second config, then the same command again
db=$tmp/k.db
$CVMBENCH -q study $LIST --db "$db" --out "$tmp/krep" >/dev/null 2>"$tmp/kill.err" &
pid=$!
for ((w = 0; w < 3000; w++)); do
	# (sqlite3 would create an empty file before cvmbench does)
	[ -s "$db" ] && [ "$(q "$db" "SELECT count(*) FROM cell WHERE run_id = 2 AND status = 'ok'" 2>/dev/null)" -ge 1 ] 2>/dev/null && break
	sleep 0.01
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
before1=$(q "$db" "SELECT status || ' ' || (SELECT count(*) FROM cell WHERE run_id = 1) || ' ' || (SELECT count(*) FROM invocation i JOIN cell c ON c.id = i.cell_id WHERE c.run_id = 1) FROM run WHERE id = 1")
okids=$(q "$db" "SELECT group_concat(id) FROM (SELECT id FROM cell WHERE run_id = 2 AND status = 'ok' ORDER BY id)")
is "$(q "$db" "SELECT count(*) || ' ' || group_concat(status) FROM run") ${before1%% *}" "2 complete,running complete" \
	"killed in idle.ini: warm.ini's run complete, idle.ini's left running"
$CVMBENCH study $LIST --db "$db" --out "$tmp/krep" 2>"$tmp/err"
rc=$?
after1=$(q "$db" "SELECT status || ' ' || (SELECT count(*) FROM cell WHERE run_id = 1) || ' ' || (SELECT count(*) FROM invocation i JOIN cell c ON c.id = i.cell_id WHERE c.run_id = 1) FROM run WHERE id = 1")
is "$rc $(q "$db" "SELECT count(*) || ' ' || group_concat(status) FROM run")" "3 2 complete,partial" \
	"the rerun completes the study: still 2 runs, idle.ini's run partial" || sed 's/^/# /' "$tmp/err"
is "$after1" "$before1" "warm.ini's run untouched: its cells and calls counted alike ($after1)"
is "$(q "$db" "SELECT group_concat(id) FROM (SELECT id FROM ($cur) WHERE run_id = 2 AND id IN (${okids:-0}) ORDER BY id)")" "$okids" \
	"idle.ini's cells stored ok before the kill are kept, not measured again (ids $okids)"
is "$(q "$db" "SELECT count(*) || ' ' || sum(status = 'ok') || ' ' || sum(status = 'ok' AND (SELECT count(*) FROM invocation i WHERE i.cell_id = c.id AND i.phase = 'measured') = $INV) FROM ($cur) c WHERE run_id = 2")" \
	"8 4 4" "idle.ini's run: 8 current cells, 4 ok each with $INV measured calls"
grep -q 'warm.ini: run 1 is complete: kept' "$tmp/err"
is "$? $(ls "$tmp/krep" | grep -c '^warm-latency-run[12]\.png$')" "0 2" "the rerun says warm.ini is kept, and reports both runs"

# 3. once more: nothing is measured
rows="SELECT (SELECT count(*) FROM run) || ' ' || (SELECT count(*) FROM cell) || ' ' || (SELECT count(*) FROM invocation)"
was=$(q "$db" "$rows")
$CVMBENCH study $LIST --db "$db" --out "$tmp/krep" 2>"$tmp/err"
is "$? $(q "$db" "$rows")" "3 $was" "a finished study run again measures nothing (runs, cells, calls: $was)"
is "$($CVMBENCH study $LIST --db "$db" --list 2>/dev/null | awk '{print $1, $2, $3, $4}' | tr '\n' ';')" \
	"done run 1 (complete);done run 2 (partial);" "study --list: what the database holds of each config"

# 4. report: --run all and several --run, the one-run default unchanged
$CVMBENCH report "$tmp/all" --db "$tmp/s.db" --run all >/dev/null 2>&1
$CVMBENCH report "$tmp/two" --db "$tmp/s.db" --run 1 --run 2 >/dev/null 2>&1
is "$(grep -c '^## Run [12]: ' "$tmp/all/index.md") $(diff <(ls "$tmp/all") <(ls "$tmp/two") && echo same)" "2 same" \
	"report --run all: a section per run; --run 1 --run 2 draws the same files"
$CVMBENCH report "$tmp/one" --db "$tmp/s.db" >/dev/null 2>&1
is "$? $(ls "$tmp/one" | grep -c '^warm-latency\.png$') $(grep -c '^## Run [0-9]*: ' "$tmp/one/index.md") $(grep -c '^## Cells$' "$tmp/one/index.md")" \
	"0 1 0 1" "report without --run: the latest run alone, as before (warm-latency.png, one Cells section)"

# 5. a list naming a config that is not there
printf 'warm.ini\n# a comment\nnone.ini\n' > "$tmp/bad.list"
cp $WARM "$tmp/"
$CVMBENCH study "$tmp/bad.list" --db "$tmp/b.db" 2>"$tmp/err"
is "$? $(grep -c "bad.list:3: none.ini: no such config" "$tmp/err") $([ -e "$tmp/b.db" ] && echo db)" "2 1 " \
	"a list naming a missing config: exit 2 naming the list, line and value, nothing run"
