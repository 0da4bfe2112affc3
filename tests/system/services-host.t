#!/bin/bash
# tests/system/services-host.t - loadgen = host in a TCG guest (issue 35):
# nginx in the guest, cvmload on the host through the guest's user-mode NIC
# (QEMU's SLIRP, one forward from the host's 127.0.0.1). One cell, one boot,
# two 2-second windows. Checked against what the program under test does
# not compute itself:
#  - the requests cvmload reports (its stored outputs, side = host) add up
#    to the requests nginx logged inside the guest (its access log's lines,
#    counted by the agent: cell note svc.server_requests);
#  - while the cell ran, `ss -ltnp` showed the cell's QEMU (found by our
#    temporary directory in its /proc/PID/cmdline) listening on exactly one
#    TCP socket, 127.0.0.1:PORT, where PORT is the one QEMU's own command
#    line forwards (hostfwd=tcp:127.0.0.1:PORT-...) and cvmload's URL names;
#  - each window has its metric rows and a generator that exited 0.
# The rootfs comes from CVMBENCH_CACHE_DIR (make check-long).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'touch "$tmp/done"; wait; $CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data TMPDIR=$tmp
RATE=200 N=2

plan 7
command -v qemu-system-x86_64 >/dev/null || skip_all 7 "qemu-system-x86_64 not installed"
command -v ss >/dev/null || skip_all 7 "ss not installed (Debian package iproute2)"
[ "$(id -u)" = 0 ] || skip_all 7 "needs root (ss -p of QEMU)"
[ -x ./cvmload ] || skip_all 7 "./cvmload not built (make)"
$CVMBENCH rootfs build --check system >/dev/null 2>&1 ||
	skip_all 7 "the system rootfs is not built (cvmbench rootfs build system; CVMBENCH_CACHE_DIR)"

# Every 0.1 s: "PID LOCAL-ADDRESS CMDLINE-HOSTFWD" for each TCP socket a QEMU of ours listens on.
watch_listen() {
	local st rq sq local peer users pid cmd fwd
	while [ ! -e "$tmp/done" ]; do
		ss -Hltnp 2>/dev/null | while read -r st rq sq local peer users; do
			case $users in *qemu*) ;; *) continue ;; esac
			pid=${users#*pid=}
			pid=${pid%%,*}
			cmd=$(tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null) || continue
			grep -qF -- "$tmp" <<<"$cmd" || continue
			fwd=$(grep -o 'hostfwd=[^,]*' <<<"$cmd")
			echo "$pid $local ${fwd:-none}"
		done
		sleep 0.1
	done >>"$tmp/listen"
}

printf "[experiment h]\nworkload = nginx-open\nbackend = qemu\naccel = tcg\nrootfs = system\n" \
	>"$tmp/h.ini"
printf "vcpus = 2\nmemory = 1024\nscratch-disk = 256\ninvocations = %s\nwarmup = 0\n" $N \
	>>"$tmp/h.ini"
printf "svc-duration = 2\nsvc-rate = %s\nboot-timeout = 600\nloadgen = host\n" $RATE \
	>>"$tmp/h.ini"
watch_listen &
$CVMBENCH run "$tmp/h.ini" --db "$tmp/h.db" --wait-lock 3600 >"$tmp/h.log" 2>&1
rc=$?
touch "$tmp/done"
wait
is "$rc" 0 "the loadgen = host cell ran" || sed 's/^/#   /' "$tmp/h.log" | tail -5

q() { sqlite3 "$tmp/h.db" "$1"; }
is "$(q "SELECT count(*) FROM service_output WHERE side = 'host' AND exit_status = 0")" $N \
	"$N windows, each cvmload's run on the host, exit 0"
is "$(q "SELECT count(DISTINCT invocation_id) FROM metric WHERE probe = 'cvmload'
	 AND name = 'requests_per_s'")" $N "each window's metrics stored (requests_per_s)"
sent=$(q "SELECT output FROM service_output WHERE side = 'host'" |
	awk '$1 == "requests" { n += $2 } $1 == "errors" { e += $2 } END { print n + 0, e + 0 }')
logged=$(q "SELECT value FROM cell_param WHERE key = 'svc.server_requests'")
is "$sent" "$((RATE * 2 * N)) 0" "cvmload sent $((RATE * 2 * N)) requests over the NIC, no errors"
is "$logged" "${sent% *}" "nginx in the guest logged as many requests as cvmload reports"

port=$(q "SELECT output FROM service_output WHERE side = 'host'" |
	sed -n 's|^url http://127.0.0.1:\([0-9]*\)/.*|\1|p' | sort -u)
listen=$(awk '{ print $2, $3 }' "$tmp/listen" 2>/dev/null | sort -u)
is "$listen" "127.0.0.1:$port hostfwd=tcp:127.0.0.1:$port-10.0.2.15:8000" \
	"QEMU listened on 127.0.0.1:$port only, the port its hostfwd names and cvmload's URL" ||
	sed 's/^/#   /' "$tmp/listen" | sort -u | head -5
is "$(awk '{ print $1 }' "$tmp/listen" | sort -u | wc -l)" 1 "one QEMU of this test listened"
