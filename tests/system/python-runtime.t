#!/bin/bash
# tests/system/python-runtime.t - runtime = python in a runc container and a
# TCG guest on the python rootfs (configs/rootfs/python.list; built on first
# use, ~15 minutes, then cached): pyaes (python3-pyaes), graph-bfs (plain
# Python) and matmul (python3-numpy) serve through the usual protocol, the
# digests of pyaes and graph-bfs are the C cells' of the same seed (matmul's
# BLAS may sum in another order: its tolerance is checked natively by
# tests/workloads/python.t), each Python cell
# records the rootfs's interpreter, and a python cell without a rootfs is a
# skip with its reason. In check-long. Needs root, runc and QEMU; SKIPs
# naming what is missing (a failure under CI).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/guest-lib.sh

N=6
guest_test_begin $N mmdebstrap runc || exit 0
db=$tmp/r.db
q() { sqlite3 "$db" "$@"; }
cat >"$tmp/r.ini" <<INI
[defaults]
workload = pyaes, graph-bfs, matmul
invocations = 2
warmup = 1
seed = 2
[experiment c]
backend = native
[experiment in-runc]
backend = runc
runtime = python
rootfs = python
[experiment in-vm]
backend = qemu
accel = tcg
runtime = python
rootfs = python
workload = graph-bfs, pyaes
INI
cat >"$tmp/bare.ini" <<INI
[experiment bare]
backend = runc
runtime = python
workload = null
INI
$CVMBENCH run "$tmp/r.ini" --db "$db" --data-dir "$tmp/data" >"$tmp/run.out" 2>&1
is "$?" 0 "runc and TCG cells with runtime = python on rootfs = python: exit 0 ($(grep -m1 -i error "$tmp/run.out"))"
is "$(q "SELECT count(*) FROM cell WHERE status = 'ok'")" 8 "the 8 measured cells are ok"
bad=$(q "SELECT p.experiment || '/' || p.workload FROM cell p JOIN cell c ON c.experiment = 'c'
	AND c.workload = p.workload WHERE p.workload != 'matmul' AND p.experiment IN ('in-runc', 'in-vm') AND
	(SELECT group_concat(DISTINCT digest) FROM invocation WHERE cell_id = p.id AND digest IS NOT NULL) IS NOT
	(SELECT group_concat(DISTINCT digest) FROM invocation WHERE cell_id = c.id AND digest IS NOT NULL)")
is "$bad" "" "pyaes' and graph-bfs' digests in runc and in the guest are the C cells'"
is "$(q "SELECT count(*) FROM invocation i JOIN cell c ON c.id = i.cell_id WHERE c.experiment != 'c'
	AND i.phase = 'measured' AND i.ok = 1")" 10 "10 measured Python calls succeeded (5 cells x 2)"
ver=$(q "SELECT count(DISTINCT value) || ' ' || min(value) FROM cell_param WHERE key = 'runtime.interpreter'")
is "$ver" "1 python3.11.2" "each Python cell records the rootfs's interpreter, Debian 12's 3.11.2"
$CVMBENCH run "$tmp/bare.ini" --db "$db" --data-dir "$tmp/data" >"$tmp/bare.out" 2>&1
is "$(q "SELECT status FROM cell WHERE experiment = 'bare'")" skipped \
	"runtime = python in runc without a rootfs: skipped ($(q "SELECT reason FROM skip LIMIT 1" 2>/dev/null))"
