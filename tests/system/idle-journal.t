#!/bin/bash
# tests/system/idle-journal.t - what the idle knob and probe change is put
# back exactly: guest_halt_poll_ns after a normal end, after Ctrl-C (SIGINT
# to cvmbench run) and after kill -9 followed by `cvmbench restore`; the
# POLL request ends with the process; no tracefs instance is left behind.
# The baseline is the value found: the test never writes the parameter
# itself, because another cvmbench run on the machine could journal a test
# value as "the old one" and put it back later.
set -u
. "$(dirname "$0")/idle-lib.sh"

plan 14
why=$(why_not_idle)
if [ -n "$why" ]; then skip_rest 14 "$why"; exit 0; fi
trwhy=$(why_not_tracefs)

# Long enough to be caught mid-cell: 1000 ResNet test-size calls.
cat > "$tmp/j.ini" <<'INI'
[defaults]
workload = image-recognition
threads = 2
invocations = 1000
probes = latency, idle
[experiment idle-journal]
idle = haltpoll:99999
INI
cat > "$tmp/n.ini" <<'INI'
[defaults]
workload = hello-world
invocations = 50
probes = latency, idle, cpu
[experiment idle-journal-normal]
idle = hlt, poll, haltpoll:55555
INI

# 1. Normal end.
./cvmbench run "$tmp/n.ini" --db "$db" 2> "$tmp/err"; rc=$?
is "$rc" 0 "normal run exits 0"; [ "$rc" = 0 ] || show_err
is "$(cat "$HP")" "$hp_orig" "normal end: guest_halt_poll_ns back to $hp_orig"
is "$(instances_left)" 0 "normal end: no tracefs instance left"
is "$(wc -c < "$CVMBENCH_STATE_DIR/journal")" 0 "normal end: journal empty"

# 2. Ctrl-C in the middle of a cell.
./cvmbench run "$tmp/j.ini" --db "$db" 2> "$tmp/err" & run=$!
wait_for_value "$HP" 99999 30; seen=$?
sleep 0.3
kill -INT "$run"; wait "$run"; rc=$?
is "$seen/$rc" 0/130 "SIGINT mid-cell: exit 130 (interrupted)"
is "$(cat "$HP")" "$hp_orig" "SIGINT: guest_halt_poll_ns back to $hp_orig"
is "$(instances_left)" 0 "SIGINT: no tracefs instance left"

# 3. kill -9: nothing runs to restore, the journal remembers.
./cvmbench run "$tmp/j.ini" --db "$db" 2> "$tmp/err" & run=$!
wait_for_value "$HP" 99999 30; seen=$?
# Wait until the idle probe has its instance (the cell's calls are running).
for ((i = 0; i < 200 && ${#trwhy} == 0; i++)); do
	[ "$(instances_left)" -ge 1 ] && break
	sleep 0.05
done
kill -9 "$run"; wait "$run" 2>/dev/null
is "$seen/$(cat "$HP")" 0/99999 "kill -9: the value stays changed (nothing restored it)"
if [ -n "$trwhy" ]; then
	skip "$trwhy"
else
	ok "$(instances_left)" -ge 1 "kill -9: the probe's tracefs instance is still there"
fi
./cvmbench restore > "$tmp/restore.out" 2>&1; rc=$?
is "$rc" 0 "cvmbench restore exits 0"
is "$(cat "$HP")" "$hp_orig" "restore: guest_halt_poll_ns back to $hp_orig"
is "$(instances_left)" 0 "restore: tracefs instance removed"
sleep 0.2
is "$(pgrep -f -- "--data-dir $tmp/data" | wc -l)" 0 "restore: the orphaned function instance is ended"

# 4. POLL: the cpu_dma_latency request ends with the process (kill -9).
cat > "$tmp/k.ini" <<'INI'
[defaults]
workload = image-recognition
threads = 2
invocations = 1000
probes = latency
[experiment idle-journal-poll]
idle = poll
INI
lat() { od -An -td4 -N4 /dev/cpu_dma_latency | tr -d ' '; }
before=$(lat)
./cvmbench run "$tmp/k.ini" --db "$db" 2> "$tmp/err" & run=$!
for ((i = 0; i < 200; i++)); do [ "$(lat)" = 0 ] && break; sleep 0.05; done
during=$(lat)
kill -9 "$run"; wait "$run" 2>/dev/null
sleep 0.2
is "$during/$(lat)" "0/$before" "poll: cpu_dma_latency 0 during the cell, $before after kill -9"
./cvmbench restore > /dev/null 2>&1
