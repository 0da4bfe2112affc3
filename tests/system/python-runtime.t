#!/bin/bash
# tests/system/python-runtime.t - runtime = python in a runc container and a
# TCG guest on the python rootfs (configs/rootfs/python.list; built on first
# use, ~15 minutes, then cached): pyaes (python3-pyaes), graph-bfs (plain
# Python), matmul (python3-numpy), cnn-classification and rnn-generate
# (python3-torch), video-processing and video-face-detection
# (python3-opencv, opencv-data's cascade in the rootfs) serve through the
# usual protocol; the digests of pyaes, graph-bfs, rnn-generate and
# cnn-classification are the native C cells' of the same seed (their
# outputs are defined the same: tests/workloads/python*.t), those of the
# two OpenCV twins the native Python cells' (the rootfs's libraries give
# the host's bytes: the GIF, the faces); matmul's BLAS may sum in another
# order (its tolerance is checked natively by tests/workloads/python.t),
# so it is not compared, but it runs in the guest: OpenBLAS on QEMU's
# qemu64 CPU (workloads/python/__main__.py openblas_core). Each Python cell
# records the rootfs's interpreter, and a python cell without a rootfs is a
# skip with its reason. In check-long. Needs root, runc and QEMU; SKIPs
# naming what is missing (a failure under CI).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/guest-lib.sh

N=7
guest_test_begin $N mmdebstrap runc || exit 0
db=$tmp/r.db
q() { sqlite3 "$db" "$@"; }
same_c="pyaes graph-bfs rnn-generate cnn-classification"
same_py="video-processing video-face-detection"
cat >"$tmp/r.ini" <<INI
[defaults]
workload = pyaes, graph-bfs, matmul, cnn-classification, rnn-generate, video-processing, video-face-detection
invocations = 2
warmup = 1
seed = 2
timeout = 600
[experiment c]
backend = native
workload = pyaes, graph-bfs, cnn-classification, rnn-generate
[experiment py]
backend = native
runtime = python
workload = video-processing, video-face-detection
[experiment in-runc]
backend = runc
runtime = python
rootfs = python
[experiment in-vm]
backend = qemu
accel = tcg
memory = 1024
boot-timeout = 300
runtime = python
rootfs = python
INI
# digests DIGEST-SOURCE WORKLOADS: experiment/workload of each Python cell
# in runc or the VM whose digests are not those of the cell of the same
# workload in experiment DIGEST-SOURCE
differ() {
	local w bad=
	for w in $2; do
		bad+=$(q "SELECT p.experiment || '/' || p.workload || ' ' FROM cell p JOIN cell c
		ON c.experiment = '$1' AND c.workload = p.workload WHERE p.workload = '$w'
		AND p.experiment IN ('in-runc', 'in-vm') AND
		(SELECT group_concat(DISTINCT digest) FROM invocation WHERE cell_id = p.id AND digest IS NOT NULL) IS NOT
		(SELECT group_concat(DISTINCT digest) FROM invocation WHERE cell_id = c.id AND digest IS NOT NULL)")
	done
	echo "$bad"
}
cat >"$tmp/bare.ini" <<INI
[experiment bare]
backend = runc
runtime = python
workload = null
INI
$CVMBENCH run "$tmp/r.ini" --db "$db" --data-dir "$tmp/data" --wait-lock 3600 >"$tmp/run.out" 2>&1
rc=$?
[ -n "${KEEP_OUT:-}" ] && cp "$tmp/run.out" "$db" "$KEEP_OUT"/   # KEEP_OUT=DIR: keep the run's output and database
is "$rc" 0 "runc and TCG cells with runtime = python on rootfs = python: exit 0 ($(grep -m1 -i error "$tmp/run.out"))"
is "$(q "SELECT count(*) FROM cell WHERE status = 'ok'")" 20 "the 20 measured cells are ok"
is "$(differ c "$same_c")" "" "$same_c: digests in runc and in the guest are the C cells'"
is "$(differ py "$same_py")" "" "$same_py: digests in runc and in the guest are the native Python cells'"
is "$(q "SELECT count(*) FROM invocation i JOIN cell c ON c.id = i.cell_id WHERE c.experiment
	IN ('in-runc', 'in-vm') AND i.phase = 'measured' AND i.ok = 1")" 28 \
	"28 measured Python calls in runc and the guest succeeded (14 cells x 2)"
ver=$(q "SELECT count(DISTINCT value) || ' ' || min(value) FROM cell_param WHERE key = 'runtime.interpreter'")
is "$ver" "1 python3.11.2" "each Python cell records the rootfs's interpreter, Debian 12's 3.11.2"
$CVMBENCH run "$tmp/bare.ini" --db "$db" --data-dir "$tmp/data" >"$tmp/bare.out" 2>&1
is "$(q "SELECT status FROM cell WHERE experiment = 'bare'")" skipped \
	"runtime = python in runc without a rootfs: skipped ($(q "SELECT reason FROM skip LIMIT 1" 2>/dev/null))"
