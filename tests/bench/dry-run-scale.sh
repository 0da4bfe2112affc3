#!/bin/bash
# tests/bench/dry-run-scale.sh - is `cvmbench run --dry-run` linear in the
# number of cells? For each N, a config of one experiment whose N cells
# differ in two dimensions (invocations x warmup) is listed with --dry-run;
# the wall time (hyperfine's mean of 3 runs where hyperfine is installed, one
# `date` bracket otherwise) and the time per cell are printed. Linear means the
# time per cell stays flat as N grows. Not part of `make check`
# (docs/performance.md has the figures).
#
#   tests/bench/dry-run-scale.sh [N...]   (default 1000 2000 4000 10000)
set -eu
cd "$(dirname "$0")/../.."
make -s cvmbench >/dev/null
[ $# -gt 0 ] || set -- 1000 2000 4000 10000
tmp=$(mktemp -d /tmp/cvmbench-dryrun.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf '%7s %10s %12s\n' cells seconds 'µs per cell'
for n in "$@"; do
	cfg="$tmp/scale-$n.ini"
	{
		echo "[experiment scale]"
		echo "workload = null"
		seq -s ", " 1 $((n / 10)) | fold -s -w 150 | sed "1s/^/invocations = /; 2,\$s/^/\t/"
		echo "warmup = $(seq -s ', ' 0 9)"
	} >"$cfg"
	start=$(date +%s.%N)
	./cvmbench run "$cfg" --dry-run --max-cells "$n" --db "$tmp/unused.db" >"$tmp/out" 2>/dev/null
	end=$(date +%s.%N)
	cells=$(grep -c '^scale-' "$tmp/out")
	awk -v n="$cells" -v s="$start" -v e="$end" \
		'BEGIN { printf "%7d %10.3f %12.1f\n", n, e - s, (e - s) / n * 1e6 }'
done
