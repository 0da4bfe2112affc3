#!/bin/bash
# tests/system/pin-vcpu.t - `pin` on the qemu backend (bench/knobs/pin-vcpu.c):
# a TCG guest of two vCPUs with pin = core. While the VM runs, the test asks
# QEMU itself (a QMP client of its own, in python) for its vCPU threads;
# vCPU N's thread's Cpus_allowed_list in /proc must be core N's CPUs as the kernel lists them
# (/sys/.../topology/thread_siblings_list; core 1 is the core of the first
# CPU outside core 0), the cell must store the same as pin.obtained.vcpuN,
# and it must not carry the unpinned-vCPU setup flag (pmu.t checks an
# unpinned qemu cell does).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/guest-lib.sh

guest_test_begin 5 || exit 0
sys=/sys/devices/system/cpu
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip_all 5 "one CPU: no second core to pin vCPU 1 to"
$CVMBENCH env 2>/dev/null | grep -q '^topology.hwloc .*built without' &&
	skip_all 5 "built without hwloc"
core0=$(cat $sys/cpu0/topology/thread_siblings_list)
expand() { local p; for p in ${1//,/ }; do seq "${p%-*}" "${p#*-}"; done; }
first1=$(expand "$(cat $sys/online)" | grep -vxF -f <(expand "$core0") | head -1)
core1=$(cat $sys/cpu$first1/topology/thread_siblings_list)

cat > "$tmp/v.ini" <<INI
[experiment v]
workload = null
backend = qemu
accel = tcg
vcpus = 2
pin = core
invocations = 3000
warmup = 0
boot-timeout = 120
INI
# the vCPU threads of QEMU $1, asked over its QMP socket (from its command
# line) by a client of our own: "INDEX TID" lines
vcpu_tids() {
	python3 - "$(tr '\0' '\n' < /proc/$1/cmdline | sed -n 's/^unix:\([^,]*\),server.*/\1/p' |
		head -1)" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sys.argv[1])
f = s.makefile("rw")
def reply():
    while True:
        m = json.loads(f.readline())
        if "event" not in m:
            return m
reply()
for cmd in ("qmp_capabilities", "query-cpus-fast"):
    f.write(json.dumps({"execute": cmd}) + "\n")
    f.flush()
    r = reply()
for c in r["return"]:
    print(c["cpu-index"], c["thread-id"])
PY
}
allowed() { awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$1/task/$2/status" 2>/dev/null; }

$CVMBENCH run "$tmp/v.ini" --db "$tmp/v.db" --wait-lock 600 2>"$tmp/v.err" & pid=$!
got0= got1=
for _ in $(seq 1200); do
	q=$(pgrep -P "$pid" -f qemu-system | head -1)
	# pinned: some thread of QEMU runs on core 0 alone (before: on every CPU)
	if [ -n "$q" ] && for t in /proc/$q/task/*; do allowed "$q" "${t##*/}"; done |
		grep -qxF "$core0"; then
		while read -r i tid; do
			[ "$i" = 0 ] && got0=$(allowed "$q" "$tid")
			[ "$i" = 1 ] && got1=$(allowed "$q" "$tid")
		done < <(vcpu_tids "$q")
		break
	fi
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
wait "$pid"; rc=$?
param() { sqlite3 "$tmp/v.db" "SELECT value FROM cell_param WHERE key = '$1'"; }
is "$rc" 0 "a pinned TCG cell of two vCPUs runs" || sed 's/^/# /' "$tmp/v.err"
is "$got0" "$core0" "vCPU 0's thread (QMP, our own client) runs on core 0's CPUs ($core0) (/proc)"
is "$got1" "$core1" "... and vCPU 1's on core 1's ($core1)"
is "$(param pin.obtained.vcpu0)/$(param pin.obtained.vcpu1)" "$core0/$core1" \
	"the cell stores the CPUs each vCPU thread obtained"
is "$(param sanity.vcpus_unpinned | wc -l)" 0 "pinned vCPUs: no setup flag for unpinned ones"
