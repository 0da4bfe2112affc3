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
#
# Two checks are per start, and a start's time moves with the machine's load
# (the whole suite on 2 busy cores): the share in `other`, and fork-to-reply
# against the harness's latency. Each is robust, not a hard limit on every
# start: per runtime the median start is within the limit (10 %) and at most
# a quarter of the starts are beyond twice it (20 %): one or two starts of
# nine hit by the load pass, a probe that leaves 15-30 % of every start in
# `other` (the pre-partition probe: named phases covered 79 % of runc's and
# 86 % of crun's starts) or that times something else than the start fails.
# That the checks can fail is checked first, on synthetic starts (no root
# needed): the pre-partition shares, three of eight starts far out, a
# fork-to-reply 30 % short, each refused; one far-out start of eight passed.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=19
plan $N
if ! command -v sqlite3 >/dev/null; then skip_rest $N "no sqlite3"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# per start of runtime $2 in database $1, per mille: its share in other; and
# |fork-to-reply - the harness's latency| / latency
other_shares() { sqlite3 "$1" "SELECT CAST(1000.0 * coalesce((SELECT sum(duration_ns) FROM
	runc_phase WHERE start_id = s.id AND phase = 'other'), 0) / total_ns AS INTEGER)
	FROM runc_start s WHERE runtime = '$2'"; }
reply_shares() { sqlite3 "$1" "SELECT CAST(1000.0 * abs(s.cold_start_ns - i.latency_ns) /
	i.latency_ns AS INTEGER) FROM runc_start s JOIN invocation i ON i.id = s.invocation_id
	WHERE s.runtime = '$2'"; }
# robust LIMIT (per mille) over the values on stdin: "ok" when the median
# (the upper one) is <= LIMIT and at most a quarter are beyond 2 x LIMIT;
# else what was found
robust() { sort -n | awk -v lim="$1" '{ v[NR] = $1; if ($1 > 2 * lim) far++ }
	END { if (!NR) { print "no starts"; exit }
	      m = v[int(NR / 2) + 1]
	      if (m <= lim && 4 * far <= NR) print "ok"
	      else printf "median %.1f %%, %d of %d starts beyond %.0f %%\n", m / 10, far, NR, lim / 5 }'; }

# synthetic starts: runtime, other / total and fork-to-reply / latency per mille
synth() {   # DB then "runtime other reply" lines on stdin
	local i=0 rt o r
	sqlite3 "$1" "CREATE TABLE runc_start (id INTEGER PRIMARY KEY, runtime TEXT, total_ns INTEGER,
		cold_start_ns INTEGER, invocation_id INTEGER);
		CREATE TABLE runc_phase (start_id INTEGER, phase TEXT, duration_ns INTEGER);
		CREATE TABLE invocation (id INTEGER PRIMARY KEY, latency_ns INTEGER)"
	while read -r rt o r; do
		i=$((i + 1))
		echo "INSERT INTO invocation VALUES ($i, 10000000);
		      INSERT INTO runc_start VALUES ($i, '$rt', 1000000, $((10000 * (1000 - r))), $i);
		      INSERT INTO runc_phase VALUES ($i, 'init', $((1000 * (1000 - o)))), ($i, 'other', $((1000 * o)));"
	done | sqlite3 "$1"
}
# the pre-partition probe: 15-30 % of every runc start in other
printf 'runc %s 20\n' 210 180 250 150 300 220 190 160 | synth "$tmp/old.db"
is "$(other_shares "$tmp/old.db" runc | robust 100)" "median 21.0 %, 4 of 8 starts beyond 20 %" \
	"synthetic: other at 15-30 % of every start (the pre-partition probe) is refused"
# the load: one start of eight far out is passed; three are not
printf 'runc %s 20\n' 30 40 20 450 30 50 40 30 | synth "$tmp/one.db"
is "$(other_shares "$tmp/one.db" runc | robust 100)" ok "synthetic: one start of eight at 45 % in other is passed"
printf 'runc %s 20\n' 30 400 20 450 30 500 40 30 | synth "$tmp/three.db"
is "$(other_shares "$tmp/three.db" runc | robust 100)" "median 4.0 %, 3 of 8 starts beyond 20 %" \
	"synthetic: three starts of eight beyond 20 % in other are refused (the median alone would pass)"
printf 'runc 30 %s\n' 300 310 290 300 320 300 280 300 | synth "$tmp/short.db"
is "$(reply_shares "$tmp/short.db" runc | robust 100)" "median 30.0 %, 8 of 8 starts beyond 20 %" \
	"synthetic: a fork-to-reply 30 % short of the harness's latency is refused"

[ "$(id -u)" = 0 ] || skip_all $((N - 4)) "needs root"
for rt in runc crun; do
	command -v $rt >/dev/null || skip_all $((N - 4)) "$rt is not installed"
	why=$(here $rt); [ "$why" = "supported here" ] || { skip_rest $((N - 4)) "$rt: $why"; exit 0; }
done
"$CVMBENCH" env --json 2>/dev/null | python3 -c 'import json,sys
sys.exit(not json.load(sys.stdin)["tracefs.mountable"]["value"].startswith("yes"))' ||
	{ skip_rest $((N - 4)) "no tracefs: $("$CVMBENCH" env 2>/dev/null | awk '$1 == "tracefs.mountable"')"; exit 0; }

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
for rt in runc crun; do
	is "$(reply_shares "$db" $rt | robust 100)" ok \
		"$rt: fork-to-reply within 10 % of the harness's latency at the median start, at most a quarter beyond 20 %"
done
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
for rt in runc crun; do
	is "$(other_shares "$db" $rt | robust 100)" ok \
		"$rt: the median start has at most 10 % in other, at most a quarter of the starts more than 20 %"
done
"$CVMBENCH" plot runc-phases --db "$db" --out "$tmp/phases.png" 2>"$tmp/plot.err"; rc=$?
is "$rc:$(grep -ci warning "$tmp/plot.err")" "0:0" "runc-phases figure drawn with every phase, gnuplot printed no warning ($(grep -m1 -i warning "$tmp/plot.err"))"
left="$(ls -d /sys/kernel/tracing/instances/cvmbench-runc-* "$CVMBENCH_STATE_DIR"/oci/* 2>/dev/null) $(cat "$CVMBENCH_STATE_DIR/journal" 2>/dev/null)"
is "$(echo $left)" "" "no tracefs instance, bundle or journal entry left"
