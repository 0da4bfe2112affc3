#!/bin/bash
# tests/system/services-oci.t - the system suite's services in containers
# (issue 35, docs/experiments/system-suite.md): nginx under cvmload and
# redis-benchmark in runc, redis-benchmark in crun, two one-second windows a
# cell, one container per cell on the `system` rootfs. Checked against
# things the harness does not compute: each window's stored output is the
# tool's own text (cvmload's report with rate x duration requests, all ok;
# redis-benchmark's "SET" and "GET" rows); each measured window has metric
# rows of its parser; while the cell runs, the server (the nginx or
# redis-server whose parent is the container's cvmbench-agent) is in another
# network namespace than this shell and in the cgroup named after a
# container the runtime itself lists (`runc list`, `crun list`). After the
# run, and after kill -9 of a run in mid-window and `cvmbench restore`:
# no container in the runtime's list, no cgroup of it, no bundle, rootfs or
# service directory, no process of it, no process left in its network
# namespace.
# The rootfs comes from CVMBENCH_CACHE_DIR (cvmbench rootfs build system).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=23
plan $N
[ "$(id -u)" = 0 ] || skip_all $N "needs root"
command -v runc >/dev/null || skip_all $N "runc not installed (Debian package runc)"
command -v crun >/dev/null || skip_all $N "crun not installed (Debian package crun)"
command -v jq >/dev/null || skip_all $N "jq not installed (Debian package jq)"
[ -x ./cvmload ] && [ -x ./cvmbench-agent ] ||
	skip_all $N "./cvmload or ./cvmbench-agent not built (make)"
# a build of it takes minutes and the network: a skip (in make check-long,
# corunner-vm.t has built it by then)
$CVMBENCH rootfs build --check system >/dev/null 2>&1 || {
	skip_rest $N "the system rootfs is not built in $CVMBENCH_CACHE_DIR (cvmbench rootfs build system)"
	exit 0
}

tmp=$(mktemp -d)
trap '$CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data TMPDIR=$tmp/t
mkdir -p "$TMPDIR"
chmod 711 "$tmp" "$TMPDIR"
hostnet=$(readlink /proc/self/ns/net)

# servers RT...: "PID COMM NETNS CGROUP RUNTIME" of each nginx or redis-server
# whose parent is a cvmbench-agent, RUNTIME the one that lists CGROUP's container
servers() {
	local p pp comm cg id rt
	for p in $(pgrep -x nginx) $(pgrep -x redis-server); do
		pp=$(awk '/^PPid:/ { print $2 }' /proc/$p/status 2>/dev/null)
		[ "$(cat /proc/$pp/comm 2>/dev/null)" = cvmbench-agent ] || continue
		cg=$(sed -n 's/^0:://p' /proc/$p/cgroup 2>/dev/null)
		id=${cg#/}
		rt=none
		runc list -q 2>/dev/null | grep -qx -- "$id" && rt=runc
		crun list -q 2>/dev/null | grep -qx -- "$id" && rt=crun
		echo "$p $(cat /proc/$p/comm 2>/dev/null) $(readlink /proc/$p/ns/net) $cg $rt"
	done
}
# leftovers PID: what the cells of run PID could leave (containers
# cvmbench-PID-N and their cgroups, files, processes)
leftovers() {
	runc list -q 2>/dev/null | grep "^cvmbench-$1-"
	crun list -q 2>/dev/null | grep "^cvmbench-$1-"
	ls -d /sys/fs/cgroup/cvmbench-$1-* /sys/fs/cgroup/*/cvmbench-$1-* 2>/dev/null
	ls -A "$TMPDIR" "$CVMBENCH_STATE_DIR/oci" 2>/dev/null | grep -v ':$' | grep .
	for p in $(pgrep -x cvmbench-agent) $(pgrep -x nginx) $(pgrep -x redis-server); do
		grep -qs "$tmp" /proc/$p/cmdline /proc/$p/mountinfo && echo "process $p"
	done
}

cat > "$tmp/c.ini" <<EOF
[defaults]
rootfs = system
invocations = 2
warmup = 0
svc-duration = 1
timeout = 60

[experiment r]
workload = nginx-open, redis
backend = runc

[experiment c]
workload = redis
backend = crun
EOF
$CVMBENCH run "$tmp/c.ini" --db "$tmp/c.db" --wait-lock 600 >"$tmp/c.log" 2>&1 &
run=$!
while kill -0 $run 2>/dev/null; do
	servers >> "$tmp/seen"
	sleep 0.1
done
wait $run
rc=$?
echo "# the three cells: $(sqlite3 "$tmp/c.db" "SELECT round((julianday(max(ended_at)) - julianday(min(started_at))) * 86400, 1) FROM cell") s"
[ "$rc" = 0 ] || sed 's/^/#   /' "$tmp/c.log" | tail -5

# cell TOOL BACKEND: the cell's id
cell() {
	sqlite3 "$tmp/c.db" "SELECT id FROM cell WHERE workload = '$1' AND backend = '$2'"
}
for tb in nginx-open:runc redis:runc redis:crun; do
	t=${tb%:*} b=${tb#*:} id=$(cell ${tb%:*} ${tb#*:})
	is "$(sqlite3 "$tmp/c.db" "SELECT status, (SELECT value FROM cell_param WHERE cell_id = $id AND key = 'svc.where') FROM cell WHERE id = $id")" \
		"ok|container" "$t in $b: the cell ran, in a container"
	case $t in
	nginx-open)
		is "$(sqlite3 "$tmp/c.db" "SELECT count(*) FROM service_output WHERE cell_id = $id AND exit_status = 0 AND output LIKE 'cvmload 1' || char(10) || '%' AND instr(output, char(10) || 'requests 1000' || char(10)) > 0 AND instr(output, char(10) || 'errors 0' || char(10)) > 0")" 2 \
			"$t in $b: each window's output is cvmload's report (1000/s x 1 s = 1000 requests, no error)"
		server=nginx ;;
	redis)
		is "$(sqlite3 "$tmp/c.db" "SELECT count(*) FROM service_output WHERE cell_id = $id AND exit_status = 0 AND instr(output, '\"SET\"') > 0 AND instr(output, '\"GET\"') > 0")" 2 \
			"$t in $b: each window's output is redis-benchmark's CSV (its SET and GET rows)"
		server=redis-server ;;
	esac
	is "$(sqlite3 "$tmp/c.db" "SELECT count(DISTINCT m.invocation_id) FROM metric m JOIN invocation i ON i.id = m.invocation_id WHERE i.cell_id = $id AND i.phase = 'measured' AND m.probe = (SELECT value FROM cell_param WHERE cell_id = $id AND key = 'svc.parser')")" 2 \
		"$t in $b: each measured window has its tool's metrics"
	seen=$(awk -v s=$server -v b=$b -v h="$hostnet" '$2 == s && $5 == b && $3 != h && $4 ~ /^\/cvmbench-/' "$tmp/seen" | sort -u | head -1)
	is "$([ -n "$seen" ] && echo inside)" inside \
		"$t in $b: its $server ran in its own network namespace and in the cgroup of a container $b lists (${seen:-none seen})"
done
# a container cell pairs only with its own backend's: compare pairs none of
# these (no CVM side here), and system-suite draws redis's runc and crun cells
# as two panels, each labelled with its backend
$CVMBENCH compare --db "$tmp/c.db" --json > "$tmp/cmp.json" 2>/dev/null
is "$(jq -r '[(.pairs | length), (.unpaired | length)] | @tsv' "$tmp/cmp.json" 2>&1)" "$(printf '0\t3')" \
	"compare: no pair, each of the three cells unpaired on its own"
$CVMBENCH plot system-suite --db "$tmp/c.db" --out "$tmp/s.svg" >/dev/null 2>&1
is "$(grep -o 'redis ([a-z]*, pair' "$tmp/s.svg" | sort -u | tr '\n' ' ')" \
	"redis (crun, pair redis (runc, pair " "system-suite: redis in runc and in crun are two panels, each named by its backend"
is "$(leftovers $run | tr '\n' ' ')" "" "after the run: no container, cgroup, directory or process left"

# kill -9 in mid-window, then restore
printf "[experiment k]\nworkload = redis\nbackend = runc\nrootfs = system\ninvocations = 5\nwarmup = 0\nsvc-duration = 3\n" > "$tmp/k.ini"
$CVMBENCH run "$tmp/k.ini" --db "$tmp/k.db" --wait-lock 600 >"$tmp/k.log" 2>&1 &
run=$!
line=
for i in $(seq 1 600); do
	line=$(servers | head -1)
	[ -n "$line" ] && pgrep -x redis-benchmark >/dev/null && break
	line=
	sleep 0.1
done
if [ -z "$line" ]; then
	skip_rest 9 "no redis-server came up in a container: $(tail -1 "$tmp/k.log")"
	exit 0
fi
read -r pid comm net cg rt <<< "$line"
# redis-server's title: "redis-server 127.0.0.1:PORT"
port=$(tr '\0' ' ' < /proc/$pid/cmdline | sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p')
is "$rt $([ -n "$port" ] && echo port)" "runc port" "the server ($pid, container ${cg#/}) and its port ($port) found"
{ kill -9 $run; wait $run; } 2>/dev/null
is "$(ls "$TMPDIR" | grep -c '^cvmbench-svc-')" 1 "after kill -9 the service's directory is still there"
$CVMBENCH restore >"$tmp/restore.log" 2>&1
is "$?" 0 "cvmbench restore succeeds"
for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null; is "$?" 1 "the server (pid $pid) is gone"
is "$(runc list -q | grep -cx -- "${cg#/}")" 0 "runc lists no container ${cg#/}"
is "$(ls -d /sys/fs/cgroup/${cg#/} /sys/fs/cgroup/*/${cg#/} 2>/dev/null | wc -l)" 0 "no cgroup ${cg#/} in any hierarchy"
is "$(leftovers $run | tr '\n' ' ')" "" "no directory, bundle or process of it left"
is "$(ls -l /proc/[0-9]*/ns/net 2>/dev/null | grep -cF -- "$net")" 0 "no process left in its network namespace ($net)"
