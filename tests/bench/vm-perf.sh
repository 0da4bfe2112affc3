#!/bin/bash
# tests/bench/vm-perf.sh - the qemu backend's performance figures (issue 12;
# docs/performance.md), under ACCEL (default tcg):
#  1. warm-call round trip of the null function, natively and through the
#     VM (virtio-serial, the guest's cvmfn): median and p99 of N calls per
#     cell, REPEATS cells of each, --digest first; what the VM adds is the
#     difference, the harness's own share the native figure;
#  2. boot to ready: BOOTS boots of 1 vCPU, 256 MiB: ready - qemu-spawn on
#     the host clock and the guest's uptime at ready (table vm_boot);
#  3. host memory of an idle 256 MiB guest: Pss, Rss and anonymous memory of
#     its QEMU process (/proc/PID/smaps_rollup; the pid printed by
#     `cvmbench guest boot --hold`) 10, 20 and 30 s after ready.
# Not part of `make check`. Run it as root under the shared lock:
#
#   flock /tmp/cvmbench-host.lock tests/bench/vm-perf.sh [N [REPEATS [BOOTS]]]   (2000 3 10)
set -eu
cd "$(dirname "$0")/../.."
n=${1:-2000} reps=${2:-3} boots=${3:-10} accel=${ACCEL:-tcg}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data TMPDIR=$tmp
CVMBENCH=${CVMBENCH:-./cvmbench}
q() { sqlite3 "$1" "$2"; }
# min / median / max of numbers on stdin
mmm() { sort -n | awk -v f="${1:-%.0f}" '{ v[NR] = $1 } END { if (!NR) { print "none"; exit }
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf f " / " f " / " f " (n=%d)\n", v[1], m, v[NR], NR }'; }

echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) CPUs, accel=$accel, $(qemu-system-x86_64 --version | head -1)"
echo "## 1. warm round trip, null function, $n calls per cell, $reps cells per backend"
cat >"$tmp/rt.ini" <<EOF
[experiment rt]
workload = null
backend = native, qemu
accel = $accel
probes = latency
invocations = $n
warmup = 50
repeats = $reps
EOF
$CVMBENCH -q run "$tmp/rt.ini" --db "$tmp/rt.db" --digest first --wait-lock 600 >/dev/null
for b in native qemu; do
	for s in median p99; do
		printf '%-6s %-6s us (min / median / max over cells): ' $b $s
		q "$tmp/rt.db" "SELECT m.value / 1000.0 FROM metric m JOIN cell c ON c.id = m.cell_id
			WHERE c.backend = '$b' AND m.name = 'round_trip_$s'" | mmm %.1f
	done
done
printf 'VM adds (qemu - native median, per repeat), us: '
q "$tmp/rt.db" "SELECT (SELECT m.value FROM metric m JOIN cell c ON c.id = m.cell_id WHERE
	c.backend = 'qemu' AND c.repeat_index = r.repeat_index AND m.name = 'round_trip_median') -
	(SELECT m.value FROM metric m JOIN cell c ON c.id = m.cell_id WHERE c.backend = 'native'
	AND c.repeat_index = r.repeat_index AND m.name = 'round_trip_median') FROM
	(SELECT DISTINCT repeat_index FROM cell) r" | awk '{ print $1 / 1000 }' | mmm %.1f

echo "## 2. boot to ready, 1 vCPU, 256 MiB, $boots boots"
cat >"$tmp/boot.ini" <<EOF
[experiment boot]
workload = hello-world
backend = qemu
accel = $accel
invocations = 1
warmup = 0
repeats = $boots
EOF
$CVMBENCH -q run "$tmp/boot.ini" --db "$tmp/boot.db" --wait-lock 600 >/dev/null
ph() { echo "(SELECT t_ns FROM vm_boot x WHERE x.cell_id = b.cell_id AND x.phase = '$1')"; }
for p in first-console ready; do
	printf '%-14s host s from QEMU spawn (min / median / max): ' $p
	q "$tmp/boot.db" "SELECT ($(ph $p) - $(ph qemu-spawn)) / 1e9 FROM (SELECT DISTINCT cell_id
		FROM vm_boot) b WHERE $(ph $p) IS NOT NULL" | mmm %.2f
done
for p in console-enabled run-init guest-ready; do
	printf '%-14s guest s (min / median / max): ' $p
	q "$tmp/boot.db" "SELECT $(ph $p) / 1e9 FROM (SELECT DISTINCT cell_id FROM vm_boot) b
		WHERE $(ph $p) IS NOT NULL" | mmm %.2f
done

echo "## 3. host memory of an idle guest (1 vCPU, 256 MiB, accel=$accel)"
$CVMBENCH guest boot --accel "$accel" --hold 32 >"$tmp/hold.out" 2>&1 &
bp=$!
for ((i = 0; i < 1200; i++)); do
	grep -q '^qemu-pid ' "$tmp/hold.out" && break
	sleep 0.05
done
qp=$(awk '$1 == "qemu-pid" { print $2 }' "$tmp/hold.out")
[ -n "$qp" ] || { echo "no guest: $(tail -3 "$tmp/hold.out")"; exit 1; }
for t in 10 20 30; do
	sleep 10
	awk -v t=$t '/^(Rss|Pss|Pss_Anon|Anonymous):/ { v[$1] = $2 } END {
		printf "%2d s after ready: Rss %.0f MiB, Pss %.0f MiB, Pss_Anon %.0f MiB, Anonymous %.0f MiB\n",
		t, v["Rss:"] / 1024, v["Pss:"] / 1024, v["Pss_Anon:"] / 1024, v["Anonymous:"] / 1024 }' \
		/proc/$qp/smaps_rollup
done
wait $bp
