#!/bin/bash
# tests/bench/counter-cost.sh - what the tracepoint-counter engine
# (tracing/tpcount.c, used by the vmexit probe) costs, per counted event
# and per window: `cvmbench calibrate cost` REPEATS times (as root), each
# printing the getpid rate of one thread with no counter and with 1, 8 and
# 40 filtered counters on raw_syscalls:sys_enter (the ns each counted event
# adds: the median of PAIRS interleaved counter-off / counter-on pairs of
# CALLS calls, with its interval, or "below the noise" when that holds 0),
# the trace-stream method (1 and 40 values) and the bpf method (1, 40, 200
# values), then enable / read / disable of K values x T threads. Not part of
# `make check`; the figures are in docs/performance.md.
#
#   tests/bench/counter-cost.sh [REPEATS [CALLS [PAIRS]]]   (defaults: 3 20000 21)
#   PIN=CPU tests/bench/counter-cost.sh                     on one CPU
#
# The machine is shared: each run's interval says what it resolves; the
# summary is the median over the runs of each run's median, and how many
# runs could not tell the cost from 0.
set -eu
cd "$(dirname "$0")/../.."
reps=${1:-3} calls=${2:-20000} pairs=${3:-21}
CVMBENCH=${CVMBENCH:-./cvmbench}
pin=()
[ -n "${PIN:-}" ] && pin=(taskset -c "$PIN")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((r = 0; r < reps; r++)); do
	"${pin[@]}" "$CVMBENCH" calibrate cost --calls "$calls" --pairs "$pairs" --wait-lock 300 | tee "$tmp/$r"
done
echo "median over $reps repeats, ns added per counted event:"
for v in "1 counter, no filter" "1 counter, id == getpid" "40 counters, one id each" \
	 "8 counters, 5 ids or'ed each" "1 counter, 40 ids or'ed" "2 counters, 40 + 160 ids or'ed" \
	 "stream, 1 id" "stream, 40 ids" "bpf, 1 id" "bpf, 40 ids" "bpf, 200 ids" \
	 "bpf, 40 ids as the vmexit probe"; do
	# the name padded as printed: "bpf, 40 ids" is not "bpf, 40 ids as the vmexit probe"
	grep -h -F "getpid, $(printf '%-31s' "$v") " "$tmp"/* | grep -v 'not measured' |
		sed -e 's/.*(median \([-+0-9.]*\) ns).*/\1 noise/' \
		    -e 's/.*ns\/call *\([-+0-9.]*\) ns per counted event.*/\1/' |
		sort -g | awk -v v="$v" '{ a[NR] = $1; n += $2 == "noise" } END {
			printf "  %-32s %s (%d of %d runs below the noise)\n", v, a[int((NR + 1) / 2)], n, NR }'
done
