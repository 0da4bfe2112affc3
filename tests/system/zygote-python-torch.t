#!/bin/bash
# zygote-python-torch.t - the torch layers of the Python seed (issue 33,
# workloads/python/seed.py) with cnn-classification's twin (PyTorch,
# torchvision's SqueezeNet): the uniqueness check passes with re-seeding and,
# without it, the runtime and warm children repeat both numpy's and torch's
# draws (torch re-seeds nothing at fork); a cold run of the three layers
# stores a start split per call, a bare child pays torch's import after the
# fork (its remaining init exceeds 10 times any warm child's) and each seed
# that imported torch is far larger than the bare one; warm children with
# --threads 2 of a single-threaded seed run their calls (a seed that had
# run a 2-thread OpenMP region leaves its children hanging in libgomp,
# docs/experiments/seed-tree.md). In make check-long:
# each bare start imports torch (seconds on a busy machine).
. tests/system/tap.sh
plan 8
if ! /usr/bin/python3 -c 'import numpy, torch, torchvision' 2>/dev/null; then
	skip_all 8 "/usr/bin/python3 with torch and torchvision (Debian packages python3-torch, python3-torchvision, python3-numpy)"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_DATA_DIR=$tmp/data CVMBENCH_STATE_DIR=$tmp/state
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock   # no host setting is changed
"$CVMFN" prepare cnn-classification >/dev/null

"$CVMFN" fork-check cnn-classification --runtime python --children 3 >"$tmp/out"; rc=$?
is "$rc/$(grep -cE '^(bare|runtime|warm) +3/3 .*numpy 0, torch 0,.*: pass$' "$tmp/out")" 0/3 \
	"fork-check passes at every layer, torch's draws among those compared"
CVMFN_ZYGOTE_NO_RESEED=1 "$CVMFN" fork-check cnn-classification --runtime python --children 3 \
	>"$tmp/out"; rc=$?
is "$rc/$(grep -cE '^(runtime|warm) .*random 0, numpy 2, torch 2,.*FAIL$' "$tmp/out")" 1/2 \
	"without re-seeding, runtime and warm children repeat numpy's and torch's draws"

cat >"$tmp/z.ini" <<INI
[experiment cold]
workload = cnn-classification
runtime = python
backend = zygote
seed-layer = bare, runtime, warm
mode = cold
size = test
threads = 1
invocations = 2
warmup = 0
INI
"$CVMBENCH" -q run "$tmp/z.ini" --db "$tmp/r.db" 2>"$tmp/err"; rc=$?
is "$rc" 0 "a zygote run of the torch twin at three layers"
q() { sqlite3 "$tmp/r.db" "$@"; }
is "$(q "SELECT count(*) FROM seed_start WHERE fork_ns > 0 AND init_ns > 0 AND first_call_ns > 0")" 6 \
	"one start split per cold call"
is "$(q "SELECT (SELECT min(init_ns) FROM seed_start WHERE layer = 'bare') >
	(SELECT 10 * max(init_ns) FROM seed_start WHERE layer = 'warm')")" 1 \
	"a bare child's remaining init (torch's import, the model) exceeds 10 times any warm child's"
# the seed's PSS once seeded (layer_<L>_mem_kb): torch's libraries are hundreds of MB
got=$(q "SELECT group_concat(name || '=' || CAST(value AS INTEGER), ' ') FROM metric
	WHERE name LIKE 'layer\_%\_mem\_kb' ESCAPE '\' ORDER BY name")
ok "$(q "SELECT (SELECT value FROM metric WHERE name = 'layer_runtime_mem_kb') >
	5 * (SELECT value FROM metric WHERE name = 'layer_bare_mem_kb')")" = 1 \
	"a seed with torch imported is over 5 times the bare one ($got)"

cat >"$tmp/t.ini" <<INI
[experiment threads]
workload = cnn-classification
runtime = python
backend = zygote
seed-layer = warm
instances = 2
size = test
threads = 2
invocations = 3
warmup = 1
INI
timeout 600 "$CVMBENCH" -q run "$tmp/t.ini" --db "$tmp/t.db" 2>"$tmp/err"; rc=$?
is "$rc" 0 "warm children with --threads 2 from the single-threaded seed serve their calls"
is "$(sqlite3 "$tmp/t.db" "SELECT group_concat(threads) || ' ' || (SELECT count(*) FROM invocation
	WHERE ok = 1) FROM instance")" "2,2 4" "both say threads=2 and the 4 calls (a warm-up, 3 measured) succeeded"
