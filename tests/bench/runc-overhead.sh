#!/bin/bash
# tests/bench/runc-overhead.sh - what the runc phase probe costs a container
# cold start: PAIRS runs, each with two cells of the same cold cell, one with
# probes = latency (off) and one with probes = latency, runc (on), in
# alternating order (off-on, on-off, ...) so that drift cancels; the figure
# is the median over runs of (on - off) / off of the cells' median
# cold-start latencies (spawn of the runtime to the first reply, measured
# by the harness outside the probe). Target (issue 5): <= 5 %. Root; not
# part of `make check`.
#
#   tests/bench/runc-overhead.sh [BACKEND [PAIRS [INVOCATIONS]]]
#   (defaults: runc 20 40)
set -eu
cd "$(dirname "$0")/../.."
backend=${1:-runc} pairs=${2:-20} n=${3:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
cell() {
	printf '[experiment runc-overhead-%s]\nworkload = hello-world\nbackend = %s\n' "$1" "$backend"
	printf 'mode = cold\ninvocations = %d\nwarmup = 3\nprobes = %s\n\n' "$n" "$2"
}
cell off latency > "$tmp/ab.ini"; cell on "latency, runc" >> "$tmp/ab.ini"
cell on "latency, runc" > "$tmp/ba.ini"; cell off latency >> "$tmp/ba.ini"
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cell_median() {
	sqlite3 "$1" "SELECT i.latency_ns FROM invocation i JOIN cell c ON c.id = i.cell_id
		      WHERE i.phase = 'measured' AND i.ok AND c.experiment = 'runc-overhead-$2'" | median
}
: > "$tmp/ratios"; : > "$tmp/off"; : > "$tmp/on"
for i in $(seq "$pairs"); do
	order=ab; [ $((i % 2)) = 0 ] && order=ba
	./cvmbench run "$tmp/$order.ini" --db "$tmp/$i.db" --data-dir "$tmp/data" 2>/dev/null
	off=$(cell_median "$tmp/$i.db" off) on=$(cell_median "$tmp/$i.db" on)
	echo "$off $on" | awk '{ printf "run %d ('"$order"'): off %.2f ms, on %.2f ms, %+.2f %%\n", '"$i"', $1 / 1e6, $2 / 1e6, 100 * ($2 - $1) / $1 }'
	echo "$off $on" | awk '{ print ($2 - $1) / $1 }' >> "$tmp/ratios"
	echo "$off" >> "$tmp/off"; echo "$on" >> "$tmp/on"
done
printf '%s: %d runs x %d cold starts per side: median off %.2f ms, on %.2f ms; median difference %+.2f %%\n' \
	"$backend" "$pairs" "$n" "$(median < "$tmp/off" | awk '{ print $1 / 1e6 }')" \
	"$(median < "$tmp/on" | awk '{ print $1 / 1e6 }')" "$(median < "$tmp/ratios" | awk '{ print 100 * $1 }')"
