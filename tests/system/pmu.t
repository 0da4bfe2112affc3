#!/bin/bash
# tests/system/pmu.t - the pmu probe against what the harness and the
# kernel say independently: task-clock of a single-threaded CPU-bound call
# is within 5 % of the time cvmfn measures itself for that call (function
# plus output hash, CLOCK_MONOTONIC); context-switches per call grow when
# idle workers block instead of spinning (graph-bfs: a barrier per BFS
# level); the default hardware set either counts (a PMU: hardware.* rows
# and instructions_per_cycle) or is a skip row per event with the software fallback (no PMU,
# as `cvmbench env` pmu.hardware says), never a zero; an event name
# libpfm4 does not know is a config error naming file:line (exit 2). In a
# qemu guest (TCG) the probe runs in the guest agent, per CPU, with the
# agent's built-in table of generic events (SKIP without root or QEMU).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data

N=12
plan $N
# perf refused here (perf_event_paranoid, a seccomp filter) is a machine
# capability: a skip with the probe's reason, also under CI
pmu_here=$(here pmu)
if [ "$pmu_here" != "supported here" ]; then
	skip_rest $N "pmu probe not supported here: ${pmu_here:-not listed by cvmbench list}"
	exit 0
fi

q() { sqlite3 "$tmp/r.db" "$1"; }
# median of a per-invocation SQL expression over the rows of a query body
median() {
	q "WITH v AS ($1) SELECT x FROM v ORDER BY x LIMIT 1 OFFSET (SELECT count(*) / 2 FROM v)"
}

cat > "$tmp/c.ini" <<INI
[defaults]
probes = latency, pmu
warmup = 2
invocations = 31
size = test

[experiment tc]
workload = logistic-regression
threads = 1
pmu-events = task-clock, context-switches

[experiment cs]
workload = graph-bfs
threads = 2
wait = spin, block
pmu-events = task-clock, context-switches

[experiment def]
workload = null
invocations = 3
INI
$CVMBENCH run "$tmp/c.ini" --db "$tmp/r.db" 2>"$tmp/err"; rc=$?
ok "$rc" -le 3 "the run ends measured or partial (rc $rc)" || sed 's/^/# /' "$tmp/err"

ratio=$(median "SELECT m.value / (i.fn_ns + max(i.digest_ns, 0)) AS x FROM metric m
	JOIN invocation i ON i.id = m.invocation_id JOIN cell c ON c.id = m.cell_id
	WHERE c.experiment = 'tc' AND m.name = 'software.task-clock'")
echo "# task-clock / (fn_ns + digest_ns), median of 31 calls: $ratio"
quiet_ok "$(awk -v r="${ratio:-0}" 'BEGIN { print (r > 0.95 && r < 1.05) }')" "$tmp/r.db" tc \
	"task-clock within 5 % of the function time cvmfn measured"
is "$(q "SELECT count(*) FROM metric m JOIN cell c ON c.id = m.cell_id WHERE m.probe = 'pmu'
	AND m.invocation_id IS NOT NULL AND m.name = 'software.task-clock' AND
	c.experiment != 'def'")" 93 "a task-clock row per measured call"
is "$(q "SELECT count(*) > 100, sum(value <= 0 OR value > 1) FROM metric WHERE
	probe = 'pmu' AND name LIKE '%.running'")" "1|0" \
	"every event's share of its window on a counter is in (0, 1]"

cs() {
	median "SELECT m.value AS x FROM metric m JOIN cell c ON c.id = m.cell_id
		WHERE c.experiment = 'cs' AND c.wait = '$1' AND m.invocation_id IS NOT NULL
		AND m.name = 'software.context-switches'"
}
spin=$(cs spin); block=$(cs block)
echo "# context-switches per graph-bfs call, median: spin $spin, block $block"
if [ "$(nproc)" -lt 2 ]; then   # one CPU: a spinning worker is switched out as often
	skip "context-switches spin vs block: needs 2 allowed CPUs (nproc: $(nproc))"
else
	quiet_ok "$(awk -v s="${spin:-0}" -v b="${block:-0}" 'BEGIN { print (b >= 2 * s && b >= s + 2) }')" \
		"$tmp/r.db" cs "context-switches grow with wait = block against spin ($spin -> $block)"
fi

hw=$($CVMBENCH env 2>/dev/null | awk '$1 == "pmu.hardware" { print $2 }')
skips=$(q "SELECT count(*) FROM skip s JOIN cell c ON c.id = s.cell_id WHERE
	c.experiment = 'def' AND s.probe = 'pmu' AND s.reason LIKE '%: not counted: %'")
hwrows=$(q "SELECT count(*) FROM metric m JOIN cell c ON c.id = m.cell_id WHERE
	c.experiment = 'def' AND m.name LIKE 'hardware.%'")
if [ "$hw" = yes ]; then
	ok "$hwrows" -gt 0 "a hardware PMU: the default set is counted (hardware.* rows)"
	ok "$(q "SELECT count(*) FROM metric WHERE name = 'instructions_per_cycle'")" -gt 0 "instructions_per_cycle derived"
else
	is "$skips/$hwrows" "6/0" "no hardware PMU: a skip row per default event, no hardware row"
	is "$(q "SELECT count(*) FROM cell_param WHERE key = 'pmu.fallback'") $(q "SELECT
		count(*) > 0 FROM metric WHERE name = 'software.task-clock' AND cell_id IN
		(SELECT id FROM cell WHERE experiment = 'def')")" "1 1" \
		"and the software fallback is counted and noted"
fi

printf '[defaults]\nprobes = pmu\n\n[experiment x]\nworkload = null\npmu-events = cycles, no-such-event\n' \
	> "$tmp/bad.ini"
$CVMBENCH run "$tmp/bad.ini" --db "$tmp/bad.db" 2>"$tmp/bad.err"; rc=$?
is "$rc $(grep -c "bad.ini:6: .*no-such-event" "$tmp/bad.err")" "2 1" \
	"an event libpfm4 does not know is a config error at file:line (exit 2)"

# --- in a container: the function is the runtime's child --------------------------------
runc_here=$(here runc)
if [ "$(id -u)" = 0 ] && command -v runc >/dev/null && [ "$runc_here" = "supported here" ]; then
	sed -e 's/^\[experiment cs\]/[experiment cs-off]\nworkload = null\ninvocations = 1/' \
		-e 's/^workload = logistic-regression$/workload = logistic-regression\nbackend = runc/' \
		"$tmp/c.ini" | awk '/^\[experiment cs-off\]/ { exit } { print }' > "$tmp/runc.ini"
	$CVMBENCH run "$tmp/runc.ini" --db "$tmp/runc.db" --wait-lock 600 2>"$tmp/runc.err"
	r=$(sqlite3 "$tmp/runc.db" "WITH v AS (SELECT m.value / (i.fn_ns + max(i.digest_ns, 0))
		AS x FROM metric m JOIN invocation i ON i.id = m.invocation_id WHERE
		m.name = 'software.task-clock') SELECT x FROM v ORDER BY x LIMIT 1 OFFSET
		(SELECT count(*) / 2 FROM v)")
	echo "# runc: task-clock / (fn_ns + digest_ns), median: $r"
	quiet_ok "$(awk -v r="${r:-0}" 'BEGIN { print (r > 0.95 && r < 1.25) }')" "$tmp/runc.db" tc \
		"runc: task-clock counts the container's cvmfn (the runtime's child), not runc alone"
else
	skip "runc: ${runc_here:-not listed by cvmbench list} (needs root and runc)"
fi

# --- in a guest: the agent's side --------------------------------------------------
why=
[ "$(id -u)" = 0 ] || why="needs root"
[ -z "$why" ] && ! command -v qemu-system-x86_64 >/dev/null && why="qemu-system-x86_64 is not installed"
command -v mkfs.ext4 >/dev/null || PATH=$PATH:/usr/sbin:/sbin
[ -z "$why" ] && ! $CVMBENCH guest build >"$tmp/gb" 2>&1 && why="no guest image: $(tail -c 200 "$tmp/gb")"
if [ -n "$why" ]; then
	skip_all 3 "$why"
fi
cat > "$tmp/g.ini" <<INI
[experiment g]
workload = graph-bfs
backend = qemu
accel = tcg
size = test
invocations = 5
warmup = 1
probes = latency, pmu
INI
TMPDIR=$tmp $CVMBENCH run "$tmp/g.ini" --db "$tmp/g.db" 2>"$tmp/gerr"; rc=$?
is "$rc $(sqlite3 "$tmp/g.db" "SELECT count(*) FROM metric WHERE probe = 'pmu' AND
	invocation_id IS NOT NULL AND name = 'software.context-switches'")" "3 5" \
	"in a guest: a context-switches row per call (partial: the uncounted events)" ||
	sed 's/^/# /' "$tmp/gerr"
is "$(sqlite3 "$tmp/g.db" "SELECT substr(value, 1, 6) FROM cell_param WHERE key IN
	('pmu.vantage', 'pmu.scope') ORDER BY key" | tr '\n' ,)" "per CP,guest:," \
	"... measured by the guest agent, per CPU"
is "$(sqlite3 "$tmp/g.db" "SELECT count(*) FROM cell_param WHERE key = 'sanity.vcpus_unpinned'")" 1 \
	"the qemu cell carries the setup flag of its unpinned vCPU threads"
