#!/bin/bash
# tests/bench/counter-cost.sh - what the tracepoint-counter engine
# (tracing/tpcount.c, used by the vmexit probe) costs, per counted event
# and per window: `cvmbench calibrate cost` REPEATS times (as root), each
# printing the getpid rate of one thread with no counter and with 1, 8 and
# 40 filtered counters on raw_syscalls:sys_enter (the ns each counted event
# adds), the trace-stream method (1 and 40 values) and the bpf method (1,
# 40, 200 values), then enable / read / disable of K values x T threads. Not part of
# `make check`; the figures are in docs/performance.md.
#
#   tests/bench/counter-cost.sh [REPEATS [CALLS]]     (defaults: 3 200000)
#   PIN=CPU tests/bench/counter-cost.sh               on one CPU
#
# The machine is shared: read the medians of the repeats, not one run.
set -eu
cd "$(dirname "$0")/../.."
reps=${1:-3} calls=${2:-200000}
CVMBENCH=${CVMBENCH:-./cvmbench}
pin=()
[ -n "${PIN:-}" ] && pin=(taskset -c "$PIN")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((r = 0; r < reps; r++)); do
	"${pin[@]}" "$CVMBENCH" calibrate cost --calls "$calls" --wait-lock 300 | tee "$tmp/$r"
done
echo "median over $reps repeats, ns added per counted event:"
for v in "1 counter, no filter" "1 counter, id == getpid" "40 counters, one id each" \
	 "8 counters, 5 ids or'ed each" "1 counter, 40 ids or'ed" \
	 "stream, 1 id" "stream, 40 ids" "bpf, 1 id" "bpf, 40 ids" "bpf, 200 ids"; do
	grep -h -F "getpid, $v " "$tmp"/* | grep -v 'not measured' |
		sed 's/.*ns\/call *\([-+0-9.]*\) ns.*/\1/' |
		sort -g | awk -v v="$v" '{ a[NR] = $1 } END { printf "  %-32s %s\n", v, a[int((NR + 1) / 2)] }'
done
