#!/bin/bash
# tests/system/corunner.t - the co-runner is a knob of every backend: while
# a native cell with corunner = N runs, the kernel's process table shows a
# child of cvmbench (a fork, so named cvmbench, not cvmfn) with N threads
# spinning; after the cell it is gone and the journal is empty.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data

N=4
plan $N
cat > "$tmp/c.ini" <<INI
[experiment corunner]
workload = null
backend = native
corunner = 3
invocations = 20000
wait = block
warmup = 0
INI
$CVMBENCH run "$tmp/c.ini" --db "$tmp/r.db" 2>"$tmp/err" & run=$!
seen=
for _ in $(seq 200); do
	seen=$(ps -o pid=,comm=,nlwp=,stat= --ppid "$run" 2>/dev/null |
		awk '$2 == "cvmbench-corun" && $3 == 3 && $4 ~ /R/ { print $1; exit }')
	[ -n "$seen" ] && break
	sleep 0.05
done
wait "$run"; rc=$?
is "$rc" 0 "a native cell with corunner = 3 runs" || sed 's/^/# /' "$tmp/err"
ok "${#seen}" -gt 0 "a child of the run with 3 threads, running, beside the instance"
is "$([ -n "$seen" ] && [ -e "/proc/$seen" ] && echo alive || echo gone)" gone \
	"the co-runner ${seen:-?} is gone after the cell"
is "$(wc -c < "$tmp/state/journal")" 0 "the co-runner left no journal entry"
