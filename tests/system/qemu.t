#!/bin/bash
# tests/system/qemu.t - `backend = qemu` for real under TCG: one config runs
# hello-world, pyaes, matmul and crud-api (size test; crud-api writes scratch
# files, in the guest on /scratch) natively and in a VM; every cell
# is ok and each workload's output digest in the VM equals the native one
# (another machine, same cvmfn, same inputs from the data disk); the
# instance's recorded pid was the VM's QEMU; no QEMU is left after the run.
# The instance probes (idle, cpu, exitcost) ran in the guest's agent: their
# vantage and agent notes say so, and the guest.* facts are the guest's (the
# image's kernel release, TCG's CPUID signature), not the host's.
# A confidential = model VM runs QEMU with preallocated, unmergeable RAM;
# kill -9 of cvmbench mid-cell, then `cvmbench restore`: the journalled
# QEMU pid is gone and the VM's directory removed. sev-snp, tdx and cold
# mode are skips naming what is missing. SKIPs when qemu-system-x86_64 is
# missing or the guest image cannot be built (a failure under CI).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=33
plan $N
why=
[ "$(id -u)" = 0 ] || why="needs root"
[ -z "$why" ] && ! command -v sqlite3 >/dev/null && why="no sqlite3"
[ -z "$why" ] && ! command -v qemu-system-x86_64 >/dev/null && why="qemu-system-x86_64 is not installed"
[ -n "$why" ] && skip_all $N "$why"
command -v mkfs.ext4 >/dev/null || PATH=$PATH:/usr/sbin:/sbin
tmp=$(mktemp -d)
trap '$CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
# the QEMU argv carries $TMPDIR/cvmbench-vm-*: how this test's VMs are found
export TMPDIR=$tmp CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
db=$tmp/r.db
q() { sqlite3 "$db" "$@"; }

if ! $CVMBENCH guest build >"$tmp/b" 2>&1; then
	if [ -z "${CI:-}" ] && grep -qiE "apt-get|apt-cache" "$tmp/b"; then
		skip_rest $N "cannot fetch the kernel package: $(head -c 200 "$tmp/b")"
		exit 0
	fi
fi

# --- skips: what this backend cannot run (yet) ---------------------------------
cat >"$tmp/skip.ini" <<'EOF'
[experiment cvm]
workload = hello-world
backend = qemu
confidential = sev-snp, tdx
[experiment cold]
workload = hello-world
backend = qemu
mode = cold
EOF
$CVMBENCH run "$tmp/skip.ini" --db "$tmp/skip.db" >"$tmp/skip.out" 2>&1
is "$?" 3 "a run whose cells are all skips exits 3 (skipped)" || cat "$tmp/skip.out"
sk() { sqlite3 "$tmp/skip.db" "select s.reason from skip s join cell_param p on p.cell_id = s.cell_id where p.key = '$1' and p.value = '$2'"; }
for t in sev-snp tdx; do
	r=$(sk confidential $t)
	grep -q "confidential = $t: this host lacks: .*firmware: none given" <<<"$r"
	is "$?" 0 "confidential = $t is a skip with the reason ($r)"
done
r=$(sk mode cold)
grep -q "mode = cold not yet" <<<"$r"
is "$?" 0 "mode = cold is a skip: not yet ($r)"

# --- native and qemu give the same outputs ----------------------------------------
cat >"$tmp/vm.ini" <<'EOF'
[experiment vm]
workload = hello-world, pyaes, matmul, crud-api
size = test
backend = native, qemu
accel = tcg
invocations = 5
warmup = 1
probes = latency, idle, cpu, exitcost
EOF
t0=$(date +%s)
$CVMBENCH run "$tmp/vm.ini" --db "$db" >"$tmp/run.out" 2>&1
# exit 3 (partial): some probe parts cannot measure (exitcost's futex ping-pong needs two CPUs)
is "$?" 3 "native and qemu (TCG) cells run, some probes skip ($(($(date +%s) - t0)) s)" ||
	tail -20 "$tmp/run.out"
is "$(q "select backend, status from cell order by workload, backend" | tr '\n' ' ')" \
	"native|ok qemu|ok native|ok qemu|ok native|ok qemu|ok native|ok qemu|ok " "every cell is ok"
for w in hello-world pyaes matmul crud-api; do
	d() { q "select group_concat(distinct i.digest) from invocation i join cell c on c.id = i.cell_id where c.workload = '$w' and c.backend = '$1' and i.ok = 1 and i.phase = 'measured'"; }
	n=$(d native)
	ok "${#n}" = 64 "$w: one digest over the native calls"
	is "$(d qemu)" "$n" "$w: the VM's calls give the native digest"
done
is "$(q "select count(*) from invocation i join cell c on c.id = i.cell_id where c.backend = 'qemu' and i.phase = 'measured' and i.ok = 1 and i.fn_ns > 0 and i.latency_ns > i.fn_ns")" \
	20 "20 measured calls in the VM, each with latency > time inside cvmfn > 0"
is "$(q "select group_concat(distinct p.value) from cell_param p join cell c on c.id = p.cell_id where c.backend = 'qemu' and p.key = 'qemu.scratch'")" \
	"/scratch on the guest's initramfs root (guest RAM): writes and fsync reach no disk" \
	"crud-api writes its scratch files in the guest (the data disk is read-only), and the cell says where"
pgrep -f "$tmp/cvmbench-vm-" >/dev/null
is "$? $(ls -d "$tmp"/cvmbench-vm-* 2>/dev/null | wc -l)" "1 0" "no QEMU process or VM directory left"

# --- the instance probes ran inside the guest, and their rows say so -----------------
pv() { q "select group_concat(distinct p.value) from cell_param p join cell c on c.id = p.cell_id where c.backend = '$1' and p.key = '$2'"; }
for p in cpu exitcost; do
	is "$(pv qemu $p.side)" instance "qemu: $p is an instance probe"
done
grep -q '^guest: ' <<<"$(pv qemu idle.vantage)"
is "$?" 0 "qemu: idle's vantage (opened or skipped) is the guest"
v=$(pv qemu exitcost.vantage)
grep -q '^guest: cvmbench-agent .* in vm 0 of 1 (QEMU pid [0-9]*, kernel ' <<<"$v"
is "$?" 0 "qemu: exitcost's vantage is the guest ($v)"
a=$(pv qemu cpu.agent)
grep -q '^cvmbench-agent .* in guest (vm 0, kernel ' <<<"$a"
is "$?" 0 "qemu: the agent the guest itself names measured cpu ($a)"
grep -q '^host: in-process agent' <<<"$(pv native exitcost.vantage)"
is "$?" 0 "native: exitcost's vantage is the host"
is "$(q "select count(*) from metric m join cell c on c.id = m.cell_id where c.backend = 'qemu' and m.probe = 'exitcost' and m.name = 'cpuid_median' and m.value > 0")" \
	4 "qemu: every VM cell has the guest's exitcost cpuid_median"
# the guest's own facts against independent sources: the image's manifest, TCG's CPUID signature
man=$($CVMBENCH guest build 2>/dev/null | awk '/^manifest/ { print $2 }')
kr=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["kernel_release"])' "$man")
is "$(pv qemu guest.kernel.release)" "$kr" "qemu: guest.kernel.release is the image's kernel ($kr)"
ok "$(pv qemu guest.kernel.release)" != "$(uname -r)" "... not the host's ($(uname -r))"
is "$(pv qemu guest.hypervisor.signature)" TCGTCGTCGTCG "qemu: the guest's CPUID hypervisor signature is TCG's"
gd=$(pv qemu guest.cpuidle.driver)
r=$(q "select group_concat(distinct s.reason) from skip s join cell c on c.id = s.cell_id where c.backend = 'qemu' and s.probe = 'idle'")
n=$(q "select count(*) from metric m join cell c on c.id = m.cell_id where c.backend = 'qemu' and m.probe = 'idle'")
h=$(q "select count(*) from metric m join cell c on c.id = m.cell_id where c.backend = 'qemu' and m.probe = 'idle' and m.name = 'halt_entries'")
if [ "$gd" = none ]; then
	# no cpuidle driver in a TCG guest: its idle entries from its own power:cpu_idle tracepoint
	ok "$h" -gt 0 "qemu: idle in the guest counts the guest's halt entries from its tracepoint (driver none; skips: ${r:-none})"
else
	ok "$n" -gt 0 "qemu: idle in the guest measured with the guest's driver $gd"
fi

# --- kill -9 mid-cell, then restore ---------------------------------------------------
cat >"$tmp/long.ini" <<'EOF'
[experiment long]
workload = hello-world
backend = qemu
accel = tcg
confidential = model
invocations = 1000000
EOF
$CVMBENCH run "$tmp/long.ini" --db "$tmp/long.db" >"$tmp/long.out" 2>&1 &
pid=$!
qpid=
for ((i = 0; i < 1200; i++)); do   # until calls run in the VM (up to 60 s)
	[ -s "$tmp/long.db" ] && [ "$(sqlite3 "$tmp/long.db" "select count(*) from instance" 2>/dev/null)" = 1 ] &&
		qpid=$(sqlite3 "$tmp/long.db" "select pid from instance") && break
	sleep 0.05
done
is "$(cat /proc/${qpid:-0}/comm 2>/dev/null)" qemu-system-x86 \
	"the instance's recorded pid is the VM's QEMU (${qpid:-none})"
tr '\0' ' ' </proc/${qpid:-0}/cmdline 2>/dev/null |
	grep -q -- "-object memory-backend-ram,id=mem0,size=256M,prealloc=on,merge=off -machine q35,memory-backend=mem0,mem-merge=off "
is "$?" 0 "confidential = model: QEMU runs with preallocated, unmergeable guest RAM"
exec 3>&2 2>/dev/null
kill -9 $pid
wait $pid
exec 2>&3 3>&-
ndir=$(ls -d "$tmp"/cvmbench-vm-* 2>/dev/null | wc -l)
$CVMBENCH restore >"$tmp/restore.out" 2>&1
is "$?" 0 "cvmbench restore after kill -9" || cat "$tmp/restore.out"
gone() {   # the process ended (a zombie not yet reaped by PID 1 counts), within 5 s
	for ((i = 0; i < 100; i++)); do
		st=$(awk '{ print $3 }' /proc/$1/stat 2>/dev/null)
		[ -z "$st" ] || [ "$st" = Z ] && return 0
		sleep 0.05
	done
	return 1
}
ok "${qpid:-0}" -gt 0 "a QEMU pid was seen"
[ -n "$qpid" ] && gone "$qpid"
is "$? $(pgrep -f "$tmp/cvmbench-vm-" | wc -l) $ndir $(ls -d "$tmp"/cvmbench-vm-* 2>/dev/null | wc -l)" \
	"0 0 1 0" "no QEMU left (pid $qpid ended); the VM directory left by kill -9 removed by restore"
