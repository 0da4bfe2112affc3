#!/bin/bash
# tests/system/journal-lock.t - one machine-wide lock on host settings
# (/run/cvmbench.lock, issue 9): while a run holds it, a second run with
# another state directory is refused at once with exit 2, naming the
# holder's PID and creating no database; --wait-lock waits that long, then
# refuses, or goes on once the holder ends; `restore` is refused the same
# way; the read-only commands (list, env, show, export, report, plot) work.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=15
plan $N
why=
[ "$(id -u)" = 0 ] || why="needs root (the lock is in /run)"
[ -z "$why" ] && ! command -v sqlite3 >/dev/null && why="no sqlite3"
if [ -n "$why" ]; then skip_rest $N "$why"; exit 0; fi

tmp=$(mktemp -d)
holder=
trap '[ -n "$holder" ] && kill $holder 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
export CVMBENCH_DATA_DIR=$tmp/data
# the holder starts a process per call (cold): a few hundred rows, not the warm
# loop's 40 000 a second that made show and report of its database take a minute
printf '[experiment hold]\nworkload = hello-world\nmode = cold\ninvocations = 1000000\nwarmup = 0\n' > "$tmp/long.ini"
printf '[experiment short]\nworkload = null\ninvocations = 2\n' > "$tmp/short.ini"
ms() { date +%s%3N; }

# the holder waits for other people's runs (tap.sh's CVMBENCH_TEST_WAIT_LOCK);
# the runs below must not: they test the refusal
CVMBENCH_STATE_DIR=$tmp/a ./cvmbench run "$tmp/long.ini" --db "$tmp/a.db" 2>"$tmp/a.err" &
holder=$!
unset CVMBENCH_TEST_WAIT_LOCK
for ((i = 0; i < 12000; i++)); do
	[ "$(sqlite3 "$tmp/a.db" "SELECT count(*) FROM invocation" 2>/dev/null)" -gt 0 ] 2>/dev/null && break
	sleep 0.05
done
ok "$i" -lt 12000 "a run holds the host lock (pid $holder)"

CVMBENCH_STATE_DIR=$tmp/b ./cvmbench run "$tmp/short.ini" --db "$tmp/b.db" 2>"$tmp/b.err"
is "$?" 2 "a second run with another state directory is refused (exit 2)"
grep -q "pid $holder" "$tmp/b.err"
is "$?" 0 "the refusal names the holder's PID" || sed 's/^/# /' "$tmp/b.err"
ok ! -e "$tmp/b.db" "the refused run created no database"

t0=$(ms)
CVMBENCH_STATE_DIR=$tmp/b ./cvmbench run "$tmp/short.ini" --db "$tmp/b.db" --wait-lock 1 2>/dev/null
rc=$?; t=$(($(ms) - t0))
ok "$rc/$((t >= 1000))" = "2/1" "--wait-lock 1 waits a second ($t ms), then refuses"

CVMBENCH_STATE_DIR=$tmp/b ./cvmbench restore >/dev/null 2>"$tmp/r.err"
rc=$?; grep -q "pid $holder" "$tmp/r.err"
is "$rc/$?" "2/0" "restore is refused too, naming the holder"

# Read-only commands never take the lock.
ro() { timeout 60 ./cvmbench "$@" >/dev/null 2>&1; local rc=$?; [ $rc = 0 ] || [ $rc = 3 ]; }
ro list; is "$?" 0 "list works while the lock is held"
ro env; is "$?" 0 "env works while the lock is held"
ro show --db "$tmp/a.db"; is "$?" 0 "show works while the lock is held"
ro export --csv --db "$tmp/a.db" --out "$tmp/csv"; is "$?" 0 "export works while the lock is held"
ro report "$tmp/rep" --db "$tmp/a.db"; is "$?" 0 "report works while the lock is held"
ro plot --list; is "$?" 0 "plot works while the lock is held"

# Ctrl-C while waiting for the lock ends the wait at once: exit 130, no
# database (the signal is sent once the waiter has the lock file open)
CVMBENCH_STATE_DIR=$tmp/c ./cvmbench run "$tmp/short.ini" --db "$tmp/c.db" --wait-lock 60 \
	2>"$tmp/c.err" & waiter=$!
for i in $(seq 300); do
	ls -l /proc/$waiter/fd 2>/dev/null | grep -q cvmbench.lock && break
	sleep 0.1
done
t0=$(date +%s%N)
kill -INT $waiter; wait $waiter; rc=$?
t=$((($(date +%s%N) - t0) / 1000000))
ok "$rc/$((t < 5000))/$([ -e "$tmp/c.db" ]; echo $?)" = "130/1/1" \
	"SIGINT while waiting for the lock: exit 130 after $t ms, no database made" ||
	sed 's/^/# /' "$tmp/c.err"

# A waiting run goes on once the holder ends.
CVMBENCH_STATE_DIR=$tmp/b ./cvmbench run "$tmp/short.ini" --db "$tmp/b.db" --wait-lock 60 \
	2>"$tmp/w.err" & waiter=$!
sleep 0.5
kill -INT $holder; wait $holder; holder=
wait $waiter
is "$?" 0 "a run waiting with --wait-lock 60 runs once the holder ends" ||
	sed 's/^/# /' "$tmp/w.err"
ok ! -e /run/cvmbench.lock "no host lock file is left once the last run has ended"
