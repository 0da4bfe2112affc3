#!/bin/bash
# tests/workloads/python.t - the Python twins (workloads/python/, run by
# `cvmfn --runtime python` on this machine's /usr/bin/python3) against their
# C functions on seeds 1 and 2, from the inputs `cvmfn prepare` wrote:
# the same digest where both define the same output (null, hello-world,
# pyaes, graph-bfs, map-reduce, crud-api, random-disk-io, sentiment);
# matmul's C (numpy.dot) within 1e-9 of matmul.c's, compared here by numpy
# on the --output files (A, B, C), and A and B identical; chameleon,
# compression and logistic-regression by a property or tolerance of both
# --output files (tests/workloads/twin-check.py, docs/workloads.md). Then
# the serve protocol as cvmbench speaks it (ready line with the cold-start
# phases and runtime=, done and digest lines, mem, an unknown request), a
# missing input named as an init error, and a native cvmbench cell with
# runtime = python recording runtime.interpreter. A missing module of this
# python3 is a SKIP naming its Debian package (a failure under CI).
set -u
cd "$(dirname "$0")/../.."
. tests/workloads/lib.sh
CVMBENCH=${CVMBENCH:-./cvmbench}
exact="null hello-world pyaes graph-bfs map-reduce crud-api random-disk-io sentiment"
# function:property of its --output, checked by tests/workloads/twin-check.py
props="chameleon:table compression:tar logistic-regression:lr"
echo "1..24"

digest() { "$fn" run "$1" --seed "$2" --data-dir "$d" "${@:3}" 2>&1 | sed -n 's/^digest //p'; }
missing() { "$fn" check "$1" --runtime python --data-dir "$d" | head -1; }
for w in $exact matmul $(sed "s/:[a-z]*//g" <<<"$props"); do
	for s in 1 2; do
		"$fn" prepare "$w" --seed "$s" --data-dir "$d" > /dev/null || echo "# prepare $w failed"
	done
done
for w in $exact; do
	why=$(missing "$w")
	if [ -n "$why" ]; then
		noref "$w: $why"
		continue
	fi
	c1=$(digest "$w" 1) c2=$(digest "$w" 2)
	p1=$(digest "$w" 1 --runtime python) p2=$(digest "$w" 2 --runtime python)
	[ -n "$c1" ] && [ "$c1" = "$p1" ] && [ "$c2" = "$p2" ] && [ "$c1$w" != "$c2$w" -o "$w" = null ]
	ok $? "$w: the Python digest is the C one on seeds 1 and 2 ($p1 / $p2)"
done

why=$(missing matmul)
if [ -n "$why" ]; then
	noref "matmul: $why"; noref "matmul: $why"
else
	for s in 1 2; do
		"$fn" run matmul --seed "$s" --data-dir "$d" --threads 1 --output "$d/c$s" > /dev/null &&
		"$fn" run matmul --seed "$s" --data-dir "$d" --runtime python --output "$d/p$s" > /dev/null
		res=$("$PY" -c '
import numpy as np, sys
c, p = (np.fromfile(f, "<f8").reshape(3, 64, 64) for f in sys.argv[1:3])
assert (c[:2] == p[:2]).all(), "A and B differ"
print(float(abs(c[2] - p[2]).max()) <= 1e-9 and abs(c[2]).max() > 1)' "$d/c$s" "$d/p$s" 2>&1)
		ok "$([ "$res" = True ]; echo $?)" "matmul seed $s: same A and B, C within 1e-9 of matmul.c's ($res)"
	done
fi

for wp in $props; do
	w=${wp%%:*}
	why=$(missing "$w")
	if [ -n "$why" ]; then
		noref "$w: $why"
		continue
	fi
	res=
	for s in 1 2; do
		"$fn" run "$w" --seed "$s" --data-dir "$d" --output "$d/c$s" > /dev/null &&
		"$fn" run "$w" --seed "$s" --data-dir "$d" --runtime python --output "$d/p$s" > /dev/null &&
		res+="$("$PY" tests/workloads/twin-check.py "${wp#*:}" "$d/c$s" "$d/p$s" 2>&1)
"
	done
	[ "$(grep -c '^same: ' <<<"$res")" = 2 ] && ! cmp -s "$d/c1" "$d/c2"
	ok $? "$w: seeds 1 and 2 by property ${wp#*:}: $(echo $res)"
done

# the protocol, as instance.c reads it
out=$(printf 'invoke 7\nmem\ninvoke 8\nwhat\nquit\n' |
	"$fn" serve hello-world --seed 2 --data-dir "$d" --runtime python --digest first)
want=$("$fn" run hello-world --seed 2 --data-dir "$d" | sed -n 's/^digest //p')
ver=$(/usr/bin/python3 -c 'import platform; print(platform.python_version())')
grep -Eq "^ready pid=[0-9]+ init_ns=[0-9]+ rss_kb=[0-9]+ pss_kb=[0-9]+ threads=1 interp_ns=[0-9]+ import_ns=[0-9]+ runtime=python$ver\$" <<<"$out"
ok $? "serve: the ready line, with the cold-start phases and runtime=python$ver"
[ "$(sed -n 2p <<<"$out" | sed 's/fn_ns=[0-9]*/fn_ns=N/')" = "done 7 ok=1 fn_ns=N" ] &&
	grep -q "^digest 7 sha256=$want digest_ns=[0-9]*\$" <<<"$out"
ok $? "serve: done 7, then digest 7 with hello-world's C digest"
grep -Eq '^mem rss_kb=[1-9][0-9]* pss_kb=[1-9][0-9]*$' <<<"$out"
ok $? "serve: mem from smaps_rollup"
grep -q '^digest 8 none$' <<<"$out" && grep -q "^error unknown request 'what'$" <<<"$out"
ok $? "serve: --digest first leaves call 8 unhashed; an unknown request is an error line"
out=$(echo 'invoke 1' | "$fn" serve pyaes --seed 9 --data-dir "$d" --runtime python); rc=$?
[ "$rc" = 3 ] && grep -q "^error .*pyaes-test-seed9.key-iv.*cvmfn prepare pyaes" <<<"$out"
ok $? "serve: a missing input file is an init error naming it and the prepare (exit $rc)"
out=$(echo 'invoke 1' | "$fn" serve pyaes --seed 9 --data-dir "$d" --runtime python --prepare)
grep -q "^done 1 ok=1" <<<"$out"
ok $? "serve --prepare: cvmfn writes the inputs, then the twin serves"
"$fn" check null > /dev/null 2>&1
ok "$([ $? = 2 ]; echo $?)" "check without --runtime python is a usage error"

# a native cell through cvmbench
export CVMBENCH_STATE_DIR=$d/state CVMBENCH_TEST_HOST_LOCK=$d/host.lock
cat > "$d/p.ini" <<INI
[experiment py]
workload = graph-bfs
runtime = c, python
seed = 2
invocations = 2
warmup = 1
INI
"$CVMBENCH" run "$d/p.ini" --db "$d/r.db" --data-dir "$d/data" > "$d/run.out" 2>&1
ok $? "cvmbench run: graph-bfs, runtime = c, python, natively"
q() { sqlite3 "$d/r.db" "$@"; }
got=$(q "SELECT count(DISTINCT digest) || ' ' || count(*) FROM invocation WHERE digest IS NOT NULL")
ok "$([ "$got" = "1 6" ]; echo $?)" "both cells' 6 calls have one digest ($got)"
got=$(q "SELECT group_concat(value) FROM cell_param WHERE key = 'runtime.interpreter'")
ok "$([ "$got" = "python$ver" ]; echo $?)" "the Python cell records runtime.interpreter ($got), the C one none"
got=$(q "SELECT count(*) || ' ' || min(CAST(value AS INTEGER) > 0) FROM cell_param WHERE key IN ('runtime.interp_ns', 'runtime.import_ns')")
ok "$([ "$got" = "2 1" ]; echo $?)" "the Python cell records its interpreter start and imports (ns > 0), the C one neither ($got)"
