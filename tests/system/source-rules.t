#!/bin/bash
# tests/system/source-rules.t - rules of the source that the compiler does not
# check (issue 11.6). Reads the tree, changes nothing.
#  - one monotonic clock on each side of the wall: clock_gettime is called in
#    lib/clock.h (harness, probes, analysis) and workloads/wlclock.h
#    (cvmfn and the workloads) and nowhere else.
#  - metric names read by the analysis come from the probe's -metrics.h.
#  - analysis/ prints JSON through one printer (valid UTF-8).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

plan 7

calls=$(grep -rln --include='*.c' --include='*.h' 'clock_gettime *(' lib journal tracing bench probes analysis workloads |
	sort | tr '\n' ' ')
is "$calls" "lib/clock.h workloads/wlclock.h " \
	"clock_gettime only in the two clock helpers"

# - one way to prepare a query in analysis/: analysis_prepare() (analysis.c)
preps=$(grep -ln 'sqlite3_prepare' analysis/*.c | tr '\n' ' ')
is "$preps" "analysis/analysis.c " "analysis/ prepares queries only through analysis_prepare()"

# - one JSON printer in analysis/: analysis_json_print() (analysis.c), whose
#   output is valid UTF-8 whatever a database's strings hold (issue 25.3)
prints=$(grep -ln 'cJSON_Print' analysis/*.c | tr '\n' ' ')
is "$prints" "analysis/analysis.c " "analysis/ prints JSON only through analysis_json_print()"

# - metric names shared by a probe and the analysis come from the probe's
#   metrics/NAME-metrics.h: no SQL in analysis/ names a probe or a metric by a
#   literal, and no name of such a header is written as a literal elsewhere.
lits=$(grep -nE "m\.(probe|name) *= *'[a-z]" analysis/*.c)
is "$lits" "" "analysis/ names no probe or metric in SQL by a literal"
# A header with PREFIX defines (pool-metrics.h: "pool", "netns-pool") holds
# name suffixes: the names checked are PREFIX.SUFFIX. A value that is also a
# config key or a name of the X-macro lists (the runc phases: "cgroup",
# "netns") is a word of those, not a copy.
keys=$($CVMBENCH list --keys | awk 'NR > 1 { print $1 }')
xnames=$(sed -nE 's/^[[:space:]]*X\([A-Z_0-9]+, *"([^"]+)"\).*/\1/p' metrics/*-metrics.h)
copies=
for h in metrics/*-metrics.h; do
	prefixes=$(sed -nE 's/^#define [A-Z_0-9]+_PREFIX_[A-Z_0-9]+ +"([^"]+)".*/\1/p' "$h")
	for v in $(sed -nE '/_PREFIX_/d; s/^#define [A-Z_0-9]+ +"([^"]+)".*/\1/p' "$h" |
		   grep -vx "$(sed -nE 's/^#define [A-Z_]+_PROBE +"([^"]+)".*/\1/p' "$h")"); do
		grep -qx -- "$v" <<<"$keys$xnames" && continue
		names=$v
		if [ -n "$prefixes" ] && grep -q '_METRIC_' <<<"$(grep -F "\"$v\"" "$h")" &&
		   [ "${v#*.}" = "$v" ]; then
			names=$(for p in $prefixes; do echo "$p.$v"; done)
		fi
		for n in $names; do
			hits=$(grep -rlF -e "\"$n\"" -e "'$n'" --include='*.c' --include='*.h' \
				lib journal tracing bench probes analysis | grep -v -- "-metrics.h$")
			[ -n "$hits" ] && copies="$copies $n:$(echo $hits | tr ' ' ,)"
		done
	done
done
is "$copies" "" "no metric name of a metrics/*-metrics.h is written out again"
# the lists of names (X-macros) of those headers: analysis/ spells none of
# them itself, except where the word is also a config key (runc's netns phase
# and the netns key)
copies=
for v in $(sed -nE 's/^[[:space:]]*X\([A-Z_0-9]+, *"([^"]+)"\).*/\1/p' metrics/*-metrics.h); do
	grep -qx -- "$v" <<<"$keys" && continue
	hits=$(grep -rlF -e "\"$v\"" -e "'$v'" --include='*.c' --include='*.h' analysis)
	[ -n "$hits" ] && copies="$copies $v:$(echo $hits | tr ' ' ,)"
done
ok "$(sed -nE 's/^[[:space:]]*X\([A-Z_0-9]+, *"([^"]+)"\).*/\1/p' metrics/*-metrics.h | wc -l)" -ge 12 \
	"the runc phases are listed in metrics/runc-metrics.h"
is "$copies" "" "analysis/ spells no name of those lists itself"
