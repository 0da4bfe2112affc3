#!/bin/bash
# tests/bench/workload-times.sh - the function times in docs/workloads.md:
# every workload at sizes small and large, 1 and 2 threads, through
# `cvmfn run --repeat N --json`. Prints a Markdown table: init, the
# function's own time (min and mean of N calls, output hash NOT included)
# and the SHA-256 of the output (min of N, taken after the function's end
# time). Not part of `make check`.
#
#   tests/bench/workload-times.sh [REPEAT [SIZES [WORKLOADS...]]]
#   (defaults: 3 "small large" every workload). CVMFN=path picks the binary.
set -eu
cd "$(dirname "$0")/../.."
fn=${CVMFN:-./cvmfn}
repeat=${1:-3} sizes=${2:-small large}
shift 2 2> /dev/null || shift $#
names=${*:-$("$fn" list | awk '$1 != "null" {print $1}')}
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

echo "| workload | size | threads | init ms | function min / mean ms | sha256 min ms |"
echo "| --- | --- | --- | ---: | ---: | ---: |"
for w in $names; do
	threads="1 2"
	"$fn" list --json | python3 -c "import json,sys; sys.exit(0 if next(x for x in json.load(sys.stdin) if x['name']=='$w')['threads'] else 1)" || threads=1
	for s in $sizes; do
		for t in $threads; do
			"$fn" run "$w" --size "$s" --threads "$t" --repeat "$repeat" --prepare \
				--data-dir "$data" --json 2> /dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
print("| %s | %s | %d | %.1f | %.3g / %.3g | %.3g |" % (r["workload"], r["size"], r["threads"],
      r["init_ns"] / 1e6, r["fn_ns_min"] / 1e6, r["fn_ns_mean"] / 1e6, r["digest_ns_min"] / 1e6))' ||
				echo "| $w | $s | $t | failed | | |"
		done
	done
done
