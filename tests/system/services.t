#!/bin/bash
# tests/system/services.t - the system suite's services natively (issue 35,
# docs/experiments/system-suite.md): each tool runs two one-second windows
# as a cell. Checked against things the harness does not compute: each
# window's stored output is the tool's own text (its own summary line:
# redis-benchmark's "SET" row, wrk's Requests/sec, pgbench's tps, fio's JSON
# "jobs", sysbench's events or transferred lines); each window's wall time
# (latency_ns) is at least the one second the tool was asked to run and
# less than the call timeout; once the parsers are built in, each measured
# window has metric rows of its tool (else a SKIP naming why). After the
# cell nothing is left in TMPDIR and no server process holds the cell's
# directory. kill -9 of a run in mid-window leaves the service's directory
# (the proof that restore is what removes it); `cvmbench restore` then ends
# the server (by pid and by port) and leaves no file of it.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap '$CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data TMPDIR=$tmp/t
mkdir -p "$TMPDIR"
chmod 711 "$tmp" "$TMPDIR"      # PostgreSQL runs as its own user: it must reach TMPDIR

TOOLS="redis nginx-wrk nginx-open pgbench fio sysbench-cpu sysbench-memory"
N=$((7 * 5 + 9))
plan $N

# marker TOOL: a line the tool itself prints in each run's output
marker() {
	case $1 in
	redis) echo '"SET"' ;; nginx-wrk) echo 'Requests/sec:' ;; nginx-open) echo '' ;;
	pgbench) echo 'tps = ' ;; fio) echo '"jobs"' ;; sysbench-cpu) echo 'events per second:' ;;
	sysbench-memory) echo 'MiB transferred' ;;
	esac
}
# server processes whose command line names the test's TMPDIR
servers() { pgrep -f -- "$TMPDIR/cvmbench-svc-" | tr '\n' ' '; }

for t in $TOOLS; do
	printf "[experiment s]\nworkload = $t\ninvocations = 2\nwarmup = 0\nsvc-duration = 1\ntimeout = 60\n" > "$tmp/$t.ini"
	$CVMBENCH run "$tmp/$t.ini" --db "$tmp/$t.db" --wait-lock 600 >"$tmp/$t.log" 2>&1
	rc=$?
	skipped=$(sqlite3 "$tmp/$t.db" "SELECT reason FROM skip WHERE probe IS NULL" 2>/dev/null)
	if [ "$rc" = 3 ] && [ -n "$skipped" ]; then
		[ -n "${CI:-}" ] && [ "$t" != nginx-open ] && { _tap 1 "$t: skipped under CI: $skipped"; skip_rest 4 "$t"; continue; }
		skip_rest 5 "$t: $skipped"
		continue
	fi
	is "$rc" 0 "$t: the cell ran (exit 0)" || sed 's/^/#   /' "$tmp/$t.log" | tail -5
	# redis-benchmark runs a request count (10000 per second of svc-duration), not a time
	least=1e9; [ "$t" = redis ] && least=1
	is "$(sqlite3 "$tmp/$t.db" "SELECT count(*) FROM invocation WHERE phase = 'measured' AND ok = 1 AND latency_ns >= $least AND latency_ns < 61e9")" 2 \
		"$t: two windows, each at least the 1 s asked of the tool (redis: timed)"
	m=$(marker "$t")
	is "$(sqlite3 "$tmp/$t.db" "SELECT count(*) FROM service_output o JOIN invocation i ON i.id = o.invocation_id WHERE o.exit_status = 0 AND instr(o.output, '$m') > 0 AND length(o.output) > 100")" 2 \
		"$t: each window's output is the tool's own text ($m)"
	is "$(sqlite3 "$tmp/$t.db" "SELECT count(DISTINCT m.invocation_id) FROM metric m JOIN invocation i ON i.id = m.invocation_id WHERE i.phase = 'measured' AND m.probe = (SELECT value FROM cell_param WHERE key = 'svc.parser')")" 2 \
		"$t: each measured window has its tool's metrics"
	is "$(ls "$TMPDIR" | wc -l) [$(servers)]" "0 []" "$t: no file and no server left after the cell"
done

# a run of a function and a service: the service's windows are no latency
printf "[experiment m]\nworkload = hello-world, sysbench-cpu\ninvocations = 2\nwarmup = 0\nsvc-duration = 1\n" > "$tmp/m.ini"
$CVMBENCH run "$tmp/m.ini" --db "$tmp/m.db" --wait-lock 600 >"$tmp/m.log" 2>&1
$CVMBENCH plot warm-latency --db "$tmp/m.db" --out "$tmp/m.svg" >/dev/null 2>&1
is "$(grep -c '>hello-world' "$tmp/m.svg") $(grep -c 'sysbench' "$tmp/m.svg")" "1 0" \
	"mixed run: warm-latency draws the function, not the service's windows"
$CVMBENCH show --db "$tmp/m.db" --json > "$tmp/m.json" 2>/dev/null
is "$(python3 -c 'import json, sys
cells = {c["workload"]: c for c in json.load(open(sys.argv[1]))["run"]["cells"]}
s, f = cells["sysbench-cpu"], cells["hello-world"]
print(s["latency_ms"], s["window_ms"]["n"], f["latency_ms"]["n"])' "$tmp/m.json" 2>&1)" "None 2 2" \
	"... and the summary gives the service its windows (window_ms), no latency"

# kill -9 in mid-window, then restore: PostgreSQL (a server of its own user,
# a data directory of many files)
printf "[experiment k]\nworkload = pgbench\ninvocations = 5\nwarmup = 0\nsvc-duration = 5\n" > "$tmp/k.ini"
$CVMBENCH run "$tmp/k.ini" --db "$tmp/k.db" --wait-lock 600 >"$tmp/k.log" 2>&1 &
run=$!
pid=
for i in $(seq 1 600); do
	pid=$(pgrep -f -- "-D $TMPDIR/cvmbench-svc-.*/pg" | head -1)
	[ -n "$pid" ] && sqlite3 "$tmp/k.db" "SELECT 1 FROM invocation LIMIT 1" 2>/dev/null | grep -q 1 && break
	sleep 0.1
done
if [ -z "$pid" ]; then
	skip_rest 7 "no PostgreSQL server came up: $(tail -1 "$tmp/k.log")"
	exit 0
fi
port=$(tr '\0' ' ' < /proc/$pid/cmdline | sed -n 's/.* -p \([0-9]*\) .*/\1/p')
is "$([ -n "$port" ] && echo found)" found "the server's port read from its command line ($port)"
# PostgreSQL's System V segment (postmaster.pid line 7: key, id) outlives the
# killed server: only restore removes it
shmkey=$(sed -n 7p "$(ls -d "$TMPDIR"/cvmbench-svc-*)/pg/postmaster.pid" | awk '{ printf "0x%08x", $1 }')
kill -9 $run
wait $run 2>/dev/null
sleep 0.5
is "$(ls -d "$TMPDIR"/cvmbench-svc-* 2>/dev/null | wc -l)" 1 "after kill -9 the service's directory is still there"
$CVMBENCH restore >"$tmp/restore.log" 2>&1
is "$?" 0 "cvmbench restore succeeds"
for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null; is "$?" 1 "the server (pid $pid) is gone (its parent-death signal or restore)"
is "$(ipcs -m | awk -v k="$shmkey" '$1 == k' | wc -l)" 0 "its System V segment ($shmkey) is removed"
(exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; is "$?" 1 "nothing listens on 127.0.0.1:$port"
is "$(ls -A "$TMPDIR" | wc -l) [$(servers)]" "0 []" "no file of the service is left"
