#!/bin/bash
# tests/system/runc-coverage.t - a real runc and a real crun cold start with
# the runc probe: named phases (every phase but `other`) cover at least 90 %
# of the starts' time, on each runtime; the phases of every start still sum
# to its total, and fork-to-reply still agrees with the latency the harness
# timed outside the probe; the phases that take `other` apart (runtime,
# init, state, sched-wait, ...) are there; the runtime's re-exec of itself
# (crun) is not taken for the container's init. Needs root, runc, crun and
# tracefs: SKIPs with the reason (under CI a missing runc or crun fails; a
# kernel without tracefs still skips).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=13
plan $N
[ "$(id -u)" = 0 ] || skip_all $N "needs root"
for rt in runc crun; do
	command -v $rt >/dev/null || skip_all $N "$rt is not installed"
	why=$(here $rt); [ "$why" = "supported here" ] || { skip_rest $N "$rt: $why"; exit 0; }
done
"$CVMBENCH" env --json 2>/dev/null | python3 -c 'import json,sys
sys.exit(not json.load(sys.stdin)["tracefs.mountable"]["value"].startswith("yes"))' ||
	{ skip_rest $N "no tracefs: $("$CVMBENCH" env 2>/dev/null | awk '$1 == "tracefs.mountable"')"; exit 0; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
db=$tmp/r.db
q() { sqlite3 "$db" "$@"; }
cat > "$tmp/c.ini" <<INI
[defaults]
workload = hello-world
mode = cold
invocations = 8
warmup = 1
probes = runc
[experiment coverage]
backend = runc, crun
INI
"$CVMBENCH" run "$tmp/c.ini" --db "$db" --data-dir "$tmp/data" 2>"$tmp/err"; rc=$?
is "$rc" 0 "runc and crun cold starts with the probe: exit 0 ($(grep -m1 error "$tmp/err"))"
is "$(q "SELECT count(*) FROM cell WHERE status != 'ok'")" 0 "every cell ok"
is "$(q "SELECT count(*) FROM runc_start s WHERE total_ns != (SELECT sum(duration_ns) FROM runc_phase WHERE start_id = s.id)")" 0 \
	"the phases of every start sum to its total"
ok "$(q "SELECT CAST(100 * avg(abs(s.cold_start_ns - i.latency_ns) <= 0.10 * i.latency_ns) AS INTEGER)
	FROM runc_start s JOIN invocation i ON i.id = s.invocation_id")" -ge 90 \
	"fork-to-reply within 10 % of the harness's latency for >= 90 % of the starts"
# share of the starts' summed time in named phases (all but other), per runtime
named() { q "SELECT CAST(1000 * (1 - coalesce((SELECT sum(p.duration_ns) FROM runc_phase p
	JOIN runc_start s ON s.id = p.start_id WHERE s.runtime = '$1' AND p.phase = 'other'), 0)
	/ (SELECT 1.0 * sum(total_ns) FROM runc_start WHERE runtime = '$1')) AS INTEGER)"; }
starts() { q "SELECT count(*) FROM runc_start WHERE runtime = '$1'"; }
has() { q "SELECT count(*) FROM runc_start s WHERE runtime = '$1' AND EXISTS (SELECT 1 FROM
	runc_phase p WHERE p.start_id = s.id AND p.phase = '$2' AND p.duration_ns > 0)"; }
for rt in runc crun; do
	n=$(starts $rt)
	ok "$n" -ge 8 "$rt: $n starts traced"
	r=$(named $rt)
	ok "${r:-0}" -ge 900 "$rt: named phases cover $((${r:-0} / 10)).$((${r:-0} % 10)) % of the starts (>= 90 %)"
done
missing=
for ph in runtime-exec runtime-start runtime init state sched-wait; do
	[ "$(has runc $ph)" = "$(starts runc)" ] || missing="$missing $ph"
done
is "$missing" "" "runc: every start has runtime-exec, runtime-start, runtime, init, state, sched-wait"
# crun re-execs its own memfd copy: still the runtime (runtime-start and
# runtime; before that was fixed its whole process counted as init)
missing=
for ph in runtime-exec runtime; do
	[ "$(has crun $ph)" = "$(starts crun)" ] || missing="$missing $ph"
done
is "$missing" "" "crun: every start has runtime-exec and runtime (its re-exec is the runtime's)"
is "$(q "SELECT count(*) FROM runc_start s WHERE coalesce((SELECT duration_ns FROM runc_phase
	WHERE start_id = s.id AND phase = 'other'), 0) > 0.10 * total_ns")" 0 \
	"no start, runc or crun, has more than 10 % in other"
"$CVMBENCH" plot runc-phases --db "$db" --out "$tmp/phases.png" 2>"$tmp/plot.err"; rc=$?
is "$rc:$(grep -ci warning "$tmp/plot.err")" "0:0" "runc-phases figure drawn with every phase, gnuplot printed no warning ($(grep -m1 -i warning "$tmp/plot.err"))"
left="$(ls -d /sys/kernel/tracing/instances/cvmbench-runc-* "$CVMBENCH_STATE_DIR"/oci/* 2>/dev/null) $(cat "$CVMBENCH_STATE_DIR/journal" 2>/dev/null)"
is "$(echo $left)" "" "no tracefs instance, bundle or journal entry left"
