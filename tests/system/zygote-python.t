#!/bin/bash
# zygote-python.t - Python instances forked from Python seeds (issue 33,
# workloads/python/seed.py) with matmul's twin (NumPy only): the uniqueness
# check passes with re-seeding and fails without it at the layers whose seed
# imported NumPy (runtime, warm: numpy's generator repeats in the 3 later
# children of 4, compared by the check itself), while random, which CPython
# re-seeds at fork on its own, never repeats; the warm layer of a twin whose
# init makes a scratch directory is refused; a cold run of all three layers
# stores one start split per call, the bare children (which import NumPy
# themselves) report imports and the runtime and warm ones none, a warm
# cell of 2 instances stores their memory beside the seed's, and no seed
# is left. The torch layers are zygote-python-torch.t (make check-long).
. tests/system/tap.sh
plan 10
if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	skip_all 10 "/usr/bin/python3 with NumPy (Debian packages python3, python3-numpy)"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_DATA_DIR=$tmp/data CVMBENCH_STATE_DIR=$tmp/state
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock   # no host setting is changed
"$CVMFN" prepare matmul >/dev/null && "$CVMFN" prepare crud-api >/dev/null

"$CVMFN" fork-check matmul --runtime python --children 4 >"$tmp/out"; rc=$?
is "$rc" 0 "fork-check --runtime python passes with re-seeding"
is "$(grep -cE '^(bare|runtime|warm) +4/4 .*numpy 0.*: pass$' "$tmp/out")" 3 \
	"every layer passes, numpy's draws among those compared"
CVMFN_ZYGOTE_NO_RESEED=1 "$CVMFN" fork-check matmul --runtime python --children 4 >"$tmp/out"
rc=$?
is "$rc" 1 "fork-check --runtime python fails without re-seeding"
is "$(grep -E '^(runtime|warm) .*random 0, numpy 3,.*FAIL$' "$tmp/out" | wc -l)/$(
	grep -cE '^bare .*random 0, numpy 0,.*pass$' "$tmp/out")" 2/1 \
	"runtime and warm children repeat the seed's numpy draws; bare ones (numpy imported after fork) do not"
"$CVMFN" fork-check crud-api --runtime python --children 2 >"$tmp/out"
ok "$(grep -c '^warm *not offered: .*scratch directory' "$tmp/out")" -eq 1 \
	"the warm layer of crud-api's twin is refused by the Python manifest"

cat >"$tmp/z.ini" <<INI
[experiment cold]
workload = matmul
runtime = python
backend = zygote
seed-layer = bare, runtime, warm
mode = cold
size = test
threads = 1
invocations = 2
warmup = 0

[experiment mem]
workload = matmul
runtime = python
backend = zygote
seed-layer = warm
instances = 2
size = test
threads = 1
invocations = 2
warmup = 0
INI
"$CVMBENCH" -q run "$tmp/z.ini" --db "$tmp/r.db" 2>"$tmp/err"; rc=$?
is "$rc" 0 "a zygote run of the Python twin, three layers cold and one warm cell"
q() { sqlite3 "$tmp/r.db" "$@"; }
is "$(q "SELECT count(*) FROM seed_start WHERE fork_ns > 0 AND init_ns > 0 AND first_call_ns > 0")" 8 \
	"one start split per cold call (6) and per warm instance (2)"
# the bare child imports NumPy after the fork (tens of ms), the warm one finds it loaded
got=$(q "SELECT (SELECT min(init_ns) FROM seed_start WHERE layer = 'bare') >
	(SELECT 5 * max(s.init_ns) FROM seed_start s JOIN cell c ON c.id = s.cell_id
	 WHERE s.layer = 'warm' AND c.experiment = 'cold')")
is "$got" 1 "every bare child's remaining init (NumPy's import) exceeds 5 times any warm child's"
is "$(q "SELECT count(*) FROM seed_memory WHERE called = 1 AND pss_kb > 0 AND seed_pss_kb > 10000")" 2 \
	"the 2 warm children's PSS beside their seed's (an interpreter with NumPy: > 10 MB)"
is "$(pgrep -f "python3 -I /proc/self/fd/[0-9]+ seed matmul.*$tmp/data" | wc -l)" 0 "no Python seed left after the run"
