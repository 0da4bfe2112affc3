#!/bin/bash
# tests/system/idle-policy.t - the idle knob on the real kernel, as root:
# under idle = poll the halt state's usage stays flat while a sleep/wake
# loop runs, under hlt it grows; haltpoll:N sets guest_halt_poll_ns for the
# cell and puts the value found back afterwards. On a machine where the
# tool finds no cpuidle driver: the no-driver checks (idle-nodrv-lib.sh)
# on the real machine instead - poll skipped with its reason, hlt measured
# as it is, spin stored as spin.
set -u
. "$(dirname "$0")/idle-lib.sh"
. tests/system/idle-nodrv-lib.sh

if [ "$(id -u)" = 0 ] && [ -x ./cvmbench ] && [ "$(envfact cpuidle.driver)" = none ]; then
	plan 12
	check_no_driver "$tmp" "this machine, no cpuidle driver"
	exit 0
fi
plan 9
why=$(why_not_idle)
if [ -n "$why" ]; then skip_rest 9 "$why"; exit 0; fi

cat > "$tmp/p.ini" <<'INI'
[defaults]
workload = hello-world
threads = 2
wait = block
invocations = 2000
warmup = 2
probes = latency, idle
[experiment idle-test]
idle = poll, hlt
INI
sleep_loop & bg_pids="$bg_pids $!"
./cvmbench run "$tmp/p.ini" --db "$db" 2> "$tmp/err"; rc=$?
kill $bg_pids 2>/dev/null
is "$rc" 0 "run with idle = poll, hlt exits 0"; [ "$rc" = 0 ] || show_err
poll=$(cell_of poll); hlt=$(cell_of hlt)
is "$(q "SELECT status FROM cell WHERE id = $poll")" ok "poll cell ok (knob verify: halt usage did not grow)"
is "$(metric "$poll" halt_entries)" 0.0 "poll: halt state entries stay 0 while the sleep loop runs"
ok "$(metric "$poll" poll_entries | cut -d. -f1)" -gt 20 "poll: POLL state entered instead"
ok "$(metric "$hlt" halt_entries | cut -d. -f1)" -gt 20 "hlt: halt state entries grow"
# the haltpoll governor still picks POLL when some process holds a CPU
# latency request of 0 (PM QoS, e.g. /dev/cpu_dma_latency): a stray few under
# a loaded suite, so at most 5 % of the halt entries, not none
hp=$(metric "$hlt" poll_entries | cut -d. -f1) hh=$(metric "$hlt" halt_entries | cut -d. -f1)
ok "$((${hp:-1} * 20 <= ${hh:-0}))" = 1 \
	"hlt: POLL state (almost) not entered (guest_halt_poll_ns = 0): $hp POLL vs $hh halt entries"

# haltpoll:N: the value is set during the cell, the old one is back after.
cat > "$tmp/h.ini" <<'INI'
[defaults]
workload = image-recognition
threads = 2
invocations = 60
probes = latency
[experiment idle-test-haltpoll]
idle = haltpoll:123456
INI
./cvmbench run "$tmp/h.ini" --db "$db" 2> "$tmp/err" & run=$!
wait_for_value "$HP" 123456 30; seen=$?
wait $run; rc=$?
is "$seen/$rc" 0/0 "haltpoll:123456 sets guest_halt_poll_ns during the cell"
is "$(cat "$HP")" "$hp_orig" "guest_halt_poll_ns is back to the value found ($hp_orig)"
is "$(q "SELECT status FROM cell ORDER BY id DESC LIMIT 1")" ok "haltpoll cell ok"
