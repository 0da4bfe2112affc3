#!/bin/bash
# tests/system/placement.t - the pin and membind keys (hwloc): pinning an
# instance to a core is read back as the CPUs the kernel lists for that
# core (/sys/.../topology/thread_siblings_list), and a running instance's
# Cpus_allowed_list (/proc) is what the cell stored; llc:N and numa:N on a
# synthetic hwloc topology (HWLOC_SYNTHETIC, bound to this machine's CPUs)
# land on that object's CPU; an LLC or NUMA node the machine lacks, remote
# memory on one NUMA node are skipped cells with the reason (pin on the
# qemu backend: pin-vcpu.t); a bad spec is a config error at file:line; a co-runner
# sharing the instance's last-level cache is a setup flag `show` prints;
# a runc container's cvmfn runs on the core its instance was pinned to
# (its config.json's cpuset; also inside a restricted cpuset), and the cell
# says how it got them (pin.container); where runc can make no cpuset (or
# refuses it) that is a skip naming why.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data

N=11
plan $N
$CVMBENCH env 2>/dev/null | grep -q '^topology.hwloc .*built without' &&
	skip_all $N "built without hwloc"
command -v sqlite3 >/dev/null || skip_all $N "no sqlite3"
run() { $CVMBENCH run "$1" --db "$2" --wait-lock 600 2>"$2.err"; }
param() { sqlite3 "$1" "SELECT value FROM cell_param p JOIN cell c ON c.id = p.cell_id
	WHERE c.experiment = '$2' AND p.key = '$3'"; }
sys=/sys/devices/system/cpu

# --- a core, read back ------------------------------------------------------------
cat > "$tmp/core.ini" <<INI
[experiment core]
workload = null
pin = core
instances = 1
invocations = 20000
warmup = 0
wait = block
INI
$CVMBENCH run "$tmp/core.ini" --db "$tmp/core.db" --wait-lock 600 2>"$tmp/core.err" & pid=$!
# the instance's cvmfn, once the cell stored what it obtained (after the
# handshake): a cvmfn the run starts before (a workload check) is not pinned
allowed=
for _ in $(seq 300); do
	if [ -n "$(param "$tmp/core.db" core pin.obtained.0 2>/dev/null)" ]; then
		fn=$(pgrep -P "$pid" -x cvmfn | head -1)
		[ -n "$fn" ] && allowed=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/$fn/status) &&
			[ -n "$allowed" ] && break
	fi
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
wait "$pid"; rc=$?
# core 0 of the tool (hwloc) is the first core of this cgroup's cpuset
first=$(first_cpu)
core0=$(cat $sys/cpu$first/topology/thread_siblings_list)
is "$rc $(param "$tmp/core.db" core pin.obtained.0)" "0 $core0" \
	"pin = core: instance 0 obtained the first allowed core's CPUs as the kernel lists them ($core0)"
is "$allowed" "$core0" "the running cvmfn's Cpus_allowed_list (/proc) says the same"

# --- synthetic topologies: llc:1, numa:1 ------------------------------------------
if cpu_allowed 0 && cpu_allowed 1; then    # the synthetic topologies' PUs are CPUs 0 and 1
	printf '[experiment s]\nworkload = null\ninvocations = 2\nwarmup = 0\npin = llc:1\n' \
		> "$tmp/s.ini"
	HWLOC_SYNTHETIC="pack:1 l3:2 core:1 pu:1" HWLOC_THISSYSTEM=1 run "$tmp/s.ini" "$tmp/s.db"
	is "$?/$(param "$tmp/s.db" s pin.obtained.0)" "0/1" \
		"llc:1 of a topology with two L3 caches (one CPU each): CPU 1"
	sed -i 's/llc:1/numa:1/' "$tmp/s.ini"
	HWLOC_SYNTHETIC="numa:2 l3:1 core:1 pu:1" HWLOC_THISSYSTEM=1 run "$tmp/s.ini" "$tmp/n.db"
	is "$?/$(param "$tmp/n.db" s pin.obtained.0)" "0/1" "numa:1 of two NUMA nodes: CPU 1"
else
	skip_rest 2 "synthetic llc:1/numa:1 need CPUs 0 and 1 in this cgroup's cpuset ($(cpuset_cpus))"
fi

# --- what the machine lacks: skips with the reason -----------------------------------
cat > "$tmp/bad.ini" <<INI
[defaults]
workload = null
invocations = 2
warmup = 0

[experiment llc]
pin = llc:99

[experiment numa]
pin = numa:99

[experiment remote]
membind = remote
INI
run "$tmp/bad.ini" "$tmp/bad.db"; rc=$?
skips=$(sqlite3 "$tmp/bad.db" "SELECT c.experiment || ': ' || s.reason FROM skip s
	JOIN cell c ON c.id = s.cell_id ORDER BY c.id")
echo "$skips" | sed 's/^/# /'
is "$rc $(echo "$skips" | grep -c '^llc: llc:99: this machine has [0-9]* L[23] last-level')" \
	"3 1" "llc:99: the cell is skipped, naming the index and how many caches there are"
ok "$(echo "$skips" | grep -c '^numa: numa:99: this machine has [0-9]* NUMA node')" = 1 \
	"numa:99: the same for NUMA nodes"
if [ "$($CVMBENCH env 2>/dev/null | awk '$1 == "topology.numa_nodes" { print $2 }')" = 1 ]; then
	ok "$(echo "$skips" | grep -c '^remote: membind = remote: this machine has one NUMA node')" \
		= 1 "membind = remote on one NUMA node: skipped with the reason"
else
	skip "more than one NUMA node here"
fi

printf '[experiment x]\nworkload = null\n\npin = core:1\n' > "$tmp/cfg.ini"
$CVMBENCH run "$tmp/cfg.ini" --db "$tmp/cfg.db" 2>"$tmp/cfg.err"; rc=$?
is "$rc $(grep -c "cfg.ini:4: bad value 'core:1' for pin" "$tmp/cfg.err")" "2 1" \
	"a bad pin spec is a config error at file:line"

# --- the setup flag: a co-runner under the instance's last-level cache ----------------
printf '[experiment co]\nworkload = null\ninvocations = 3\nwarmup = 0\ncorunner = 1\n' \
	> "$tmp/co.ini"
run "$tmp/co.ini" "$tmp/co.db"
llc=$($CVMBENCH env 2>/dev/null | awk '$1 == "topology.cache.l3" || $1 == "topology.cache.l2" {
	if ($2 != "none") n++ } END { print n + 0 }')
if [ "$llc" -gt 0 ]; then
	ok "$($CVMBENCH show --db "$tmp/co.db" | grep -c 'sanity.corunner_shares_llc: the co-runner (CPUs .*) shares L[23] cache')" \
		= 1 "an unpinned co-runner shares the instance's last-level cache: show prints the flag"
else
	skip "hwloc knows no L2 or L3 cache here"
fi

# --- a container: the runtime and its container inherit the CPUs -----------------------
why=
[ "$(id -u)" = 0 ] || why="needs root"
[ -z "$why" ] && ! command -v runc >/dev/null && skip_all 2 "runc is not installed"
[ -z "$why" ] && [ "$(here runc)" != "supported here" ] && why="runc: $(here runc)"
if [ -n "$why" ]; then
	skip_rest 2 "$why"
	exit 0
fi
sed 's/^pin = core$/pin = core\nbackend = runc/' "$tmp/core.ini" > "$tmp/runc.ini"
$CVMBENCH run "$tmp/runc.ini" --db "$tmp/runc.db" --wait-lock 600 2>"$tmp/runc.err" & pid=$!
allowed=
for _ in $(seq 400); do
	rt=$(pgrep -P "$pid" -x runc | head -1)
	fn=${rt:+$(pgrep -P "$rt" -x cvmfn | head -1)}
	[ -n "$fn" ] && allowed=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/$fn/status) &&
		[ -n "$allowed" ] && break
	sleep 0.05
done
# the container's CPUs are stored after its handshake: a Ctrl-C before would cut it
for _ in $(seq 200); do
	[ -n "$(param "$tmp/runc.db" core pin.container 2>/dev/null)" ] &&
		[ -n "$(param "$tmp/runc.db" core pin.obtained.container.0 2>/dev/null)" ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
kill -INT "$pid"; wait "$pid"
# how the container got its CPUs (backend-oci.c): its own cpuset (config.json), or,
# where the runtime can make none, only the affinity it inherits
how=$(param "$tmp/runc.db" core pin.container)
ok "$(echo "$how" | grep -cE '^(cpuset: |inherited affinity only, no cpuset: )')" = 1 \
	"runc, pin = core: pin.container says how the container got its CPUs ($how)"
refused=$(grep -i -m1 cpuset "$tmp/runc.err")
if [ -z "$allowed" ] && [ -n "$refused" ]; then
	skip "runc refused the container's cpuset here: $refused"
elif [ "$allowed" != "$core0" ] && [ "${how#inherited}" != "$how" ]; then
	skip "the container has no cpuset here ($how), and its cgroup reset its CPUs to $allowed"
else
	is "$allowed/$(param "$tmp/runc.db" core pin.obtained.container.0)" "$core0/$core0" \
		"runc, pin = core: the container's cvmfn runs on the first allowed core's CPUs, as stored (pin.obtained.container.0)"
fi
