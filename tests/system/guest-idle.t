#!/bin/bash
# tests/system/guest-idle.t - a qemu cell's `idle` is the guest's (real TCG
# guests): `list` judges it against the guest (poll: idle=poll at boot;
# haltpoll:N a skip, a TCG guest has no cpuidle driver), `idle = poll`
# boots the guest with idle=poll and its idle probe - counting the guest's
# own power:cpu_idle tracepoint, halting entries (state != 0) apart - shows
# no halt entry, `idle = hlt` shows them; the cell records where it was
# applied. The host's cpuidle state (cpuidle sysfs, haltpoll parameters,
# /dev/cpu_dma_latency holders) is the same before and after, also after
# kill -9 of cvmbench mid-cell and `cvmbench restore`. `host-idle` alone
# acts on the host (here without a cpuidle driver: a skip naming the key).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/guest-lib.sh

N=15
guest_test_begin $N || exit 0

# The host's idle state: every readable cpuidle and haltpoll file, and who
# holds /dev/cpu_dma_latency open.
host_idle_state() {
	find /sys/devices/system/cpu/cpuidle /sys/devices/system/cpu/cpu*/cpuidle \
		/sys/module/haltpoll/parameters -type f 2>/dev/null |
		grep -v '/usage$\|/time$\|/above$\|/below$\|/rejected$' | sort |
		while read -r f; do printf '%s=%s\n' "$f" "$(cat "$f" 2>/dev/null)"; done
	ls -l /proc/[0-9]*/fd 2>/dev/null | grep -c 'cpu_dma_latency'
}
before=$(host_idle_state)

mkdir "$tmp/cfg"
cat >"$tmp/cfg/g.ini" <<'EOF2'
[defaults]
workload = hello-world
backend = qemu
accel = tcg
invocations = 12
warmup = 1
probes = latency, idle
[experiment gpoll]
idle = poll
[experiment ghlt]
idle = hlt
[experiment ghaltpoll]
idle = haltpoll:1000
[experiment hostpoll]
host-idle = poll
EOF2
l=$($CVMBENCH list --configs "$tmp/cfg" 2>&1)
is "$(awk '$1 == "g.ini:gpoll" { $1 = ""; print }' <<<"$l" | sed 's/^ *//')" "supported here" \
	"list: idle = poll in a TCG guest is supported (idle=poll at boot), whatever the host's cpuidle"
grep -q "g.ini:ghaltpoll.*haltpoll needs KVM: a TCG guest has no cpuidle driver" <<<"$l"
is "$?" 0 "list: haltpoll:N in a TCG guest says why not"

db=$tmp/g.db
q() { sqlite3 "$db" "$@"; }
$CVMBENCH run "$tmp/cfg/g.ini" --db "$db" >"$tmp/run.out" 2>&1; rc=$?
ok "$rc" -le 3 "the run ends (exit $rc)" || tail -20 "$tmp/run.out"
cid() { q "select c.id from cell c join cell_param p on p.cell_id = c.id where p.key = 'experiment' and p.value = '$1'"; }
par() { q "select value from cell_param where cell_id = $1 and key = '$2'"; }
met() { q "select cast(value as integer) from metric where cell_id = $1 and probe = 'idle' and invocation_id is null and name = '$2'"; }
poll=$(cid gpoll) hlt=$(cid ghlt) hp=$(cid ghaltpoll) host=$(cid hostpoll)
is "$(q "select status from cell where id in ($poll, $hlt) order by id" | tr '\n' ' ')" "ok ok " \
	"poll and hlt cells ran in their guests" || q "select message from error"
grep -qw "idle=poll" <<<"$(par "$poll" guest.kernel.cmdline)"
is "$?" 0 "poll: the guest's own /proc/cmdline has idle=poll"
is "$(par "$poll" idle.applied_in)/$(par "$poll" idle.applied_by)" "guest/kernel-cmdline" \
	"poll: recorded as applied in the guest, on its kernel command line"
grep -q "tracefs power:cpu_idle" <<<"$(par "$poll" idle.entries_source)"
is "$?" 0 "the guest's idle entries come from its power:cpu_idle tracepoint ($(par "$poll" idle.entries_source))"
ph=$(met "$poll" halt_entries) pp=$(met "$poll" poll_entries)
is "${ph:-none}" 0 "poll: no halt entry in the guest (state != 0 events: ${ph:-none})"
ok "${pp:-0}" -gt 0 "poll: ... while the guest did idle ($pp polling entries)"
hh=$(met "$hlt" halt_entries)
ok "${hh:-0}" -gt 0 "hlt: the guest halts ($hh halt entries from its tracepoint)"
is "$(par "$hlt" idle.applied_by)" "kernel-default" "hlt: the guest kernel's default (no cpuidle driver)"
grep -q "haltpoll needs KVM" <<<"$(q "select reason from skip where cell_id = $hp")"
is "$?" 0 "haltpoll:N under TCG is a skip naming why"
# judged on the host: a skip naming host-idle where the host cannot poll (no
# cpuidle driver, machine B), else applied there (host-idle.applied); never
# recorded as the guest's idle
if [ -n "$(q "select 1 from skip where cell_id = $host")" ]; then
	grep -q "^host-idle = poll: " <<<"$(q "select reason from skip where cell_id = $host")"
else
	[ -n "$(par "$host" host-idle.applied)" ]
fi
is "$? $(q "select count(*) from cell_param where cell_id = $host and key like 'idle.applied%'")" "0 0" \
	"host-idle = poll is judged on the host, as host-idle (skip: $(q "select reason from skip where cell_id = $host" | head -c 80); applied: $(par "$host" host-idle.applied))"
is "$(host_idle_state)" "$before" "the host's cpuidle state is as before the run"

# kill -9 mid-cell, then restore
cat >"$tmp/k.ini" <<'EOF2'
[experiment killed]
workload = hello-world
backend = qemu
accel = tcg
idle = poll
invocations = 100000
probes = latency, idle
EOF2
$CVMBENCH run "$tmp/k.ini" --db "$tmp/k.db" >"$tmp/k.out" 2>&1 & run=$!
# mid-cell: its guest is up (a QEMU of this test runs), then its calls run
for ((i = 0; i < 600; i++)); do
	pgrep -f "$tmp/cvmbench-vm-" >/dev/null && break
	sleep 0.1
done
sleep 5
kill -9 $run; wait $run 2>/dev/null
$CVMBENCH restore >"$tmp/r.out" 2>&1
is "$(host_idle_state)" "$before" "after kill -9 mid-cell and restore: the host's cpuidle state is as before"
