#!/bin/bash
# tests/bench/harness-cost.sh - what the harness itself costs a warm call:
# the null workload with probes = latency and only the first call hashed
# (--digest first), p50 of N calls, against a raw one-byte pipe ping-pong
# between two processes (tests/bench/pingpong.c) run right before and right
# after it. Target (issue 11): ratio <= 1.1. Then the system calls per round
# trip of both, counted with strace -f -c over 2000 calls / rounds.
# Not part of `make check`.
#
#   tests/bench/harness-cost.sh [REPEATS [N]]      (defaults: 5 20000)
#   PIN=CPU tests/bench/harness-cost.sh            both programs on one CPU
#
# Prints one line per repeat and the minimum and median of the ratios:
# the machine is shared, so read the minimum/median, not one run.
set -eu
cd "$(dirname "$0")/../.."
reps=${1:-5} n=${2:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
CVMBENCH=${CVMBENCH:-./cvmbench}
pin=()
[ -n "${PIN:-}" ] && pin=(taskset -c "$PIN")
${CC:-cc} -O2 -Wall -o "$tmp/pingpong" tests/bench/pingpong.c

cell() {
	printf '[experiment harness-cost]\nworkload = null\nprobes = latency\nwarmup = 200\ninvocations = %s\n' "$1" >"$tmp/c.ini"
}
pp() { "${pin[@]}" "$tmp/pingpong" "$n" | sed 's/.*p50_ns=\([0-9]*\).*/\1/'; }
run() {
	rm -f "$tmp/r.db"*
	"${pin[@]}" "$CVMBENCH" -q run "$tmp/c.ini" --db "$tmp/r.db" --digest first --wait-lock 600 >/dev/null
	sqlite3 "$tmp/r.db" "SELECT CAST(value AS INTEGER) FROM metric WHERE name = 'round_trip_median'"
}

cell "$n"
echo "repeat  pingpong_before_ns  harness_p50_ns  pingpong_after_ns  ratio"
ratios=()
for ((i = 0; i < reps; i++)); do
	a=$(pp); h=$(run); b=$(pp)
	r=$(awk -v h="$h" -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", 2 * h / (a + b) }')
	ratios+=("$r")
	echo "$i  $a  $h  $b  $r"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END {
	printf "ratio min %.3f median %.3f (target <= 1.1)\n", v[1], (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'

# System calls per round trip (the protocol's: read, write, poll and kin)
if ! command -v strace >/dev/null; then
	echo "no strace: system calls not counted"
	exit 0
fi
proto=read,write,poll,ppoll,select,pselect6,epoll_wait,epoll_pwait
calls() {   # total of the strace -c summary in $1
	awk '$NF == "total" { print $4 }' "$1"
}
strace -f -c -o "$tmp/pp.st" -e trace=$proto "$tmp/pingpong" 2000 >/dev/null
cell 2000
sed -i 's/^warmup = 200/warmup = 0/' "$tmp/c.ini"
rm -f "$tmp/r.db"*
strace -f -c -o "$tmp/h.st" -e trace=$proto "$CVMBENCH" -q run "$tmp/c.ini" --db "$tmp/r.db" --digest first --wait-lock 600 >/dev/null
rm -f "$tmp/r.db"*
strace -f -c -o "$tmp/all.st" "$CVMBENCH" -q run "$tmp/c.ini" --db "$tmp/r.db" --digest first --wait-lock 600 >/dev/null
awk -v p="$(calls "$tmp/pp.st")" -v h="$(calls "$tmp/h.st")" -v all="$(calls "$tmp/all.st")" 'BEGIN {
	printf "protocol system calls per round trip (read/write/poll...): ping-pong %.2f, harness %.2f\n", p / 2000, h / 2000
	printf "all system calls of the run per call (incl. SQLite row writes between calls, start-up): %.1f\n", all / 2000 }'
grep -E ' (read|write|poll)$' "$tmp/h.st" | awk '{ printf "  harness %s: %d (%.2f per call)\n", $NF, $4, $4 / 2000 }'
