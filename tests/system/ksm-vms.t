#!/bin/bash
# tests/system/ksm-vms.t - two idle TCG guests with KSM off, on and as
# `model` guests (build/tests/vm-ksm.t run: pages_sharing > 0 and summed
# PSS lower with KSM on, Pss_Anon against the MemAvailable drop, model
# guests not merged), then: every KSM and THP setting exactly as before
# and no QEMU of the test left. Root, KSM, QEMU and the guest image needed;
# else SKIP with the reason. Run under the shared lock:
#   flock /tmp/cvmbench-host.lock prove -v tests/system/ksm-vms.t
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

why=
[ "$(id -u)" = 0 ] || why="needs root"
[ -z "$why" ] && [ ! -e /sys/kernel/mm/ksm/run ] && why="KSM is not built into this kernel (no /sys/kernel/mm/ksm)"
[ -z "$why" ] && ! command -v qemu-system-x86_64 >/dev/null && why="no qemu-system-x86_64"
[ -z "$why" ] && [ ! -x build/tests/vm-ksm.t ] && why="build/tests/vm-ksm.t not built (make tests)"
if [ -n "$why" ]; then plan 13; skip_rest 13 "$why"; exit 0; fi

tmp=$(mktemp -d)
trap 'CVMBENCH_STATE_DIR=$tmp/state $CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
settings() {
	local f
	for f in run pages_to_scan sleep_millisecs smart_scan use_zero_pages \
		merge_across_nodes max_page_sharing advisor_mode; do
		echo "$f $(cat /sys/kernel/mm/ksm/$f 2>/dev/null)"
	done
	cat /sys/kernel/mm/transparent_hugepage/enabled
}
before=$(settings)
CVMBENCH_STATE_DIR=$tmp/state TMPDIR=$tmp build/tests/vm-ksm.t run | tee "$tmp/out" |
	grep -v '^1\.\.'
_tap_n=$(grep -c '^\(not \)\?ok' "$tmp/out")
is "$(settings)" "$before" "KSM and THP settings exactly as before" ||
	diff <(echo "$before") <(settings) | sed 's/^/# /'
left=$(pgrep -f "qemu-system.*$tmp" | tr '\n' ' ')
is "$left" "" "no QEMU of the test is left"
plan $_tap_n
