#!/bin/bash
# tests/system/plot-pools.t - the pools figures on a crafted database (no
# root): `plot pools-sweep` draws each variant's p99 as the nearest-rank
# value of the starts written here (1..100 ms at K = 1: 99.0; 2..200 ms at
# K = 4: 198.0; 1..10 ms at K = 2: 10.0, where interpolation would give
# 9.9), leaves a warm-up call's start out (9999 ms), names the variants
# in its key; `plot pool-depletion` draws the crafted pool (3 made, drained, a fallback, two refills of 12.5 and
# 7.5 ms wall, 2.5 and 1.5 ms CPU) with the refills' totals in its key.
# A run without starts or pools: nothing to draw, exit 3, the reason. The
# database is made from the schema files (craft-db.py schema), no run.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=7
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
. tests/system/plot-lib.sh
plan $N
plot_needs $N
# this build's schema: the newest migration's number
latest=$(ls results-schema/ | sed -n 's/^\([0-9]*\)-.*\.sql$/\1/p' | sort -n | tail -1 | sed 's/^0*//')
$py tests/system/craft-db.py "$tmp/base.db" schema "$latest"
is $? 0 "an empty database of schema $latest (this build's) with one run (craft-db.py)"
for f in pools-sweep pool-depletion; do
	./cvmbench plot $f --db "$tmp/base.db" --out "$tmp/none.svg" 2> "$tmp/err"
	rc=$?
	grep -q "$f: nothing to draw: run 1 has no" "$tmp/err"
	is "$rc:$?" "3:0" "$f without starts or pools: nothing to draw, exit 3, why" ||
		sed 's/^/# /' "$tmp/err"
done

cp "$tmp/base.db" "$tmp/p.db"
$py - "$tmp/p.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
run = db.execute("SELECT max(id) FROM run").fetchone()[0]

def cell(exp, backend, k):
    c = db.execute("INSERT INTO cell (run_id, cell_key, experiment, workload, size, "
                   "backend, threads, wait, mode, instances, invocations, warmup, "
                   "repeat_index, seed, probes, spec, status, started_at) VALUES "
                   "(?, ?, ?, 'hello-world', 'test', ?, 1, 'spin', 'cold', 1, 1, 0, 0, 1, "
                   "'runc', '', 'ok', 'x')", (run, "%s-%s-%d" % (exp, backend, k), exp,
                                              backend)).lastrowid
    db.execute("INSERT INTO cell_param VALUES (?, 'parallel', ?)", (c, str(k)))
    return c

def starts(c, ms, phase="measured"):
    i = db.execute("INSERT INTO invocation (cell_id, instance_idx, seq, phase, start, "
                   "started_at, ok) VALUES (?, 0, 0, ?, 'cold', 'x', 1)", (c, phase)).lastrowid
    for v in ms:
        db.execute("INSERT INTO runc_start (cell_id, invocation_id, start_idx, runtime, "
                   "total_ns, cold_start_ns, blocked_ns, events, namespaces) VALUES "
                   "(?, ?, 0, 'runc', ?, ?, 0, 1, '')", (c, i, int(v * 1e6), int(v * 1e6)))

a1 = cell("pv-a", "runc", 1)
starts(a1, range(1, 101))
starts(a1, [9999], "warmup")
starts(cell("pv-a", "runc", 4), [2 * j for j in range(1, 101)])
starts(cell("pv-b", "crun", 2), range(1, 11))
ev = [("fill", 1, None, None), ("fill", 2, None, None), ("fill", 3, None, None),
      ("take", 2, None, None), ("take", 1, None, None), ("take", 0, None, None),
      ("fallback", 0, 50e6, 3e6), ("refill", 1, 12.5e6, 2.5e6), ("refill", 2, 7.5e6, 1.5e6)]
for t, (e, free, cost, cpu) in enumerate(ev):
    db.execute("INSERT INTO oci_pool_event (cell_id, t_ns, pool, event, free, cost_ns, "
               "cpu_ns) VALUES (?, ?, 'netns', ?, ?, ?, ?)", (a1, t * 100000000, e, free,
               cost, cpu))
db.commit()
PY
./cvmbench plot pools-sweep --db "$tmp/p.db" --out "$tmp/s.svg" > "$tmp/out" 2>&1
is "$?:$(grep -v 'info: wrote' "$tmp/out")" "0:" "plot pools-sweep draws, no gnuplot warning" ||
	sed 's/^/# /' "$tmp/out"
p99=$(grep -o '>[0-9.]*<' "$tmp/s.svg" | tr -d '<>' | grep -x "99.0\\|198.0\\|10.0\\|9.9\\|9999.0" | sort -n | tr '\n' ' ')
is "$p99" "10.0 99.0 198.0 " "the p99 labels: nearest-rank of the crafted starts, the warm-up left out"
grep -q '>pv-a runc<' "$tmp/s.svg" && grep -q '>pv-b crun<' "$tmp/s.svg"
is $? 0 "each variant (experiment, runtime) in the key"
./cvmbench plot pool-depletion --db "$tmp/p.db" --out "$tmp/d.svg" > "$tmp/out" 2>&1
grep -q '>pv-a runc K=1 netns<' "$tmp/d.svg" && grep -q '>N = 2 refills: 20.0 ms, 4.0 ms CPU<' "$tmp/d.svg"
is "$?:$(grep -v 'info: wrote' "$tmp/out")" "0:" \
	"plot pool-depletion: the pool, and its 2 refills' 20.0 ms wall, 4.0 ms CPU in the key" ||
	{ sed 's/^/# /' "$tmp/out"; grep -o '>[^<]*refill[^<]*<' "$tmp/d.svg" | sed 's/^/# /'; }
