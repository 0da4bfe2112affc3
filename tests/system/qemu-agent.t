#!/bin/bash
# tests/system/qemu-agent.t - the guest agent (cvmbench-agent) under TCG:
# it is a static program without the store (no SQLite symbol), and the
# guest image carries exactly this build; `vms = 2` boots two VMs whose
# instances are two QEMU processes, both serving calls with the same digest;
# `instances-per-vm = 2` runs two instances on two ports of one VM; more
# instances than ports is a skip. An agent that sends a malformed line or
# exits mid-cell (CVMBENCH_TEST_AGENT_FAULT) is a clear error of that cell,
# its VM is ended, and the next cell runs. SKIPs without root or QEMU (a
# failure under CI).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=20
plan $N
why=
[ "$(id -u)" = 0 ] || why="needs root"
[ -z "$why" ] && ! command -v sqlite3 >/dev/null && why="no sqlite3"
[ -z "$why" ] && ! command -v qemu-system-x86_64 >/dev/null && why="qemu-system-x86_64 is not installed"
agent=$(dirname "$CVMBENCH")/cvmbench-agent
[ -z "$why" ] && ! file "$agent" | grep -q "statically linked" && why="no static $agent (a sanitizer build)"
[ -n "$why" ] && skip_all $N "$why"
command -v mkfs.ext4 >/dev/null || PATH=$PATH:/usr/sbin:/sbin
tmp=$(mktemp -d)
trap '$CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export TMPDIR=$tmp CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data

# --- the program --------------------------------------------------------------------
is "$(nm "$agent" | grep -c ' sqlite3_')" 0 "cvmbench-agent links no SQLite (the store stays on the host)"
nm "$agent" | grep -q ' T agent_handle$'
is "$?" 0 "... and does link the agent protocol"
if ! $CVMBENCH guest build >"$tmp/b" 2>&1; then
	if [ -z "${CI:-}" ] && grep -qiE "apt-get|apt-cache" "$tmp/b"; then
		skip_rest $((N - 2)) "cannot fetch the kernel package: $(head -c 200 "$tmp/b")"
		exit 0
	fi
fi
man=$(awk '/^manifest/ { print $2 }' "$tmp/b")
is "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["agent_sha256"])' "$man")" \
	"$(sha256sum <"$agent" | cut -d' ' -f1)" "the guest image holds this cvmbench-agent (its SHA-256 in the manifest)"

# --- two VMs; two instances in one VM; too many instances -------------------------------
cat >"$tmp/m.ini" <<'EOF'
[experiment two]
workload = hello-world
backend = qemu
accel = tcg
vms = 2
instances = 2
invocations = 6
warmup = 2
probes = latency, cpu
[experiment ports]
workload = hello-world
backend = qemu
accel = tcg
instances-per-vm = 2
instances = 2
invocations = 6
warmup = 2
[experiment toomany]
workload = hello-world
backend = qemu
instances = 3
instances-per-vm = 2
EOF
db=$tmp/m.db
q() { sqlite3 "$db" "$@"; }
t0=$(date +%s)
$CVMBENCH run "$tmp/m.ini" --db "$db" >"$tmp/m.out" 2>&1
is "$?" 3 "vms and instances-per-vm cells run; one skips ($(($(date +%s) - t0)) s)" || tail -20 "$tmp/m.out"
cid() { q "select c.id from cell c join cell_param p on p.cell_id = c.id where p.key = 'experiment' and p.value = '$1'"; }
two=$(cid two) ports=$(cid ports) many=$(cid toomany)
is "$(q "select status from cell where id in ($two, $ports) order by id" | tr '\n' ' ')" "ok ok " "both cells are ok"
is "$(q "select count(distinct pid) from instance where cell_id = $two")" 2 \
	"vms = 2: the two instances are two QEMU processes"
is "$(q "select count(distinct pid) from instance where cell_id = $ports")" 1 \
	"instances-per-vm = 2: the two instances share one QEMU"
for c in $two $ports; do
	is "$(q "select count(distinct instance_idx) || ' ' || count(distinct digest) || ' ' || sum(ok) from invocation where cell_id = $c")" \
		"2 1 8" "cell $c: calls on both instances, all ok, one digest"
done
is "$(q "select digest from invocation where cell_id = $two limit 1")" \
	"$($CVMFN run hello-world --size test 2>/dev/null | awk '/^digest / { print $2 }')" \
	"... the digest of \`cvmfn run\` on the host"
is "$(q "select value from cell_param where cell_id = $two and key = 'guest.vms'")" 2 "guest.vms = 2"
is "$(q "select value from cell_param where cell_id = $two and key = 'guest.vm1.kernel.cmdline'" | grep -o 'cvmbench.vm=1')" \
	"cvmbench.vm=1" "VM 1's facts that differ from VM 0's are stored apart (its command line)"
is "$(q "select count(*) from cell_param where cell_id = $two and key = 'guest.vm1.kernel.release'")" 0 \
	"... and the same kernel release is not repeated"
r=$(q "select reason from skip where cell_id = $many")
grep -q "instances = 3 do not fit vms = 1 x instances-per-vm = 2" <<<"$r"
is "$?" 0 "more instances than ports: a skip with the reason ($r)"

# --- a broken agent: malformed line, exit mid-cell ----------------------------------------
cat >"$tmp/f.ini" <<'EOF'
[experiment fault]
workload = hello-world
backend = qemu
accel = tcg
seed = 1, 2
invocations = 5
warmup = 1
probes = latency, cpu
EOF
for f in malformed exit; do
	fdb=$tmp/$f.db
	# the agent's 4th probe request: open, start cell, start inv 1 are answered
	CVMBENCH_TEST_AGENT_FAULT=$f@4 $CVMBENCH run "$tmp/f.ini" --db "$fdb" >"$tmp/$f.out" 2>&1
	is "$?" 1 "$f: the run says a cell failed" || tail -5 "$tmp/$f.out"
	st=$(sqlite3 "$fdb" "select status from cell order by id" | tr '\n' ' ')
	msg=$(sqlite3 "$fdb" "select message from error limit 1")
	[ $f = malformed ] && want="agent: malformed line: 'metric this line is not a row'" ||
		want="agent closed its channel"
	grep -qF "the agent's link broke (guest: cvmbench-agent" <<<"$msg" && grep -qF "$want" <<<"$msg"
	is "$? $st" "0 failed ok " "$f: that cell failed saying so, the next cell ran ($msg)"
	is "$(pgrep -f "$tmp/cvmbench-vm-" | wc -l) $(ls -d "$tmp"/cvmbench-vm-* 2>/dev/null | wc -l)" \
		"0 0" "$f: no QEMU or VM directory left"
done
