#!/bin/bash
# tests/system/hostmem.t - the hostmem and ksm probes through a real run:
# two qemu (TCG) cells of 2 VMs of 256 MiB each (the issue's small variant
# of configs/memory-scaling.ini), one running hello-world and one null
# (vm-workloads: each VM's instance answers as its own workload), ksm = on
# then off, thp = never; their metrics, notes and memory_sample rows are in the database,
# the KSM-on cell converged and its VMs merged pages; every memory figure
# draws from this run (memory-scaling, memory-overhead with the overhead
# computed here from the metrics, memory-mixed, consolidation,
# ksm-convergence); afterwards KSM and THP
# read exactly as before and no QEMU of the run is left. A VM whose QEMU is
# killed while the cell waits for KSM: the wait stops, both probes skip
# with the reason (no steady-state number) and the cell fails with the VM's
# death as its error row, its rows kept. Then a run killed
# with -9 while it waits for a convergence that cannot come (1 page per
# second), and `cvmbench restore`: the same. Root, KSM, QEMU needed.
#   flock /tmp/cvmbench-host.lock prove -v tests/system/hostmem.t
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=23
plan $N
why=
[ "$(id -u)" = 0 ] || why="needs root"
[ -z "$why" ] && [ ! -e /sys/kernel/mm/ksm/run ] && why="KSM is not built into this kernel (no /sys/kernel/mm/ksm)"
# a read-only /sys (a container): access(2) says EROFS even to root
[ -z "$why" ] && [ ! -w /sys/kernel/mm/ksm/run ] && why="/sys/kernel/mm/ksm/run is not writable here (read-only /sys)"
[ -z "$why" ] && ! command -v qemu-system-x86_64 >/dev/null && why="no qemu-system-x86_64"
[ -z "$why" ] && ! command -v sqlite3 >/dev/null && why="no sqlite3"
if [ -n "$why" ]; then skip_rest $N "$why"; exit 0; fi

tmp=$(mktemp -d)
trap '$CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state TMPDIR=$tmp
db=$tmp/r.db
q() { sqlite3 "$db" "$@"; }
settings() {
	local f
	for f in run pages_to_scan sleep_millisecs smart_scan use_zero_pages; do
		echo "$f $(cat /sys/kernel/mm/ksm/$f)"
	done
	cat /sys/kernel/mm/transparent_hugepage/enabled
}
qemus() { pgrep -f "qemu-system.*$tmp" | tr '\n' ' '; }
before=$(settings)
# the VMs' memory cgroups (bench/backends/qemu/vm-memcg.c) there before the test
vm_memcgs() { find /sys/fs/cgroup -maxdepth 6 -type d -name 'cvmbench-vm-*' 2>/dev/null | sort; }
memcgs_before=$(vm_memcgs)
cat > "$tmp/m.ini" <<'INI'
[experiment hm]
workload = hello-world
backend = qemu
accel = tcg
memory = 256
vms = 2
instances = 2
vm-workloads = hello-world+null
boot-timeout = 180
probes = latency, hostmem, ksm
invocations = 3
warmup = 1
ksm-pages-to-scan = 5000
ksm-sleep-ms = 10
ksm-timeout = 60
hostmem-interval = 0.2
thp = never
ksm = on, off
INI
$CVMBENCH run "$tmp/m.ini" --db "$db" --wait-lock 600 >"$tmp/out" 2>&1
is "$?" 0 "two qemu cells (ksm on, off) run" || sed 's/^/# /' "$tmp/out" | tail -5
m() { q "SELECT m.value FROM metric m JOIN cell_param p ON p.cell_id = m.cell_id AND p.key = 'ksm'
	WHERE p.value = '$1' AND m.probe = '$2' AND m.name = '$3' AND m.invocation_id IS NULL"; }
# vm-workloads: VM 0 runs hello-world, VM 1 null; their outputs' digests as cvmfn gives them here
dg() { ./cvmfn run "$1" --size test --seed 1 --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["digest"])'; }
want="0 $(dg hello-world)
1 $(dg null)"
is "$(q "SELECT DISTINCT instance_idx || ' ' || digest FROM invocation ORDER BY 1")" "$want" \
	"vm-workloads = hello-world+null: VM 0's instance answers as hello-world, VM 1's as null"
ok "$(m on hostmem pss_kb | cut -d. -f1)" -gt 50000 "ksm = on: summed PSS stored ($(m on hostmem pss_kb) kB)"
ok "$(m on hostmem mem_available_drop_kb | cut -d. -f1)" -gt 0 \
	"MemAvailable drop from the baseline before the VM booted ($(m on hostmem mem_available_drop_kb) kB)"
is "$(m on ksm converged)" "1.0" "ksm = on: converged ($(q "SELECT value FROM cell_param WHERE key = 'ksm.convergence' LIMIT 1"))"
ok "$(m on ksm ksm_merging_pages | cut -d. -f1)" -gt 0 "ksm = on: the VM's QEMU has merged pages ($(m on ksm ksm_merging_pages))"
is "$(m off ksm pages_sharing)" "0.0" "ksm = off: unmerged, pages_sharing 0"
ok "$(q "SELECT count(DISTINCT t_ns) FROM memory_sample WHERE source = 'smaps_rollup'")" -ge 4 \
	"memory_sample holds a time series ($(q "SELECT count(*) FROM memory_sample") rows)"
is "$(q "SELECT count(*) FROM metric WHERE name = 'thp_split_pmd'")" 2 "thp_split_pmd recorded per cell"

# every memory figure draws from this run, N on it, without a gnuplot warning
plot() { $CVMBENCH plot "$1" --db "$db" --out "$tmp/$1.svg" 2>&1 | grep -v 'info: wrote'; }
if ! command -v gnuplot >/dev/null; then
	[ -n "${CI:-}" ] && { echo "Bail out! gnuplot is missing under CI"; exit 1; }
	for i in 1 2 3 4 5; do skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done
else
	out=$(plot memory-scaling)
	is "$out:$(grep -c '>N=1<' "$tmp/memory-scaling.svg")" ":2" \
		"plot memory-scaling: ksm on and off at 2 VMs, N=1 each" || echo "# $out"
	# host memory: the VMs' memory cgroups where stored, else PSS (docs/experiments/memory.md)
	host() { q "SELECT coalesce((SELECT value FROM metric WHERE cell_id = c AND probe = 'hostmem'
		AND name = 'memcg_usage_kb' AND invocation_id IS NULL), (SELECT value FROM metric
		WHERE cell_id = c AND probe = 'hostmem' AND name = 'pss_kb' AND invocation_id IS NULL))
		FROM (SELECT cell_id AS c FROM cell_param WHERE key = 'ksm' AND value = '$1')"; }
	want=$(awk -v on="$(host on)" -v off="$(host off)" 'BEGIN { printf "%+.1f", 100 * (off - on) / on }')
	out=$(plot memory-overhead)
	grep -q ">$want %, N=1/1<" "$tmp/memory-overhead.svg"
	is "$out:$?" ":0" "plot memory-overhead: ksm off $want % over ksm on, as the metrics say" || echo "# $out"
	out=$(plot memory-mixed)
	grep -q '>2 VMs: hello-world+null<' "$tmp/memory-mixed.svg"
	is "$out:$?:$(grep -c '>N=1<' "$tmp/memory-mixed.svg")" ":0:2" \
		"plot memory-mixed: a group for 2 VMs of hello-world+null, ksm on and off, N=1 each" || echo "# $out"
	out=$(plot consolidation)
	grep -q '>hello-world: 2 instances in 2 VMs<' "$tmp/consolidation.svg"
	is "$out:$?" ":0" "plot consolidation: 2 instances in 2 VMs" || echo "# $out"
	on=$(q "SELECT cell_id FROM cell_param WHERE key = 'ksm' AND value = 'on'")
	ns=$(q "SELECT count(*) FROM memory_sample WHERE source = 'ksm' AND name = 'pages_sharing'
		AND cell_id = $on")
	out=$(plot ksm-convergence)
	grep -q ">sharing: cell $on hello-world+null, 2 VMs (N=$ns)<" "$tmp/ksm-convergence.svg"
	is "$out:$?:$(grep -o 'PSS: cell [0-9]* [^<(]*' "$tmp/ksm-convergence.svg" | sort -u)" \
		":0:PSS: cell $on hello-world+null, 2 VMs " \
		"plot ksm-convergence: the ksm = on cell only, its $ns pages_sharing samples" || echo "# $out"
fi
is "$(settings)" "$before" "KSM and THP exactly as before the run"
is "$(qemus)" "" "no QEMU of the run left"

# 1 VM, ksm on, a convergence that cannot come (1 page per second)
sed -i 's/^ksm-pages-to-scan = 5000/ksm-pages-to-scan = 1/; s/^ksm-sleep-ms = 10/ksm-sleep-ms = 1000/; s/^ksm = on, off/ksm = on/; /^vms = 2/d; /^instances = 2/d; /^vm-workloads/d' "$tmp/m.ini"
# start a run and wait until its calls are done: it is then in the convergence wait
converging() {
	local i
	$CVMBENCH run "$tmp/m.ini" --db "$1" --wait-lock 600 >"$tmp/out2" 2>&1 & run=$!
	for ((i = 0; i < 6000; i++)); do   # up to 600 s: it may wait for another run's lock
		[ "$(sqlite3 "$1" "SELECT count(*) FROM invocation WHERE phase = 'measured'" 2>/dev/null)" = 3 ] && break
		sleep 0.1
	done
	sleep 1
}

# the VM dies (its QEMU killed) during the wait: the wait stops (before the
# fix it ran to ksm-timeout, 60 s, and stored KSM's counters of a host
# without the VM as the cell's); both probes say why, no steady-state number
converging "$tmp/d.db"
t0=$(date +%s)
kill -9 $(qemus)
wait $run
el=$(($(date +%s) - t0))
skips=$(sqlite3 "$tmp/d.db" "SELECT probe || ': ' || reason FROM skip WHERE reason LIKE '%ended during the cell%' ORDER BY probe")
n=$(sqlite3 "$tmp/d.db" "SELECT count(*) FROM metric WHERE invocation_id IS NULL AND name IN ('pss_kb', 'pages_sharing', 'converged')")
calls=$(sqlite3 "$tmp/d.db" "SELECT count(*) FROM invocation WHERE phase = 'measured' AND ok = 1")
ok "$((el < 30 && n == 0 && calls == 3))" = 1 "a VM killed while converging: the cell (its ${calls:-0} calls made) ends in ${el} s (ksm-timeout 60), no pss_kb, pages_sharing or converged stored" ||
	sed 's/^/# /' "$tmp/out2" | tail -5
is "$(sed 's/(pid [0-9]*)/(pid P)/' <<<"$skips")" "hostmem: instance process 0 (pid P) ended during the cell: no steady-state memory for the cell
ksm: instance process 0 (pid P) ended during the cell: no steady-state KSM numbers for the cell" \
	"and both probes say why"
# ... and the cell failed with the reason as its error row (before the fix it
# was "ok", and only the probe skips made the run "partial"); its rows stay
st=$(sqlite3 "$tmp/d.db" "SELECT c.status || ' ' || r.status FROM cell c JOIN run r ON r.id = c.run_id")
err=$(sqlite3 "$tmp/d.db" "SELECT message FROM error WHERE cell_id IS NOT NULL" | sed 's/pid [0-9]*/pid P/')
rows=$(sqlite3 "$tmp/d.db" "SELECT (SELECT count(*) FROM invocation) > 0 AND (SELECT count(*) FROM memory_sample) > 0")
is "$st|$err|$rows" "failed failed|instance process 0 (pid P, its VM's QEMU) ended during the cell|1" \
	"the cell with the killed VM failed (run failed), its error row names the QEMU, its calls and samples kept"
is "$(settings)/$(qemus)" "$before/" "KSM and THP as before, no QEMU left"

# kill -9 of cvmbench while waiting for the convergence
converging "$tmp/k.db"
seen="$(cat /sys/kernel/mm/ksm/run) $(cat /sys/kernel/mm/ksm/pages_to_scan)"
kill -9 $run; wait $run 2>/dev/null
$CVMBENCH restore >"$tmp/restore" 2>&1
is "$seen/$(settings)" "1 1/$before" "killed while converging (run 1, pages_to_scan 1), then restore: as before" ||
	sed 's/^/# /' "$tmp/restore"
sleep 0.5
is "$(qemus)" "" "no QEMU left after restore"
is "$(vm_memcgs)" "$memcgs_before" "no VM memory cgroup left by the runs, the kills and restore"
