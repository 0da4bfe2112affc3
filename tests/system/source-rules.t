#!/bin/bash
# tests/system/source-rules.t - rules of the source that the compiler does not
# check (issue 11.6). Reads the tree, changes nothing.
#  - one monotonic clock on each side of the wall: clock_gettime is called in
#    bench/lib/clock.h (harness, probes, analysis) and workloads/wlclock.h
#    (cvmfn and the workloads) and nowhere else.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

plan 1

calls=$(grep -rln --include='*.c' --include='*.h' 'clock_gettime *(' bench probes analysis workloads |
	sort | tr '\n' ' ')
is "$calls" "bench/lib/clock.h workloads/wlclock.h " \
	"clock_gettime only in the two clock helpers"
