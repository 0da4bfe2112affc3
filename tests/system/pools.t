#!/bin/bash
# tests/system/pools.t - the runc/crun cgroup pool (`cgroup-pool`,
# bench/backends/oci-pool.c): a pool size beyond what the host allows is
# exit 2 naming the value (a fake /proc/cgroups through CVMBENCH_SYSROOT,
# and the key's own maximum); a drained pool falls back, the takes and
# fallbacks adding up to the starts the runc probe counted; a run killed
# with SIGKILL while its pool exists leaves nothing after `cvmbench restore`;
# seccomp = prepared is a skip on runc, with the reason.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/runc-lib.sh

N=9
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

runc_require $((N - 3))
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
[experiment prepared]
workload = hello-world
backend = runc
mode = cold
invocations = 1
seccomp = prepared
INI
./cvmbench run "$tmp/drain.ini" --db "$db" --wait-lock 600 2>"$tmp/derr"
ev() { q "SELECT count(*) FROM oci_pool_event e JOIN cell c ON c.id = e.cell_id WHERE c.experiment = 'drain' AND event = '$1'"; }
is "$(ev fill) $(ev take) $(ev refill)" "3 3 0" "pool 3, no refill: 3 made, 3 taken, none refilled"
is "$(( $(ev take) + $(ev fallback) ))" "$(q "SELECT count(*) FROM runc_start")" \
	"takes + fallbacks = the starts the runc probe saw"
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
pool-low = 18
pool-refill = 20
INI
./cvmbench run "$tmp/k.ini" --db "$tmp/k.db" --wait-lock 600 2>"$tmp/kerr" &
pid=$!
for i in $(seq 300); do
	[ "$(ls -d /sys/fs/cgroup/memory/cvmbench-pool-* 2>/dev/null | wc -l)" -ge 20 ] && break
	sleep 0.1
done
sleep 1
kill -9 $pid; wait $pid 2>/dev/null
grep -q "oci-pool" "$CVMBENCH_STATE_DIR/journal"
is "$?" 0 "the journal holds the killed run's pool"
sleep 0.5
./cvmbench restore >"$tmp/restore" 2>&1; rc=$?
grep -q "oci-pool" "$tmp/restore"
is "$rc.$?" "0.0" "cvmbench restore exits 0 and names the pool"
is "$(leftovers | tr '\n' ' ')" "" "no pooled cgroup left after restore"
