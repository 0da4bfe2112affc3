#!/bin/bash
# tests/system/corunner-kind.t - the co-runner's kinds and placement: a
# `cache` co-runner holds a buffer the size of the L3 that `cvmbench env`
# reports (its VmRSS, /proc), a `memory` one several times that; with
# corunner-pin = core its CPUs (Cpus_allowed_list) are core 0's as the
# kernel lists them; it is gone after the cell with an empty journal, and
# after kill -9 of the run and `cvmbench restore`; a cache the machine
# lacks is a skipped cell naming the co-runner.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap '$CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data

N=8
plan $N
$CVMBENCH env 2>/dev/null | grep -q '^topology.hwloc .*built without' &&
	skip_all $N "built without hwloc"
# skipped_cell KEYS LIKE TEXT: a one-cell run with a co-runner and KEYS (printf
# escapes) is skipped (exit 3) with one skip row whose reason is LIKE the pattern
skipped_cell() {
	local rc
	printf "[experiment sk]\nworkload = null\ninvocations = 2\nwarmup = 0\ncorunner = 1\n$1" > "$tmp/sk.ini"
	rm -f "$tmp/sk.db"
	$CVMBENCH run "$tmp/sk.ini" --db "$tmp/sk.db" --wait-lock 600 2>/dev/null; rc=$?
	is "$rc $(sqlite3 "$tmp/sk.db" "SELECT count(*) FROM skip WHERE reason LIKE '$2'")" "3 1" "$3"
}
l3=$($CVMBENCH env 2>/dev/null | awk '$1 == "topology.cache.l3" && $2 != "none" { print $2 }')
[ -n "$l3" ] || l3=$($CVMBENCH env 2>/dev/null | awk '$1 == "topology.cache.l2" && $2 != "none" { print $2 }')
if [ -z "$l3" ]; then    # a machine capability: a skip (also under CI), the cell skipped
	skipped_cell 'corunner-kind = cache\n' 'corunner-kind = cache: hwloc knows no L2 or L3 cache here%' \
		"no L2/L3 known: a corunner-kind = cache cell is skipped, saying so"
	skip_rest $((N - 1)) "hwloc knows no L2 or L3 cache here"
	exit 0
fi

ini() {
	cat > "$tmp/$1.ini" <<INI
[experiment $1]
workload = null
corunner = 1
corunner-kind = $2
corunner-pin = ${3:-none}
invocations = 200000
wait = block
warmup = 0
INI
}
# start a run of $1.ini; sets run (its pid) and co (the co-runner's pid)
start() {
	$CVMBENCH run "$tmp/$1.ini" --db "$tmp/$1.db" --wait-lock 600 2>"$tmp/$1.err" & run=$!
	co=
	for _ in $(seq 600); do
		co=$(ps -o pid=,comm= --ppid "$run" 2>/dev/null | awk '$2 == "cvmbench" { print $1; exit }')
		[ -n "$co" ] && grep -q '^VmRSS' /proc/$co/status 2>/dev/null && break
		sleep 0.05
	done
}
# alive while it exists and is not a zombie (a killed run's child waits to be reaped)
running() {
	local st
	[ -n "$1" ] || { echo "never seen running"; return; }
	st=$(ps -o stat= -p "$1" 2>/dev/null)
	[ -n "$st" ] && [ "${st#Z}" = "$st" ] && echo alive || echo gone
}
rss_kb() { sleep 1; awk '/^VmRSS/ { print $2 }' /proc/$1/status 2>/dev/null; }

ini cache cache core
start cache
rss=$(rss_kb "$co"); cpus=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/$co/status)
kill -INT "$run"; wait "$run"
echo "# L3 (hwloc): $l3 KiB; cache co-runner VmRSS $rss kB"
ok "$(awk -v r="${rss:-0}" -v l="$l3" 'BEGIN { print (r >= 0.95 * l && r <= l + 16384) }')" = 1 \
	"a cache co-runner holds about the L3's size ($l3 KiB): VmRSS $rss kB"
first=$(first_cpu)    # the tool's core 0: the first CPU of the cgroup's cpuset
is "$cpus" "$(cat /sys/devices/system/cpu/cpu$first/topology/thread_siblings_list)" \
	"corunner-pin = core: on the cpuset's first core's CPUs (cpu$first) as the kernel lists them"
is "$(running "$co")/$(wc -c < "$tmp/state/journal")" "gone/0" \
	"gone after the cell (Ctrl-C), the journal empty"

ini memory memory
start memory
rss=$(rss_kb "$co")
echo "# memory co-runner VmRSS $rss kB"
ok "$(awk -v r="${rss:-0}" -v l="$l3" 'BEGIN { print (r >= 4 * l) }')" = 1 \
	"a memory co-runner streams over several times the L3 ($rss kB)"
kill -9 "$run"; wait "$run" 2>/dev/null
$CVMBENCH restore --wait-lock 600 >"$tmp/restore.out" 2>&1; rc=$?
sed 's/^/# /' "$tmp/restore.out"
is "$rc/$(running "$co")" "0/gone" \
	"after kill -9 of the run and restore the co-runner is gone"
is "$(wc -c < "$tmp/state/journal")" 0 "and the journal is empty"

skipped_cell 'corunner-kind = cache\ncorunner-pin = llc:42\n' 'llc:42: this machine has % (co-runner)' \
	"a co-runner on a cache the machine lacks: the cell is skipped, saying so"
is "$(wc -c < "$tmp/state/journal")" 0 "a skipped co-runner leaves no journal entry"
