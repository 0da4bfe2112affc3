#!/bin/bash
# tests/system/corunner-vm.t - Fig. 7's co-runner in a second VM (real TCG
# guests, the `system` rootfs: built here on first use, minutes): a qemu
# cell with corunner-in = vm and corunner-kind = kv boots the co-runner VM,
# whose agent runs redis-server and redis-benchmark inside it - no
# redis-server runs on the host meanwhile (polled through the cell; the
# host has redis installed, so its absence means something) - and stores
# the co-runner's requests/s in the cell window and alone before it, each
# from completed rounds. With pin = core and corunner-pin = core the
# co-runner VM's vCPU j is on the same CPUs as the function VM's vCPU j,
# both read back from the kernel. After the run no QEMU of the run and no
# kv directory is left, and the journal has nothing open.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/guest-lib.sh

N=10
guest_test_begin $N mmdebstrap redis-server || exit 0
db=$tmp/kv.db
q() { sqlite3 "$db" "$@"; }
cat >"$tmp/kv.ini" <<'EOF2'
[defaults]
workload = hello-world
backend = qemu
accel = tcg
vcpus = 2
invocations = 8
warmup = 1
probes = latency
pin = core
corunner-pin = core
corunner-kind = kv
corunner-in = vm
[experiment kvvm]
corunner = 0, 4
EOF2

# Poll for a redis-server on the host while the run lasts.
watch_redis() {
	while kill -0 "$1" 2>/dev/null; do
		pgrep -x redis-server >>"$tmp/host-redis"
		sleep 0.2
	done
}
: >"$tmp/host-redis"
$CVMBENCH run "$tmp/kv.ini" --db "$db" >"$tmp/run.out" 2>&1 &
run=$!
watch_redis $run &
watcher=$!
wait $run; rc=$?
wait $watcher
is "$rc" 0 "a cell alone and one beside the co-runner VM run (exit $rc)" ||
	{ tail -20 "$tmp/run.out"; q "select message from error" | sed 's/^/# /'; }
kv=$(q "select cell_id from cell_param where key = 'corunner' and value = '4'")
par() { q "select value from cell_param where cell_id = ${kv:-0} and key = '$1'"; }
is "$(wc -l <"$tmp/host-redis")" 0 "no redis-server ran on the host during the run"
grep -q "^kv in a second VM (QEMU pid [0-9]*, tcg, rootfs system): redis-server on vCPU 0" \
	<<<"$(par corunner-vm.applied)"
is "$?" 0 "the cell says where its co-runner ran ($(par corunner-vm.applied))"
ok "$(par corunner.vm_rootfs_hash | wc -c)" = 65 "... and on which system rootfs"
rps=$(par corunner.kv_requests_per_s) alone=$(par corunner.kv_alone_requests_per_s)
ok "$(awk -v a="${rps:-0}" 'BEGIN { print (a > 0) }')" = 1 \
	"the co-runner's requests/s in the cell window ($rps, $(par corunner.kv_results) results)"
ok "$(awk -v a="${alone:-0}" 'BEGIN { print (a > 0) }')" = 1 \
	"... and alone before it ($alone, $(par corunner.kv_alone_results) results)"
ok "$(par corunner.kv_results)" -ge 2 "the window's figure is of completed rounds (SET and GET)"
for j in 0 1; do
	fn=$(par pin.obtained.vcpu$j) co=$(par corunner.vm.vcpu$j)
	is "${co:-none}" "${fn:-none}" "co-runner VM's vCPU $j on the function VM's vCPU $j's CPUs ($fn)"
done
left=$(pgrep -f "qemu-system.*$tmp" | wc -l; ls -d "$tmp"/cvmbench-kv-* 2>/dev/null | wc -l)
is "$(tr '\n' ' ' <<<"$left")" "0 0 " "no QEMU of the run and no kv directory left"
