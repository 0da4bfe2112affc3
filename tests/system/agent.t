#!/bin/bash
# tests/system/agent.t - probes run on their side: on the native backend the
# instance-side probes (null, cpu) run through the agent protocol and their
# rows say so (cell_param P.side and P.agent), host probes (latency) do not;
# the agent's invocation rows land on the right invocation (the null probe's
# window number against the invocation's own seq); a probe whose start or
# stop fails on a window (CVMBENCH_NULL_FAIL) has a skip row for that window
# and no number for it, the other windows and probes are measured;
# `cvmbench agent` speaks the protocol on stdin/stdout, line for line.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
unset CVMBENCH_NULL_FAIL

plan 17

cat > "$tmp/a.ini" <<'INI'
[experiment agent]
workload = null
probes = latency, null, cpu
invocations = 20
warmup = 3
INI
db=$tmp/a.db
q() { sqlite3 "$db" "$@"; }
$CVMBENCH run "$tmp/a.ini" --db "$db" 2>"$tmp/err"; rc=$?
is "$rc" 0 "a run with host and instance probes exits 0"
is "$(q "SELECT key || '=' || value FROM cell_param WHERE key LIKE '%.side' ORDER BY key" | tr '\n' ' ')" \
	"cpu.side=instance latency.side=host null.side=instance " "each probe's side is noted"
is "$(q "SELECT key FROM cell_param WHERE key LIKE '%.agent' AND value LIKE 'in-process (cvmbench pid %)' ORDER BY key" | tr '\n' ' ')" \
	"cpu.agent null.agent " "the instance probes' rows came through the in-process agent, the host probe's did not"
is "$(q "SELECT count(*) FROM metric m JOIN invocation i ON i.id = m.invocation_id
	WHERE m.probe = 'null' AND m.name = 'window' AND i.phase = 'measured' AND m.value = i.seq - 3")" 20 \
	"every measured call has its null window row, on its own invocation (window = seq - warmup)"
is "$(q "SELECT count(*) FROM metric WHERE probe = 'cpu' AND name = 'burnt'")" 1 "cpu rows came back through the agent"
is "$(q "SELECT count(*) FROM metric WHERE probe = 'latency' AND name = 'samples' AND value = 20")" 1 "host probe latency measured as before"
is "$(q "SELECT count(*) FROM skip")" 0 "no skips"

# start fails on window 4, stop on window 9 and on the cell window
db=$tmp/f.db
CVMBENCH_NULL_FAIL=start:4,stop:9,stop:cell $CVMBENCH run "$tmp/a.ini" --db "$db" 2>"$tmp/err"; rc=$?
is "$rc $(q "SELECT status FROM cell")" "3 ok" "failed start/stop: the cell is measured, the run finishes with skips (exit 3)"
is "$(q "SELECT reason FROM skip WHERE probe = 'null' ORDER BY id" | sed 's/:.*//' | tr '\n' ',')" \
	"invocation 7 window,invocation 12 window,cell window," "one skip row per failed window, naming it by the invocation's seq"
grep -q "start failed on purpose" <<<"$(q "SELECT reason FROM skip WHERE reason LIKE 'invocation 7 window: start failed%'")"
ok $? = 0 "and the reason says what failed"
is "$(q "SELECT group_concat(CAST(value AS INTEGER)) FROM (SELECT value FROM metric WHERE probe = 'null' AND name = 'window' ORDER BY value)")" \
	"0,1,2,3,5,6,7,8,10,11,12,13,14,15,16,17,18,19" "no number for windows 4 and 9"
is "$(q "SELECT count(*) FROM metric WHERE probe = 'null' AND invocation_id IS NULL")" 0 \
	"no cell numbers from a probe whose cell window failed to stop"
is "$(q "SELECT count(*) FROM metric WHERE probe = 'cpu' AND name = 'burnt'")" 1 "the other instance probe is measured"

# start fails on the cell window: its invocation windows are still measured
db=$tmp/c.db
CVMBENCH_NULL_FAIL=start:cell $CVMBENCH run "$tmp/a.ini" --db "$db" 2>"$tmp/err"; rc=$?
is "$rc $(q "SELECT reason FROM skip" | sed 's/:.*//')" "3 cell window" "failed start of the cell window: one skip row"
is "$(q "SELECT count(*) FROM metric WHERE probe = 'null' AND name = 'window'")" 20 "the invocation windows are measured"
is "$(q "SELECT count(*) FROM metric WHERE probe = 'null' AND name LIKE 'windows_%'")" 0 "no cell numbers"

# the agent as its own process, on stdin/stdout: the exact transcript
printf 'probe open null\nprobe start null inv 0\nprobe stop null inv 0\nprobe emit null inv 0\nprobe open latency\nbogus\nprobe emit null cell 0\nprobe close null\n' |
	$CVMBENCH agent >"$tmp/out" 2>"$tmp/err"; rc=$?
cat > "$tmp/want" <<'OUT'
note null cell 0 agent cvmbench agent (pid N)
ack null open none 0 0
ack null start inv 0 0
ack null stop inv 0 0
metric null inv 0 window 0 count
ack null emit inv 0 0
ack latency open none 0 -22 a host probe runs in cvmbench, not in the agent
ack - open none 0 -71 cannot parse request 'bogus'
metric null cell 0 windows_started 1 count
metric null cell 0 windows_stopped 1 count
metric null cell 0 windows_with_pids 0 count
ack null emit cell 0 0
ack null close none 0 0
OUT
is "$rc $(sed 's/(pid [0-9]*)/(pid N)/' "$tmp/out" | diff - "$tmp/want" && echo same)" "0 same" \
	"cvmbench agent: rows and acks on stdout, one ack per request, a bad line refused"
