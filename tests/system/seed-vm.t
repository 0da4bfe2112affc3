#!/bin/bash
# tests/system/seed-vm.t - seed-layer in qemu cells (issue 33): in a TCG
# guest the agent runs one `cvmfn seed` and forks every instance from it.
# Two cells, one boot each: warm matmul in a regular VM (3 instances) and
# runtime graph-bfs in a model VM (2 instances). Checked against what the
# test asked and what the guest's kernel said: one seed_start row per
# instance started, each split with fork_ns, init_ns and first_call_ns > 0;
# the children that reported (their own getpid) are the ones the agent read
# in /proc, and each one's parent there is the seed's pid; seed_memory holds
# k rows per sample with k children alive (1 + .. + N-1 before the forks,
# N after the calls) with PSS, USS and kB on the seed's frames read in the
# guest (the agent is root there: no NULL); every call answered, one digest
# per cell; the
# seed-start figure draws the two cells as regular and model. SKIPs without
# root or QEMU (a failure under CI). About a minute (two TCG boots).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/guest-lib.sh

N=14
guest_test_begin $N || exit 0
cat >"$tmp/s.ini" <<'EOF2'
[defaults]
backend = qemu
accel = tcg
size = test
threads = 1
warmup = 0
probes = latency
[experiment regular]
workload = matmul
seed-layer = warm
instances = 3
instances-per-vm = 3
invocations = 6
[experiment model]
workload = graph-bfs
confidential = model
seed-layer = runtime
instances = 2
instances-per-vm = 2
invocations = 4
EOF2
db=$tmp/s.db
q() { sqlite3 "$db" "$@"; }
t0=$(date +%s)
$CVMBENCH run "$tmp/s.ini" --db "$db" --wait-lock 600 >"$tmp/out" 2>&1
is "$?" 0 "two qemu cells forked from seeds in TCG guests ($(($(date +%s) - t0)) s)" ||
	sed 's/^/# /' "$tmp/out" | tail -20
cid() { q "SELECT cell_id FROM cell_param WHERE key = 'experiment' AND value = '$1'"; }
reg=$(cid regular) mod=$(cid model)
is "$(q "SELECT status FROM cell WHERE id IN ($reg, $mod) ORDER BY id" | tr '\n' ' ')" "ok ok " \
	"both cells are ok"
is "$(q "SELECT count(*) FROM seed_start WHERE cell_id = $reg") $(q "SELECT count(*) FROM \
seed_start WHERE cell_id = $mod")" "3 2" "one seed_start row per instance started (3 and 2)"
is "$(q "SELECT count(*) FROM seed_start WHERE fork_ns > 0 AND init_ns > 0 AND first_call_ns > 0 \
AND layer = CASE cell_id WHEN $reg THEN 'warm' ELSE 'runtime' END")" 5 \
	"each start split into fork, rest of init and first call (> 0), at the cell's layer"
is "$(q "SELECT sum(ok), count(DISTINCT digest) FROM invocation WHERE cell_id = $reg") \
$(q "SELECT sum(ok), count(DISTINCT digest) FROM invocation WHERE cell_id = $mod")" "6|1 4|1" \
	"every call answered, with one digest per cell (6 and 4 calls)"
# the agent's reading in the guest: seed.vm0.pid and CHILD:PARENT pairs
param() { q "SELECT value FROM cell_param WHERE cell_id = $1 AND key = '$2'"; }
for c in $reg $mod; do
	seed=$(param "$c" seed.vm0.pid)
	pairs=$(param "$c" seed.vm0.parents)
	kids=$(tr ' ' '\n' <<<"$pairs" | cut -d: -f1 | sort -n | tr '\n' ' ')
	parents=$(tr ' ' '\n' <<<"$pairs" | cut -d: -f2 | sort -u | tr '\n' ' ')
	started=$(q "SELECT pid FROM seed_start WHERE cell_id = $c ORDER BY pid" | tr '\n' ' ')
	ok "${seed:-0}" -gt 1 "cell $c: the guest's seed has a pid ($seed)"
	is "$parents|$kids" "$seed |$started" \
		"cell $c: the children that reported ($started) are the seed's in the guest's /proc"
done
is "$(q "SELECT called, children, count(*) FROM seed_memory WHERE cell_id = $reg GROUP BY 1, 2" |
	tr '\n' ' ')" "0|1|1 0|2|2 1|3|3 " \
	"seed_memory: 1 row with 1 child, 2 with 2 (before forks), 3 after the calls"
is "$(q "SELECT called, children, count(*) FROM seed_memory WHERE cell_id = $mod GROUP BY 1, 2" |
	tr '\n' ' ')" "0|1|1 1|2|2 " "... 1 then 2 in the model cell"
is "$(q "SELECT count(*) FROM seed_memory WHERE cell_id IN ($reg, $mod) AND pss_kb > 0 AND \
uss_kb >= 0 AND private_dirty_kb >= 0 AND seed_shared_kb > 0 AND seed_pss_kb > 0")" 9 \
	"every memory row measured in the guest (kB on the seed's frames too: root there)"
is "$(q "SELECT count(*) FROM metric WHERE cell_id IN ($reg, $mod) AND name IN \
('layer_warm_mem_kb', 'layer_runtime_mem_kb', 'layer_runtime_start_s') AND value > 0")" 3 \
	"the layer metrics: the seeds' PSS, the runtime layer's start"
$CVMBENCH plot seed-start --db "$db" --out "$tmp/s.svg" >/dev/null 2>&1
is "$(grep -o '<text>[^<]*</text>' "$tmp/s.svg" | grep -E 'warm, regular|runtime, model' |
	sort | tr '\n' ' ')" "<text>graph-bfs runtime, model</text> <text>matmul warm, regular</text> " \
	"seed-start draws the cells as a regular and a model VM"
