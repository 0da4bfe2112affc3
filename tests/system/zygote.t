#!/bin/bash
# zygote.t - instances forked from seeds (issue 33): the uniqueness check
# passes with re-seeding and fails without it (the entropy the children drew,
# compared by the check itself, not by a formula of ours); the warm layer is
# refused where the manifest says init makes something every child would
# share; a run of backend zygote stores one start split per call and leaves
# no seed behind.
. tests/system/tap.sh
plan 9
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_DATA_DIR=$tmp/data CVMBENCH_STATE_DIR=$tmp/state
"$CVMFN" prepare matmul >/dev/null

"$CVMFN" fork-check matmul --children 4 >"$tmp/out"; rc=$?
is "$rc" 0 "fork-check passes with re-seeding"
is "$(grep -c ': pass$' "$tmp/out")" 3 "every layer passes"
CVMFN_ZYGOTE_NO_RESEED=1 "$CVMFN" fork-check matmul --children 4 >"$tmp/out"; rc=$?
is "$rc" 1 "fork-check fails without re-seeding"
is "$(grep -E '^(runtime|warm) .*entropy repeated in 3,.*FAIL$' "$tmp/out" | wc -l)" 2 \
	"the runtime and warm children repeat the seed's buffered entropy"
"$CVMFN" fork-check crud-api --children 2 >"$tmp/out"
ok "$(grep -c '^warm *not offered: .*scratch directory' "$tmp/out")" -eq 1 \
	"the warm layer of crud-api is refused by its manifest"

cat >"$tmp/z.ini" <<INI
[experiment z]
workload = matmul
backend = zygote
seed-layer = bare, warm
mode = cold
size = test
threads = 2
invocations = 3
warmup = 0
INI
"$CVMBENCH" -q run "$tmp/z.ini" --db "$tmp/r.db" 2>"$tmp/err"; rc=$?
is "$rc" 0 "a zygote run of both layers"
is "$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM seed_start WHERE fork_ns > 0 AND init_ns > 0 AND first_call_ns > 0")" 6 \
	"one start split per cold call"
is "$(pgrep -f "cvmfn seed matmul.*$tmp/data" | wc -l)" 0 "no seed left after the run"

# seed-layer on another backend would be ignored: list says why not, the cell is a skip
mkdir -p "$tmp/cfgs"
printf '[experiment s]\nworkload = null\nbackend = native\nseed-layer = warm\n' > "$tmp/cfgs/s.ini"
grep -q "s.ini:s .*seed-layer = warm: backend = native does not fork instances from a seed" \
	<<<"$("$CVMBENCH" list --configs "$tmp/cfgs" 2>&1)"
is "$?" 0 "seed-layer on a native cell: not supported here, saying why"
