#!/bin/bash
# tests/system/pools.t - the runc/crun cgroup pool (`cgroup-pool`,
# bench/backends/oci-pool.c): a pool size beyond what the host allows is
# exit 2 naming the value (a fake /proc/cgroups through CVMBENCH_SYSROOT,
# and the key's own maximum); a drained pool falls back, the takes and
# fallbacks adding up to the starts the runc probe counted; a run killed
# with SIGKILL while its pool exists leaves nothing after `cvmbench restore`;
# seccomp = prepared is a skip on runc, with the reason. The network-
# namespace pool (`netns-pool`, oci-pool-netns.c): a size beyond the host's
# user.max_net_namespaces less the namespaces in use is exit 2 naming both
# (a fake tree); its slots seen by the kernel (/sys/class/net, and inside a
# slot through nsenter: eth0 up with a 10.222 address); takes and
# fallbacks add up to the starts; after kill -9 + restore no veth device,
# no namespace file and no nsfs mount of the state directory is left.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/runc-lib.sh

N=18
plan $N
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data

pool_ini() {   # $1 = pool size
	printf '[experiment p]\nworkload = hello-world\nbackend = runc\nmode = cold\ncgroup-pool = %s\n' "$1"
}
mkdir -p "$tmp/fake/proc"
printf '#subsys_name\thierarchy\tnum_cgroups\tenabled\nmemory\t4\t65000\t1\n' > "$tmp/fake/proc/cgroups"
pool_ini 1000 > "$tmp/big.ini"
CVMBENCH_SYSROOT=$tmp/fake ./cvmbench run "$tmp/big.ini" --db "$tmp/x.db" --dry-run >/dev/null 2>"$tmp/err"; rc=$?
grep -q "cgroup-pool = 1000: this host allows 535 more cgroups" "$tmp/err"
is "$rc.$?" "2.0" "a pool beyond the host's free memory-cgroup IDs: exit 2 naming the value and the room"
pool_ini 70000 > "$tmp/max.ini"
./cvmbench run "$tmp/max.ini" --db "$tmp/x.db" --dry-run >/dev/null 2>"$tmp/err"; rc=$?
grep -q "70000" "$tmp/err"
is "$rc.$?" "2.0" "a pool beyond the kernel's 65535 IDs: exit 2 naming the value"
pool_ini 500 > "$tmp/fits.ini"
CVMBENCH_SYSROOT=$tmp/fake ./cvmbench run "$tmp/fits.ini" --db "$tmp/x.db" --dry-run >/dev/null 2>&1
is "$?" 0 "a pool within the room is accepted"

mkdir -p "$tmp/fake/proc/sys/user" "$tmp/fake/proc/1/ns" "$tmp/fake/proc/2/ns" "$tmp/fake/proc/3/ns"
echo 10 > "$tmp/fake/proc/sys/user/max_net_namespaces"
ln -s 'net:[4026531840]' "$tmp/fake/proc/1/ns/net"
ln -s 'net:[4026531840]' "$tmp/fake/proc/2/ns/net"
ln -s 'net:[4026532001]' "$tmp/fake/proc/3/ns/net"
printf '[experiment p]\nworkload = hello-world\nbackend = runc\nmode = cold\nnetns-pool = 9\n' > "$tmp/nbig.ini"
CVMBENCH_SYSROOT=$tmp/fake ./cvmbench run "$tmp/nbig.ini" --db "$tmp/x.db" --dry-run >/dev/null 2>"$tmp/err"; rc=$?
grep -q "netns-pool = 9: this host allows 8 more network namespaces (/proc/sys/user/max_net_namespaces = 10, 2 in use" "$tmp/err"
is "$rc.$?" "2.0" "a netns pool beyond max_net_namespaces less the 2 namespaces in use: exit 2 naming both"
printf '[experiment p]\nworkload = hello-world\nbackend = runc\nmode = cold\nnetns-pool = 8\n' > "$tmp/nfits.ini"
CVMBENCH_SYSROOT=$tmp/fake ./cvmbench run "$tmp/nfits.ini" --db "$tmp/x.db" --dry-run >/dev/null 2>&1
is "$?" 0 "a netns pool within the room is accepted"
mkdir -p "$tmp/nolimit/proc"
CVMBENCH_SYSROOT=$tmp/nolimit ./cvmbench run "$tmp/nbig.ini" --db "$tmp/x.db" --dry-run >/dev/null 2>&1
is "$?" 0 "no max_net_namespaces to read: the key's own maximum is the limit"

runc_require $((N - 6))
db=$tmp/r.db
q() { sqlite3 "$db" "$@"; }
leftovers() {
	ls -d /sys/fs/cgroup/*/cvmbench-pool-* /sys/fs/cgroup/cvmbench-pool-* \
		/sys/fs/cgroup/*/cvmbench-[0-9]* "$CVMBENCH_STATE_DIR"/oci/* 2>/dev/null
}
cat > "$tmp/drain.ini" <<'INI'
[experiment drain]
workload = hello-world
backend = runc
mode = cold
invocations = 4
warmup = 0
parallel = 2
cgroup-pool = 3
pool-refill = 0
probes = runc
[experiment netns]
workload = hello-world
backend = runc
mode = cold
invocations = 3
warmup = 0
parallel = 2
netns-pool = 1
pool-refill = 0
probes = runc
[experiment prepared]
workload = hello-world
backend = runc
mode = cold
invocations = 1
seccomp = prepared
INI
./cvmbench run "$tmp/drain.ini" --db "$db" --wait-lock 600 2>"$tmp/derr"
ev() { q "SELECT count(*) FROM oci_pool_event e JOIN cell c ON c.id = e.cell_id WHERE c.experiment = '${2:-drain}' AND event = '$1'"; }
starts() { q "SELECT count(*) FROM runc_start s JOIN cell c ON c.id = s.cell_id WHERE c.experiment = '$1'"; }
is "$(ev fill) $(ev take) $(ev refill)" "3 3 0" "pool 3, no refill: 3 made, 3 taken, none refilled"
is "$(( $(ev take) + $(ev fallback) ))" "$(starts drain)" \
	"takes + fallbacks = the starts the runc probe saw"
is "$(ev fill netns) $(( $(ev take netns) + $(ev fallback netns) ))" "1 $(starts netns)" \
	"netns pool of 1: 1 made, takes + fallbacks = the starts the runc probe saw"
is "$(q "SELECT count(*) FROM oci_pool_event e JOIN cell c ON c.id = e.cell_id WHERE c.experiment = 'netns' AND e.event IN ('fill', 'fallback') AND (e.pool <> 'netns' OR e.veth_ns IS NULL OR e.veth_ns <= 0 OR e.veth_ns > e.cost_ns)")" 0 \
	"every made namespace has its veth pair's cost, within the slot's"
# the lock table of docs/experiments/pools.sql (its 2nd table): a row for
# every cell whose starts the runc probe traced, '(none)' if none waited
locks=$(sqlite3 -header "$db" < docs/experiments/pools.sql |
	awk -F'|' '/^experiment\|backend\|k\|lock\|/ { on = 1; next } /^experiment\|/ { on = 0 }
		on { print $1 "|" $2 "|" $3 }' | sort -u | wc -l)
is "$locks" "$(q "SELECT count(DISTINCT s.cell_id) FROM runc_start s JOIN invocation i ON i.id = s.invocation_id WHERE i.phase = 'measured'")" \
	"pools.sql's lock table has every traced cell (variant and K)"
is "$(q "SELECT reason LIKE 'seccomp = prepared: runc has no way%' FROM skip s JOIN cell c ON c.id = s.cell_id WHERE c.experiment = 'prepared'")" 1 \
	"seccomp = prepared on runc: skipped with the reason"

cat > "$tmp/k.ini" <<'INI'
[experiment kill]
workload = hello-world
backend = runc
mode = cold
invocations = 500
warmup = 0
cgroup-pool = 20
netns-pool = 4
pool-low = 3
pool-refill = 20
INI
./cvmbench run "$tmp/k.ini" --db "$tmp/k.db" --wait-lock 600 2>"$tmp/kerr" &
pid=$!
# until both pools hold a slot (starts take them as fast as they come: a
# full pool may never be seen), or the run ended
for i in $(seq 6000); do   # up to 600 s: the run may wait for the host lock first
	[ "$(ls -d /sys/fs/cgroup/memory/cvmbench-pool-* 2>/dev/null | wc -l)" -ge 1 ] &&
		[ "$(ls /sys/class/net | grep -c '^cvb')" -ge 1 ] && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
sleep 1
slot=$(ls "$CVMBENCH_STATE_DIR"/netns/cvmbench-np-* 2>/dev/null | head -1)
inside=$(nsenter --net="$slot" ip -o -4 addr show dev eth0 2>/dev/null)
up=$(nsenter --net="$slot" cat /sys/class/net/eth0/flags 2>/dev/null)
kill -9 $pid; wait $pid 2>/dev/null
echo "$inside" | grep -q "inet 10\.222\."
is "$?.$(( ${up:-0} & 1 ))" "0.1" "inside a slot (nsenter): eth0 up with a 10.222 address"
grep -q "oci-pool" "$CVMBENCH_STATE_DIR/journal" && grep -q "oci-netns-pool" "$CVMBENCH_STATE_DIR/journal"
is "$?" 0 "the journal holds the killed run's pools"
sleep 0.5
./cvmbench restore >"$tmp/restore" 2>&1; rc=$?
grep -q "oci-pool" "$tmp/restore" && grep -q "oci-netns-pool" "$tmp/restore"
is "$rc.$?" "0.0" "cvmbench restore exits 0 and names both pools"
is "$(leftovers | tr '\n' ' ')" "" "no pooled cgroup left after restore"
is "$(ls /sys/class/net | grep '^cvb' | tr '\n' ' ')" "" "no veth device left after restore (/sys/class/net)"
is "$(ls "$CVMBENCH_STATE_DIR/netns" 2>/dev/null | tr '\n' ' ')$(grep -c " $CVMBENCH_STATE_DIR/netns/" /proc/self/mountinfo)" "0" \
	"no namespace file and no nsfs mount left after restore"
