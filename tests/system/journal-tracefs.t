#!/bin/bash
# tests/system/journal-tracefs.t - a tracefs mount made by a run is one more
# journal object (kind tracefs-mount): when tracefs is not mounted, the run
# mounts it for its probes and unmounts it at its end; killed with SIGKILL,
# `cvmbench restore` unmounts it. Runs in a private mount namespace (unshare
# -m) where tracefs is unmounted first, so that the machine's own tracefs
# mount, and whoever uses it, is never touched.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=7
if [ -z "${CVMBENCH_IN_NS:-}" ]; then
	plan $N
	why=
	[ "$(id -u)" = 0 ] || why="needs root"
	[ -z "$why" ] && ! command -v unshare >/dev/null && why="no unshare (util-linux)"
	[ -z "$why" ] && ! grep -q tracefs /proc/filesystems && why="no tracefs in this kernel"
	[ -z "$why" ] && ./cvmbench list 2>/dev/null | grep -q 'built without libtracefs' &&
		why="built without libtracefs"
	[ -z "$why" ] && [ ! -r /sys/devices/system/cpu/cpu0/cpuidle/state0/usage ] &&
		why="no cpuidle states (the idle probe's tracefs instance is what needs the mount)"
	if [ -n "$why" ]; then skip_rest $N "$why"; exit 0; fi
	exec unshare -m --propagation private env CVMBENCH_IN_NS=1 "$0"
fi

tmp=$(mktemp -d)
trap 'cleanup_restored "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
mounted() { grep -c ' - tracefs ' /proc/self/mountinfo; }
while [ "$(mounted)" -gt 0 ]; do
	umount "$(awk '/ - tracefs / { print $5; exit }' /proc/self/mountinfo)" || break
done
is "$(mounted)" 0 "tracefs unmounted in this private mount namespace"

printf '[experiment tr]\nworkload = hello-world\ninvocations = %s\nwarmup = 0\nprobes = latency, idle\n' \
	300 > "$tmp/t.ini"
# run_until_mounted: start a run; 0 once it has mounted tracefs.
run_until_mounted() {
	./cvmbench run "$tmp/t.ini" --db "$tmp/r.db" 2>"$tmp/err" & run=$!
	for ((i = 0; i < 300; i++)); do
		[ "$(mounted)" = 1 ] && return 0
		sleep 0.02
	done
	return 1
}
run_until_mounted; seen=$?
wait $run; rc=$?
is "$seen/$rc" 0/0 "the run mounted tracefs for its probes" || sed 's/^/# /' "$tmp/err"
is "$(mounted)" 0 "and unmounted it at its end"
is "$(wc -c < "$CVMBENCH_STATE_DIR/journal")" 0 "the journal is empty"

run_until_mounted; seen=$?
kill -9 $run; wait $run 2>/dev/null
is "$seen/$(mounted)" 0/1 "killed with SIGKILL: tracefs stays mounted"
./cvmbench restore >"$tmp/restore" 2>&1
is "$?/$(grep -c 'tracefs-mount' "$tmp/restore")" 0/1 "cvmbench restore undoes the tracefs-mount entry"
is "$(mounted)" 0 "tracefs is unmounted again"
