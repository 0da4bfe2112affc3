#!/bin/bash
# tests/system/cold.t - cold mode on the native backend: every call starts
# new instances (`parallel` of them at once), and every invocation row
# points at an instance row of its own call (instances are numbered
# seq * parallel + k), never at another call's instance. The null probe
# sees the instances' pids in every measured cold window.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
db=$tmp/c.db
q() { sqlite3 "$db" "$@"; }

plan 8

cat > "$tmp/c.ini" <<'INI'
[experiment cold]
workload = hello-world
size = test
mode = cold
parallel = 1, 2, 3
invocations = 3
warmup = 1
probes = latency, null
INI
$CVMBENCH run "$tmp/c.ini" --db "$db" 2>"$tmp/err"; rc=$?
is "$rc" 0 "cold run with parallel 1, 2, 3 exits 0"
# per cell: parallel, instances stored, calls, distinct instance_idx
is "$(q "SELECT c.spec LIKE '%parallel = ' || p.value || '%', p.value,
	(SELECT count(*) FROM instance i WHERE i.cell_id = c.id),
	(SELECT count(*) FROM invocation v WHERE v.cell_id = c.id),
	(SELECT count(DISTINCT instance_idx) FROM invocation v WHERE v.cell_id = c.id)
	FROM cell c JOIN cell_param p ON p.cell_id = c.id AND p.key = 'parallel'
	ORDER BY p.value" | tr '\n' ' ')" "1|1|4|4|4 1|2|8|4|4 1|3|12|4|4 " \
	"parallel K: 4 calls, 4*K instances, a distinct instance per call"
is "$(q "SELECT count(*) FROM invocation v WHERE NOT EXISTS (SELECT 1 FROM instance i
	WHERE i.cell_id = v.cell_id AND i.idx = v.instance_idx)")" 0 \
	"every invocation's instance_idx is an instance row of its cell"
# The instances a call started are seq*K .. seq*K+K-1: its instance is one of them.
is "$(q "SELECT count(*) FROM invocation v JOIN cell_param p ON p.cell_id = v.cell_id
	AND p.key = 'parallel' WHERE v.instance_idx / CAST(p.value AS INTEGER) != v.seq")" 0 \
	"every invocation points at an instance its own call started"
is "$(q "SELECT count(*) FROM invocation v JOIN cell_param p ON p.cell_id = v.cell_id
	AND p.key = 'parallel' WHERE v.instance_idx != v.seq * CAST(p.value AS INTEGER)")" 0 \
	"namely the first start of the call, whose reply the row times"
# Each cold start is a new process: as many pids as instance rows.
is "$(q "SELECT count(DISTINCT pid) = count(*) FROM instance")" 1 "every instance row is its own process"
is "$(q "SELECT count(*) FROM invocation WHERE start != 'cold' OR ok != 1")" 0 "all calls cold and ok"
# probe_target.pids in cold mode: set for each of the 3 measured windows of each cell
is "$(q "SELECT group_concat(CAST(value AS INTEGER), ' ') FROM metric
	WHERE probe = 'null' AND name = 'windows_with_pids'")" "3 3 3" \
	"the null probe saw instance pids in every measured cold window"
