#!/bin/bash
# tests/system/journal-kill.t - kill -9 at three points of a run that changes
# host settings, then `cvmbench restore`, then a byte-for-byte comparison of
# every setting the run touched with what it was before (issue 9): the
# haltpoll governor's guest_halt_poll_ns (idle = haltpoll:N), cgroup2's
# mount options (favordynmods = on, crun), the cgroup v1 hierarchies crun
# makes the run mount (the hugetlb move), cgroups, tracefs instances and
# mounts, KSM and THP, and the state directory. The killed run is marked
# `interrupted` with the time of the recovery, by restore or by the next run.
# Points: (1) the first setting just changed, (2) in the middle of the first
# cell, containers in flight, (3) in the second cell, after the first was
# restored and the second applied. Each part runs where its requirement is
# met (haltpoll governor; crun); with neither, everything is skipped.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/journal-lib.sh

N=19
plan $N
HP=/sys/module/haltpoll/parameters/guest_halt_poll_ns
GOV=/sys/devices/system/cpu/cpuidle/current_governor_ro
why=
[ "$(id -u)" = 0 ] || why="needs root"
[ -z "$why" ] && ! command -v sqlite3 >/dev/null && why="no sqlite3"
have_idle=; have_crun=
[ -z "$why" ] && [ -w "$HP" ] && [ "$(cat $GOV 2>/dev/null)" = haltpoll ] && have_idle=1
[ -z "$why" ] && command -v crun >/dev/null && grep -q cgroup2 /proc/self/mountinfo && have_crun=1
[ -z "$why" ] && [ -z "$have_idle$have_crun" ] &&
	why="neither the haltpoll governor (guest_halt_poll_ns) nor crun with a cgroup2 mount"
if [ -n "$why" ]; then skip_rest $N "$why"; exit 0; fi

tmp=$(mktemp -d)
trap 'cleanup_restored "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
db=$tmp/r.db
q() { sqlite3 "$db" "$@"; }

# crun with favordynmods = on only where the tool applies it: in a cgroup
# namespace of its own (a container) the kernel accepts the remount and
# changes nothing, the cell is a skip, and the kill points would wait for
# a change that never comes. The tool's own verdict, from one cell.
if [ -n "$have_crun" ]; then
	printf '[experiment probe]\nworkload = null\ninvocations = 1\nwarmup = 0\nbackend = crun\nmode = cold\nfavordynmods = on\n' > "$tmp/p.ini"
	./cvmbench run "$tmp/p.ini" --db "$tmp/p.db" --data-dir "$tmp/data" >/dev/null 2>"$tmp/perr"
	if [ "$(sqlite3 "$tmp/p.db" "SELECT status FROM cell" 2>/dev/null)" != ok ]; then
		have_crun=
		crun_why=$(grep -m1 'skipped:' "$tmp/perr" | sed 's/.*skipped: //')
		[ -z "$have_idle" ] && { skip_rest $N "crun with favordynmods = on: ${crun_why:-not ok here}"; exit 0; }
	fi
fi

# Every setting the run may touch, one per line.
snapshot() {
	echo "guest_halt_poll_ns $(cat $HP 2>/dev/null)"
	mounts
	ls /sys/fs/cgroup
	ls -d /sys/fs/cgroup/*/cvmbench-* 2>/dev/null
	ls /sys/kernel/tracing/instances 2>/dev/null
	cat /sys/kernel/mm/ksm/run /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null
	state_left
	runc list -q 2>/dev/null; crun list -q 2>/dev/null
}

# kini N: the killed runs' config, N invocations in the first cell (point 3
# waits for the second cell: a short first one takes it there sooner)
kini() {
	echo "[defaults]"
	echo "workload = hello-world"
	echo "invocations = 400"
	echo "warmup = 0"
	echo "probes = latency, idle"
	if [ -n "$have_crun" ]; then
		echo "backend = crun"; echo "mode = cold"; echo "favordynmods = on"
	fi
	echo "[experiment kill-a]"
	echo "invocations = $1"
	[ -n "$have_idle" ] && echo "idle = haltpoll:77777"
	echo "[experiment kill-b]"
	[ -n "$have_idle" ] && echo "idle = haltpoll:88888"
}
kini 400 > "$tmp/k.ini"
kini 5 > "$tmp/k3.ini"
# favordynmods in cgroup2's options: changed by the run.
favor() { grep -c ' - cgroup2 .*favordynmods' /proc/self/mountinfo; }

mkdir -p "$CVMBENCH_STATE_DIR"
before=$(snapshot)

# wait_until CMD...: poll up to 30 s; 0 once CMD succeeds.
wait_until() {
	local i
	for ((i = 0; i < 600; i++)); do "$@" && return 0; sleep 0.05; done
	return 1
}
changed() {
	if [ -n "$have_idle" ]; then [ "$(cat $HP)" = "$1" ]; else [ "$(favor)" = 1 ]; fi
}
rows() { [ "$(q "SELECT count(*) FROM invocation" 2>/dev/null)" -ge "$1" ] 2>/dev/null; }
cell2() { [ "$(q "SELECT count(*) FROM cell WHERE experiment = 'kill-b'" 2>/dev/null)" = 1 ]; }

# kill_at NAME CONDITION...: start the run, kill -9 it once CONDITION holds.
killed=   # the PID of the last run kill_at killed (after_kill reads it)
ini=$tmp/k.ini
kill_at() {
	local name=$1 run; shift
	./cvmbench run "$ini" --db "$db" --data-dir "$tmp/data" 2>"$tmp/err" & run=$!
	killed=$run
	wait_until "$@"; local seen=$?
	kill -9 $run; wait $run 2>/dev/null
	ok "$seen" = 0 "$name: killed with host settings changed"
}

# after_kill NAME: restore, compare, check the run row.
after_kill() {
	local now
	./cvmbench restore >"$tmp/restore" 2>&1
	is "$?" 0 "$1: cvmbench restore exits 0" || sed "s/^/# /" "$tmp/restore"
	now=$(snapshot)
	is "$now" "$before" "$1: every setting byte for byte as before" ||
		diff <(echo "$before") <(echo "$now") | sed 's/^/# /'
	is "$(q "SELECT status, ended_at IS NOT NULL FROM run ORDER BY id DESC LIMIT 1")" \
		"interrupted|1" "$1: the killed run is marked interrupted, with an end time"
	# gone, or (a shared machine) another live run's: its PID is not the killed run's
	local holder
	holder=$(cat /run/cvmbench.lock 2>/dev/null)
	ok "${holder:-none}" != "$killed" "$1: the killed run's host lock file is removed by restore (now: ${holder:-none})"
	[ -z "$holder" ] || [ -d "/proc/$holder" ] ||
		echo "#   /run/cvmbench.lock names $holder, which is not running"
}

kill_at "point 1 (first setting)" changed 77777
after_kill "point 1"
kill_at "point 2 (mid-cell)" eval 'changed 77777 && rows 5'
after_kill "point 2"
ini=$tmp/k3.ini
kill_at "point 3 (second cell)" eval 'cell2 && changed 88888'
after_kill "point 3"
ini=$tmp/k.ini
is "$(q "SELECT count(*) FROM cell WHERE status = 'running'")" 0 \
	"no cell of the killed runs is left running"

# The next run recovers too: kill, then run again (no restore in between).
printf '[experiment next]\nworkload = null\ninvocations = 1\n' > "$tmp/n.ini"
kill_at "next run" eval 'changed 77777 && rows 2'
id=$(q "SELECT max(id) FROM run")
./cvmbench run "$tmp/n.ini" --db "$db" --data-dir "$tmp/data" >/dev/null 2>"$tmp/err2"
is "$?/$(q "SELECT status, ended_at > started_at FROM run WHERE id = $id")" "0/interrupted|1" \
	"the next run marks the killed one interrupted and restores its settings" ||
	sed 's/^/# /' "$tmp/err2"
now=$(snapshot)
is "$now" "$before" "after the next run: every setting byte for byte as before" ||
	diff <(echo "$before") <(echo "$now") | sed 's/^/# /'
