#!/bin/sh
# tests/bench/plan-speed.sh - invocations the planner's simulator runs a
# second on one core: a synthetic one-day Poisson trace of 10 000 functions
# at 7 invocations a minute each (100.8 million invocations), fixed TTL of
# 10 minutes, 500 ms cold / 10 ms warm latency. Prints the trace's
# invocations, the wall time of `cvmbench plan` (trace read, arrivals
# spread and sorted, simulated) and invocations per second.
# Usage: tests/bench/plan-speed.sh [CVMBENCH]   (docs/performance.md)
set -e
CVMBENCH=${1:-./cvmbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CVMBENCH" -q trace gen --kind poisson --functions 10000 --rate 7 --seed 1 --out "$tmp/day.csv"
# wall and CPU seconds (user + sys): on a shared machine the CPU time is the figure
out=$(/usr/bin/time -f '%e %U %S' -o "$tmp/time" taskset -c 0 "$CVMBENCH" plan "$tmp/day.csv" \
	--policy ttl10 --csv)
echo "$out"
echo "$out" | awk -F, -v t="$(cat "$tmp/time")" 'NR == 2 { split(t, a, " "); cpu = a[2] + a[3]
	printf "invocations %d: wall %.2f s (%.1f M/s), CPU %.2f s (%.1f M/s)\n",
		$2, a[1], $2 / a[1] / 1e6, cpu, $2 / cpu / 1e6 }'
