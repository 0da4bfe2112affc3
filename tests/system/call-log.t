#!/bin/bash
# tests/system/call-log.t - a kill -9 loses only the call in flight, although
# invocation rows reach the database in batches (bench/store/call-log.c). A
# stand-in cvmfn writes down every call it answers, an independent count;
# cvmbench is killed with rows still in its call log (fewer than a batch),
# then after some batches were written. `cvmbench restore`, or the next run,
# must bring the database to every answered call (the call in flight may be
# missing: answered, not yet logged), each seq once, and remove the log.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
# rows are folded by count only (not also every second): the kills find them in the log
export CVMBENCH_TEST_FOLD_S=3600

plan 10
command -v sqlite3 >/dev/null || skip_all 10 "no sqlite3"

# Serves forever; each answered call's seq goes to $ANSWERED first.
cat > "$tmp/counting-cvmfn" <<'SH'
#!/bin/bash
[ "$1" = prepare ] && exit 0
echo "ready pid=$$ init_ns=1 rss_kb=1 pss_kb=1 threads=1"
while read -r cmd seq; do
	[ "$cmd" = invoke ] || exit 0
	echo "$seq" >> "$ANSWERED"
	[ "$seq" -ge "${SLOW_AFTER:-999999999}" ] && sleep 0.02
	echo "done $seq ok=1 fn_ns=1000"
	echo "digest $seq none"
done
SH
chmod +x "$tmp/counting-cvmfn"
printf '[experiment k]\nworkload = null\nwarmup = 0\ninvocations = 1000000\n' > "$tmp/k.ini"

# Start a run into $1, answered calls into $2; kill -9 it once $3 were
# answered. Calls from the $3-th on take 20 ms (all within one batch).
kill_after() {
	: > "$2"
	ANSWERED=$2 SLOW_AFTER=${4:-} $CVMBENCH run "$tmp/k.ini" --db "$1" --cvmfn "$tmp/counting-cvmfn" \
		2>/dev/null &
	pid=$!
	for i in $(seq 1200); do
		[ "$(wc -l < "$2")" -ge "$3" ] && break
		sleep 0.05
	done
	kill -9 $pid
	wait $pid 2>/dev/null
	pid=
	sleep 0.3     # the stand-in sees its end of file and exits
}
# "rows distinct-seqs max-seq" of the database $1
rows() { sqlite3 "$1" "SELECT count(*), count(DISTINCT seq), coalesce(max(seq), -1) FROM invocation" | tr '|' ' '; }
# Whether rows "$1" account for $2 answered calls: all of them, or all but the one in flight.
complete() {
	local n d m
	read -r n d m <<<"$1"
	[ "$n" = "$d" ] && [ "$m" = $((n - 1)) ] && { [ "$n" = "$2" ] || [ "$n" = $(($2 - 1)) ]; }
}

# 1. killed before its first batch: every row is in the log only.
kill_after "$tmp/a.db" "$tmp/a.ans" 200 200
ans=$(wc -l < "$tmp/a.ans")
before=$(rows "$tmp/a.db")
is "$before" "0 0 -1" "killed after $ans answered calls: no row in the database yet (they are in the call log)"
ok "$(ls "$tmp/state" | grep -c '^calls-')" = 1 "and the log is in the state directory"
$CVMBENCH restore >/dev/null 2>"$tmp/restore.err"
after=$(rows "$tmp/a.db")
complete "$after" "$ans"; ok $? = 0 "restore: every answered call has its row, once ($after for $ans answered)"
is "$(ls "$tmp/state" | grep -c '^calls-')" 0 "and the log is removed"
is "$(sqlite3 "$tmp/a.db" "SELECT status FROM run")" interrupted "and the run is marked interrupted"
$CVMBENCH restore >/dev/null 2>&1
is "$(rows "$tmp/a.db")" "$after" "a second restore changes nothing"

# 2. killed after some batches were written: folded and logged rows, no call twice.
kill_after "$tmp/b.db" "$tmp/b.ans" 2600
ans=$(wc -l < "$tmp/b.ans")
read -r n _ <<<"$(rows "$tmp/b.db")"
ok "$n" -ge 1024 "killed after $ans answered calls: the batches before it are in the database ($n rows)"
$CVMBENCH restore >/dev/null 2>&1
after=$(rows "$tmp/b.db")
complete "$after" "$ans"; ok $? = 0 "restore: every answered call has its row, once ($after for $ans answered)"

# 3. no restore: the next run recovers the killed one before it starts.
kill_after "$tmp/c.db" "$tmp/c.ans" 200 200
ans=$(wc -l < "$tmp/c.ans")
printf '[experiment n]\nworkload = null\nwarmup = 0\ninvocations = 5\n' > "$tmp/n.ini"
$CVMBENCH run "$tmp/n.ini" --db "$tmp/other.db" >/dev/null 2>&1
after=$(rows "$tmp/c.db")
complete "$after" "$ans"; ok $? = 0 "the next run (another database) folds the killed run's calls ($after for $ans answered)"
is "$(sqlite3 "$tmp/other.db" "SELECT count(*) FROM invocation")" 5 "and measures its own"
