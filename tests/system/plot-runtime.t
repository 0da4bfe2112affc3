#!/bin/bash
# tests/system/plot-runtime.t - the figures draw both runtimes side by side
# (issue 32): a run written by tests/system/compare-db.py (the tool's
# schema, no VM) with qemu cells of runtime = c and runtime = python, each
# with KSM on and off and a PSS of its own. memory-scaling draws four
# lines named "pyaes [c]: ksm on" ... "pyaes [python]: ksm off";
# memory-overhead gives each runtime its own overhead (+100.0 % for C,
# +66.7 % for Python, from the PSS written); warm-latency keys C as solid
# and Python as hatched boxes, and labels the cells by runtime. The same
# cells without a runtime key (a C-only database) draw the lines and the
# overhead as before (two lines, one pooled overhead), without "[c]", so the
# checks can fail. start-phases draws the first instance's start by phase
# per cell, "pyaes [c]" before "pyaes [python]", from the start_ns,
# init_ns and runtime.interp_ns / runtime.import_ns written into the
# database; a run without a started instance is "nothing to draw" (exit 3)
# naming why.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=8
py=/usr/bin/python3
plan $N
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/system/plot-lib.sh
plot_needs $N

# cell I: runtime, ksm, PSS kB
cells=(c:on:100000 c:off:200000 python:on:300000 python:off:500000)
mkdb() {   # DB [no-runtime]
	local i args=()
	for i in "${!cells[@]}"; do
		IFS=: read -r rt ksm kb <<< "${cells[$i]}"
		args+=(--set "$i:ksm=$ksm" --hostmem "$i:$kb")
		[ -z "${2:-}" ] && args+=(--set "$i:runtime=$rt")
	done
	$py tests/system/compare-db.py "$1" --workloads pyaes --repeats ${#cells[@]} --n 20 \
		--cell backend=qemu --cell vms=2 --cell instances=2 --mem 1000 "${args[@]}"
}
texts() {   # SVG: the texts of its labels, one a line
	grep -o '>[^<>]*<' "$1" | sed 's/^>//; s/<$//' | sort -u
}

mkdb "$tmp/rt.db"
mkdb "$tmp/c.db" no-runtime
# the first instances' starts: C 30 ms (init 10), Python 900 ms (interpreter
# 100, imports 500, init 200); the C-only database keeps none
sqlite3 "$tmp/rt.db" "UPDATE instance SET start_ns = CASE WHEN cell_id IN (SELECT cell_id
	FROM cell_param WHERE key = 'runtime' AND value = 'python') THEN 900000000 ELSE 30000000 END,
	init_ns = CASE WHEN cell_id IN (SELECT cell_id FROM cell_param WHERE key = 'runtime'
	AND value = 'python') THEN 200000000 ELSE 10000000 END;
	INSERT INTO cell_param SELECT cell_id, 'runtime.interp_ns', '100000000' FROM cell_param
	WHERE key = 'runtime' AND value = 'python';
	INSERT INTO cell_param SELECT cell_id, 'runtime.import_ns', '500000000' FROM cell_param
	WHERE key = 'runtime' AND value = 'python';"
for db in rt c; do
	for f in memory-scaling memory-overhead warm-latency start-phases; do
		"$CVMBENCH" plot $f --db "$tmp/$db.db" --out "$tmp/$db-$f.svg" > /dev/null 2>&1 ||
			echo "# plot $f on $db.db failed"
	done
done
got=$(texts "$tmp/rt-memory-scaling.svg" | grep -c '^pyaes \[\(c\|python\)\]: ksm o\(n\|ff\)$')
is "$got" 4 "memory-scaling: a line per runtime and KSM setting (pyaes [c]: ksm on, ...)"
is "$(texts "$tmp/rt-memory-overhead.svg" | grep -E '^\+[0-9.]+ %' | tr '\n' ' ')" \
	"+100.0 %, N=1/1 +66.7 %, N=1/1 " "memory-overhead: each runtime against its own ksm on (+100.0 % C, +66.7 % Python)"
got=$(texts "$tmp/c-memory-scaling.svg")
is "$(grep -c '^ksm o\(n\|ff\)$' <<<"$got"):$(grep -c '\[c\]' <<<"$got")" 2:0 \
	"a database without runtime keys: the lines as before (ksm on, ksm off; no [c])"
is "$(texts "$tmp/c-memory-overhead.svg" | grep -E '^\+[0-9.]+ %' | tr '\n' ' ')" \
	"+75.0 %, N=2/2 " "and one overhead over all four cells (+75.0 %: the runtimes pooled)"
w=$(texts "$tmp/rt-warm-latency.svg")
grep -q '^runtime python: hatched box$' <<<"$w" && grep -q '^runtime c: solid box$' <<<"$w" &&
	[ "$(grep -c '/python$' <<<"$w"):$(grep -c '/c$' <<<"$w")" = 2:2 ]
ok $? = 0 "warm-latency: C solid, Python hatched, each cell labelled with its runtime"
! grep -q 'runtime python' <<<"$(texts "$tmp/c-warm-latency.svg")"
ok $? = 0 "warm-latency of a C-only run: no runtime key"
# the crafted calls have no fn_ns: the first call is not measured, and the
# label says so (its bar is 0 high)
w=$(grep -o '>pyaes \[[a-z]*\][^<]*<' "$tmp/rt-start-phases.svg" | tr -d '<>' | sed 's/ (not measured: first-call)$/*/' | tr '\n' ' ')
is "$w" "pyaes [c]* pyaes [c]* pyaes [python]* pyaes [python]* " \
	"start-phases: a bar per cell, in x order the C cells before the Python ones, each saying its first call was not measured"
"$CVMBENCH" plot start-phases --db "$tmp/c.db" --out "$tmp/none.svg" > "$tmp/none.out" 2>&1
rc=$?
is "$rc:$(grep -c 'no instance with its start' "$tmp/none.out")" 3:1 \
	"start-phases without a started instance: nothing to draw, saying why (exit $rc)"
