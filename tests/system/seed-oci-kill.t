#!/bin/bash
# seed-oci-kill.t - a runc / crun cell with a seed-layer, seen from outside
# in the middle of the cell and then killed (issue 33). Mid-cell, against
# what the kernel says of the pids the test finds itself (the seed: the
# runtime's `list` of the run's container; its children: pgrep -P): both
# children are in the container's cgroup (cgroup.procs of the seed's pids
# or cgroup2 group) and in its pid namespace (/proc/PID/ns/pid: the seed's,
# not the host's). Then the seed and a child are stopped (SIGSTOP, so they
# cannot leave on their own when the socket and pipes close), the run gets
# kill -9 and `cvmbench restore` must leave no container in the runtime's
# list, no cgroup of it, no seed or child, and the state directory as it was.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/journal-lib.sh
PER=9
N=$((2 * PER))
plan $N
[ "$(id -u)" = 0 ] || skip_all $N "needs root"
command -v sqlite3 >/dev/null || skip_all $N "no sqlite3"
command -v runc >/dev/null || command -v crun >/dev/null ||
	skip_all $N "neither runc nor crun is installed"
tmp=$(mktemp -d)
run=
cleanup() {
	[ -n "$run" ] && kill -9 "$run" 2>/dev/null
	"$CVMBENCH" restore >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
export CVMBENCH_DATA_DIR=$tmp/data CVMBENCH_STATE_DIR=$tmp/state
mkdir -p "$CVMBENCH_STATE_DIR"
"$CVMFN" prepare matmul >/dev/null
# procs PID: the cgroup.procs file of PID's cgroup (the pids controller, else cgroup2)
procs() {
	local line
	line=$(grep -m1 ':pids:' "/proc/$1/cgroup" || grep -m1 '^0::' "/proc/$1/cgroup")
	if [[ $line == *:pids:* ]]; then
		echo "/sys/fs/cgroup/pids${line#*:pids:}/cgroup.procs"
	else
		echo "/sys/fs/cgroup${line#0::}/cgroup.procs"
	fi
}
# container RT: "ID PID" of the run's container in RT's list
container() {
	"$1" list 2>/dev/null | awk -v d="$CVMBENCH_STATE_DIR/" 'index($4, d) == 1 { print $1, $2 }'
}

one() {
	local rt=$1 before seed id kids first k cg inside host same=0 left
	cat >"$tmp/k.ini" <<INI
[experiment kill]
workload = matmul
backend = $rt
seed-layer = runtime
size = test
threads = 1
instances = 2
invocations = 1000000
warmup = 0
INI
	before=$(state_left | sort)
	"$CVMBENCH" -q run "$tmp/k.ini" --db "$tmp/$rt.db" 2>"$tmp/err" & run=$!
	for ((i = 0; i < 4500; i++)); do   # up to 15 min: the host lock may be another's
		read -r id seed <<<"$(container "$rt")"
		[ -n "${seed:-}" ] && [ "$(pgrep -P "$seed" | wc -l)" = 2 ] &&
			[ "$(sqlite3 "$tmp/$rt.db" "SELECT count(*) FROM invocation" 2>/dev/null)" -ge 5 ] 2>/dev/null &&
			break
		[ -d "/proc/$run" ] || break
		sleep 0.2
	done
	kids=$(pgrep -P "${seed:-0}" | tr '\n' ' ')
	first=${kids%% *}
	ok "$(wc -w <<<"$kids")" -eq 2 "$rt: mid-cell: one container ($id), its seed ($seed), two children ($kids)"
	cg=$(procs "${seed:-0}")
	inside=0
	for k in $kids; do grep -qx "$k" "$cg" && inside=$((inside + 1)); done
	is "$inside" 2 "$rt: both children in the container's cgroup ($cg)"
	host=$(readlink /proc/self/ns/pid)
	for k in $kids; do
		[ "$(readlink "/proc/$k/ns/pid")" = "$(readlink "/proc/$seed/ns/pid")" ] &&
			[ "$(readlink "/proc/$k/ns/pid")" != "$host" ] && same=$((same + 1))
	done
	is "$same" 2 "$rt: both children in the seed's pid namespace, not the host's ($host)"

	kill -STOP "$seed" "$first" 2>/dev/null
	kill -9 "$run"; wait "$run" 2>/dev/null; run=
	sleep 0.5
	ok "$( (gone "$seed" && echo gone) || echo alive)" = alive \
		"$rt: after the kill the stopped seed is still there (only restore can end it)"
	"$CVMBENCH" restore >"$tmp/restore" 2>&1
	is "$?" 0 "$rt: cvmbench restore exits 0" || sed 's/^/# /' "$tmp/restore"
	left=
	for p in $seed $kids; do gone "$p" || left="$left $p"; done
	is "${left:-none}" none "$rt: no seed or child left, by pid"
	is "$(container "$rt")" "" "$rt: no container of the run in $rt list"
	left=$(ls -d /sys/fs/cgroup/*/"$id" /sys/fs/cgroup/"$id" 2>/dev/null)
	is "${left:-none}" none "$rt: no cgroup named $id"
	is "$(state_left | sort)" "$before" \
		"$rt: the state directory as before the run (no bundle, rootfs or socket)"
}
for rt in runc crun; do
	if command -v $rt >/dev/null; then one $rt; else skip_rest $PER "$rt is not installed"; fi
done
