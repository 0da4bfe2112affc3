#!/bin/bash
# tests/system/harness.t - cvmbench run end to end on the native backend:
# quick.ini into a fresh database, checked with SQL; --only; bad input
# (config, database path, newer schema, a cvmfn that crashes, Ctrl-C),
# each with its exit code and with the rows already measured kept.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
db=$tmp/r.db
q() { sqlite3 "$db" "$@"; }

plan 27

cat > "$tmp/h.ini" <<'INI'
[defaults]
size = test
probes = latency, null
[experiment harness]
workload = null, hello-world
threads = 1, 2
invocations = 25
warmup = 3
INI
$CVMBENCH run "$tmp/h.ini" --db "$db" 2>"$tmp/err"; rc=$?
is "$rc" 0 "run exits 0 when every cell was measured"
is "$(q "SELECT status, cells_total, cells_ok FROM run")" "complete|4|4" "run row is complete with 4 cells"
is "$(q "SELECT count(*) FROM cell WHERE status = 'ok'")" 4 "every cell ok"
is "$(q "SELECT count(DISTINCT cell_id) FROM invocation GROUP BY phase ORDER BY phase" | tr '\n' ' ')" "4 4 " "measured and warm-up calls in every cell"
is "$(q "SELECT DISTINCT count(*) FROM invocation WHERE phase = 'measured' GROUP BY cell_id")" 25 "25 measured calls per cell"
is "$(q "SELECT DISTINCT count(*) FROM invocation WHERE phase = 'warmup' GROUP BY cell_id")" 3 "3 warm-up calls per cell"
is "$(q "SELECT count(*) FROM (SELECT cell_id FROM invocation GROUP BY cell_id HAVING count(DISTINCT digest) = 1)")" 4 "one digest per cell"
is "$(q "SELECT count(*) FROM invocation WHERE digest IS NOT NULL AND digest_ns > 0")" 112 "every call's digest and its hashing time stored (4 cells x 28)"
is "$(q "SELECT count(DISTINCT i.digest) FROM invocation i JOIN cell c ON c.id = i.cell_id WHERE c.workload = 'hello-world'")" 1 "same digest at 1 and 2 threads"
is "$(q "SELECT DISTINCT CAST(value AS INTEGER) FROM metric WHERE probe = 'null' AND name = 'windows_started'")" 25 "null probe saw exactly the 25 measured windows"
is "$(q "SELECT count(*) FROM metric WHERE probe = 'latency' AND name = 'samples' AND value = 25")" 4 "latency summary over 25 samples per cell"
ok "$(q "SELECT count(*) FROM invocation WHERE latency_ns < fn_ns OR latency_ns <= 0")" = 0 "round trip is never shorter than the function time"
ok "$(q "SELECT count(*) FROM environment WHERE key IN ('cpu.vendor','kernel.release','cvm.type','cpuidle.driver')")" = 4 "environment captured"
ok "$(q "SELECT count(*) FROM cell_param WHERE key = 'threads'")" = 4 "every key stored per cell"

key=$(q "SELECT cell_key FROM cell WHERE workload = 'hello-world' AND threads = 2")
$CVMBENCH run "$tmp/h.ini" --db "$db" --only "$key" 2>/dev/null
is "$(q "SELECT count(*) || ' ' || group_concat(cells_total) FROM run") $(q "SELECT count(*) FROM cell WHERE cell_key = '$key'")" "1 4 2" "--only re-runs one cell by its key, into the same run (resume.t)"

# --digest: which calls are hashed is a run option; cell keys stay the same
$CVMBENCH run "$tmp/h.ini" --db "$tmp/d.db" --digest 10 2>/dev/null
is "$(sqlite3 "$tmp/d.db" "SELECT count(*) FROM invocation WHERE digest IS NOT NULL")" 12 \
	"--digest 10: calls 0, 10, 20 of 28 hashed in each of 4 cells"
is "$(sqlite3 "$tmp/d.db" "SELECT count(*) FROM invocation WHERE digest IS NULL AND digest_ns IS NULL")" 100 \
	"the other 100 calls have neither digest nor hash time"
is "$(sqlite3 "$tmp/d.db" "SELECT group_concat(cell_key) FROM (SELECT cell_key FROM cell ORDER BY cell_key)")" \
	"$(q "SELECT group_concat(cell_key) FROM (SELECT DISTINCT cell_key FROM cell WHERE run_id = 1 ORDER BY cell_key)")" \
	"--digest leaves the cell keys unchanged"
$CVMBENCH run "$tmp/h.ini" --db "$tmp/d2.db" --digest 0 2>"$tmp/err"; rc=$?
is "$rc $(ls "$tmp/d2.db" 2>/dev/null)" "2 " "--digest 0: usage error, exit 2, no database made"

printf '[experiment x]\nworkload = nope\n' > "$tmp/bad.ini"
$CVMBENCH run "$tmp/bad.ini" --db "$tmp/bad.db" 2>"$tmp/err"; rc=$?
ok "$rc" = 2 "unknown workload: exit 2"
grep -q "bad.ini:2: unknown workload 'nope'" "$tmp/err"; ok $? = 0 "and the message names file, line and value"

$CVMBENCH run "$tmp/h.ini" --db /nonexistent/dir/r.db 2>"$tmp/err"; rc=$?
ok "$rc" = 2 "unwritable database path: exit 2 ($(head -c 80 "$tmp/err"))"

sqlite3 "$tmp/new.db" "PRAGMA user_version = 999; CREATE TABLE run (x); CREATE TABLE cell (x); CREATE TABLE invocation (x);"
$CVMBENCH run "$tmp/h.ini" --db "$tmp/new.db" 2>"$tmp/err"; rc=$?
grep -q "written by a newer cvmbench" "$tmp/err"; ok "$rc.$?" = "2.0" "newer schema refused with exit 2"

# A cvmfn that serves, then crashes on its third call: the cell fails,
# the calls before the crash are kept, the run is marked failed.
cat > "$tmp/crashing-cvmfn" <<'SH'
#!/bin/bash
[ "$1" = prepare ] && exit 0
echo "ready pid=$$ init_ns=1 rss_kb=1 pss_kb=1 threads=1"
while read -r cmd seq; do
	[ "$seq" = 2 ] && kill -SEGV $$
	echo "done $seq ok=1 fn_ns=1000"
	echo "digest $seq sha256=$(printf '0%.0s' {1..64}) digest_ns=10"
done
SH
chmod +x "$tmp/crashing-cvmfn"
printf '[experiment c]\nworkload = null\nwarmup = 0\ninvocations = 5\n' > "$tmp/c.ini"
$CVMBENCH run "$tmp/c.ini" --db "$tmp/c.db" --cvmfn "$tmp/crashing-cvmfn" 2>"$tmp/err"; rc=$?
is "$rc $(sqlite3 "$tmp/c.db" "SELECT status FROM run; SELECT count(*) FROM invocation WHERE ok = 1;" | tr '\n' ' ')" "1 failed 2 " "crashing cvmfn: exit 1, run failed, the 2 calls before it kept"
grep -q "signal 11" "$tmp/err"; ok $? = 0 "and the error says how the instance died"

# Ctrl-C in the middle of a long cell.
printf '[experiment long]\nworkload = null\ninvocations = 1000000\n' > "$tmp/long.ini"
$CVMBENCH run "$tmp/long.ini" --db "$tmp/l.db" 2>/dev/null &
pid=$!
# into the cell first, past 100 stored calls: on a busy machine (or under
# ASan) the start alone can take longer than any fixed sleep
seen=0
for i in $(seq 600); do
	seen=$(sqlite3 "$tmp/l.db" "SELECT count(*) FROM invocation" 2>/dev/null)
	[ "${seen:-0}" -gt 100 ] 2>/dev/null && break
	sleep 0.1
done
kill -INT $pid
wait $pid; rc=$?
is "$rc $(sqlite3 "$tmp/l.db" "SELECT status FROM run; SELECT status FROM cell;" | tr '\n' ' ')" "130 interrupted interrupted " "SIGINT: exit 130, run and cell marked interrupted"
kept=$(sqlite3 "$tmp/l.db" "SELECT count(*) FROM invocation")
[ "${seen:-0}" -gt 100 ] || seen=101   # not reached in 60 s: still ask for 101
ok "$kept" -ge "$seen" "and the calls stored before it are kept ($seen seen before the signal, $kept after)"
