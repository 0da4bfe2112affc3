#!/bin/bash
# tests/system/list-probe-skips.t - `cvmbench list` names the probe skips a run
# would record ("would skip: PROBE: REASON"), decided by the functions the run
# asks (probe_cell_supported(), backend_cell_accel()). On two captured machines
# (tests/fixtures/machines, CVMBENCH_SYSROOT): A has /dev/kvm, so a qemu cell of
# accel = auto runs under KVM and its vmexit probe counts; B has none, so the
# cell would run under TCG and list says vmexit would skip. A native cell never
# runs a VM: list says so on both, and a real one-invocation run of that cell on
# this machine stores the same reason in its skip table.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

plan 9
[ -x "$CVMBENCH" ] || skip_all 9 "cvmbench not built"
command -v sqlite3 > /dev/null || skip_all 9 "no sqlite3"
command -v python3 > /dev/null || skip_all 9 "no python3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/configs"
cat > "$tmp/configs/vx.ini" <<'INI'
[experiment vx-native]
workload = null
invocations = 1
warmup = 0
probes = latency, vmexit

[experiment vx-qemu]
workload = null
backend = qemu
accel = auto
probes = latency, vmexit
INI
machines=tests/fixtures/machines
# list TREE: the experiments' lines of `cvmbench list` on the captured machine TREE
list() {
	CVMBENCH_SYSROOT=$PWD/$machines/$1/root "$CVMBENCH" list --configs "$tmp/configs" \
		2> "$tmp/list.err" | sed -n 's/^  vx\.ini:\(vx-[a-z]*\) *\(.*\)/\1 \2/p'
}
list A-kvm-haltpoll > "$tmp/A"
list B-pvm-no-cpuidle > "$tmp/B"
line() { sed -n "s/^$2 //p" "$tmp/$1"; }

no_vm="would skip: vmexit: backend native runs no VM (says no accelerator): no VM exits to count"
tcg="would skip: vmexit: the VMs run under tcg (accel = auto): QEMU emulates the guest, which makes no VM exits"
# vmexit's own supported() (root, tracefs) comes first: then every cell says that
vx=$("$CVMBENCH" list | sed -n 's/^  vmexit  *//p')
if [ "$vx" != "supported here" ]; then
	skip_rest 4 "vmexit is not supported here ($vx): every cell would skip it for that"
else
	is "$(line A vx-native)" "supported here, $no_vm" "A: a native cell would skip vmexit: no VM" ||
		sed 's/^/# /' "$tmp/list.err"
	is "$(line B vx-native)" "supported here, $no_vm" "B: the same"
	is "$(line A vx-qemu)" "supported here" \
		"A (/dev/kvm present): a qemu cell of accel = auto runs under kvm, vmexit counts"
	is "$(line B vx-qemu)" "supported here, $tcg" \
		"B (no /dev/kvm): the cell would run under tcg, list names vmexit's skip"
fi

# --json carries it: the probe, the reason, how many cells
CVMBENCH_SYSROOT=$PWD/$machines/B-pvm-no-cpuidle/root "$CVMBENCH" list --json \
	--configs "$tmp/configs" > "$tmp/B.json"
json() {
	python3 - "$tmp/B.json" "$1" <<'PY'
import json, sys
e = [x for x in json.load(open(sys.argv[1]))["experiments"] if x["name"] == "vx.ini:" + sys.argv[2]][0]
print(e["cells_probe_skips"], "|".join("%s=%s (%d)" % (r["probe"], r["reason"], r["cells"])
                                      for r in e["probe_skip_reasons"]))
PY
}
want=$(sed -n 's/^vx-qemu supported here, would skip: vmexit: //p' "$tmp/B")
[ -n "$want" ] || want=$(sed -n 's/^vx-qemu //p' "$tmp/B")
is "$(json vx-qemu)" "1 vmexit=$want (1)" "--json: the qemu cell's vmexit skip, its reason and cell count"

# A real run of the native cell on this machine stores list's reason.
list_why=$("$CVMBENCH" list --json --configs "$tmp/configs" | python3 -c '
import json, sys
e = [x for x in json.load(sys.stdin)["experiments"] if x["name"] == "vx.ini:vx-native"][0]
print("\n".join(r["reason"] for r in e["probe_skip_reasons"] if r["probe"] == "vmexit"))')
ok "$list_why" != "" "list (this machine): the native cell would skip vmexit ($list_why)"
key=$("$CVMBENCH" run "$tmp/configs/vx.ini" --dry-run 2> /dev/null | sed -n 's/^\(vx-native-[0-9a-f]*\).*/\1/p')
CVMBENCH_STATE_DIR=$tmp/state "$CVMBENCH" run "$tmp/configs/vx.ini" --only "$key" \
	--db "$tmp/r.db" > /dev/null 2> "$tmp/run.err"
rc=$?
ok "$(sqlite3 "$tmp/r.db" 'SELECT count(*) FROM invocation' 2>/dev/null || echo 0)" -ge 1 \
	"the run measured the native cell (exit $rc)" || sed 's/^/# /' "$tmp/run.err"
run_why=$(sqlite3 "$tmp/r.db" "SELECT reason FROM skip WHERE probe = 'vmexit'" 2>/dev/null)
is "$run_why" "$list_why" "the run's skip table holds list's reason for vmexit" ||
	sed 's/^/# /' "$tmp/run.err"
is "$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM skip WHERE probe = 'latency' OR probe IS NULL")" 0 \
	"and no other skip: latency measured, the cell not skipped"
