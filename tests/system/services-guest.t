#!/bin/bash
# tests/system/services-guest.t - the system suite's done-when in TCG guests
# (issue 35): two services, sysbench cpu (closed, no server) and nginx under
# cvmload's open loop (server and generator in the guest), each in a regular
# guest (confidential = none) and a `model` one, three 2-second windows a
# cell, on the `system` rootfs with a scratch disk; then `cvmbench compare
# --json` on that database. Checked against the tools' own text, not the
# parsers: each window's stored output (side = guest) is sysbench's (its
# "events per second:" line, its "total time:" about the 2 s asked) or
# cvmload's ("cvmload 1", as many requests as svc-rate x svc-duration, all
# ok); each window's wall time is at least the 2 s asked. compare's pair
# per tool has N = 3 windows a side (the windows in the database), its
# throughput (and nginx's median latency) overhead equals the medians of the numbers awk reads from the
# stored outputs (higher is better: median(none)/median(model) - 1), and
# its 95 % interval holds that value. One run of four cells, ~1.5 min
# under TCG here (make check-long). The rootfs comes from CVMBENCH_CACHE_DIR.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap '$CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
RATE=300

plan 12
command -v qemu-system-x86_64 >/dev/null || skip_all 12 "qemu-system-x86_64 not installed"
command -v jq >/dev/null || skip_all 12 "jq not installed (Debian package jq)"
[ -x ./cvmload ] || skip_all 12 "./cvmload not built (make)"
$CVMBENCH rootfs build --check system >/dev/null 2>&1 ||
	skip_all 12 "the system rootfs is not built (cvmbench rootfs build system; CVMBENCH_CACHE_DIR)"
printf "[experiment g]\nworkload = sysbench-cpu, nginx-open\nbackend = qemu\naccel = tcg\n%s\n" \
	"rootfs = system" > "$tmp/g.ini"
printf "vcpus = 2\nmemory = 1024\nscratch-disk = 512\ninvocations = 3\nwarmup = 0\n%s\n" \
	"svc-duration = 2" >> "$tmp/g.ini"
printf "svc-rate = %s\nboot-timeout = 600\nconfidential = none, model\n" $RATE >> "$tmp/g.ini"
$CVMBENCH run "$tmp/g.ini" --db "$tmp/g.db" --wait-lock 3600 >"$tmp/g.log" 2>&1
rc=$?
[ "$rc" = 3 ] && sqlite3 "$tmp/g.db" "SELECT reason FROM skip WHERE probe IS NOT NULL" |
	grep -q 'not built in' && rc=0
is "$rc" 0 "the four guest cells ran" || sed 's/^/#   /' "$tmp/g.log" | tail -5

q() { sqlite3 "$tmp/g.db" "$1"; }
# The stored outputs of workload $1 on side confidential = $2.
outputs() {
	q "SELECT o.output || char(10) || '@@' FROM service_output o JOIN cell_param p
	   ON p.cell_id = o.cell_id AND p.key = 'confidential' JOIN cell c ON c.id = o.cell_id
	   WHERE c.workload = '$1' AND p.value = '$2' AND o.side = 'guest' AND o.exit_status = 0"
}
# The median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

is "$(q "SELECT count(*) FROM invocation WHERE ok = 1 AND phase = 'measured' AND latency_ns >= 2e9")" 12 \
	"twelve windows (2 tools x 2 guest kinds x 3), each at least the 2 s asked"
is "$(q "SELECT count(*) FROM service_output WHERE side = 'guest' AND exit_status = 0 AND service = 'sysbench-cpu' AND instr(output, 'events per second:') > 0")" 6 \
	"each sysbench window's output is sysbench's own, from the guest"
bad=$(for k in none model; do outputs sysbench-cpu $k; done |
	awk '/total time:/ { sub("s", "", $3); n++; if ($3 < 1.9 || $3 >= 3) bad++ } END { print n + 0, bad + 0 }')
is "$bad" "6 0" "sysbench says each window ran ~2 s in the guest (windows, outside 1.9-3 s)"
got=$(for k in none model; do outputs nginx-open $k; done |
	awk -v want=$((RATE * 2)) 'NR == 1 || prev == "@@" { n++; if ($0 != "cvmload 1") bad++ }
	     $1 == "requests" && $2 != want { bad++ } $1 == "errors" && $2 != 0 { bad++ }
	     { prev = $0 } END { print n + 0, bad + 0 }')
is "$got" "6 0" "each nginx-open window is cvmload's report from the guest: $((RATE * 2)) requests, no errors"

$CVMBENCH compare --db "$tmp/g.db" --json >"$tmp/c.json" 2>"$tmp/c.err"
is "$?" 0 "compare reads the database" || sed 's/^/#   /' "$tmp/c.err" | tail -3

# check_tool WORKLOAD PARSER METRIC AWK-KEY DIRECTION: N, the overhead from
# the outputs' own numbers (the last field of the lines AWK-KEY matches;
# higher is better: median(none)/median(model) - 1, lower: the inverse) and
# the interval around it.
check_tool() {
	local m base side want
	m=$(jq -c --arg w "$1" --arg p "$2" --arg m "$3" '.pairs[] | select(.workload == $w and
		.baseline == "none" and .side == "model" and .service) | .stats.metrics[] |
		select(.parser == $p and .metric == $m)' "$tmp/c.json")
	is "$(jq -r '"\(.direction) \(.base.n) \(.side.n)"' <<<"$m")" "$5 3 3" \
		"$1: compare pairs none with model, $3 $5 is better, N = 3 windows a side"
	base=$(outputs "$1" none | awk -v k="$4" '$0 ~ k { print $NF }' | median)
	side=$(outputs "$1" model | awk -v k="$4" '$0 ~ k { print $NF }' | median)
	[ "$5" = lower ] && { want=$base; base=$side; side=$want; }
	want=$(awk -v b="${base:-0}" -v s="${side:-1}" 'BEGIN { printf "%.9f", b / s - 1 }')
	is "$(jq -r --argjson w "$want" '(.overhead - $w | fabs) < 1e-6 and
		.overhead_ci[0] <= .overhead and .overhead <= .overhead_ci[1]' <<<"$m")" true \
		"$1 $3: overhead $(jq -r .overhead <<<"$m") = $base/$side - 1 from the tool's text, inside its interval $(jq -c .overhead_ci <<<"$m")"
}
check_tool sysbench-cpu sysbench-cpu events_per_s "^ *events per second: " higher
check_tool nginx-open cvmload requests_per_s "^achieved_per_s " higher
check_tool nginx-open cvmload latency_p50_ns "^latency_p50_ns " lower
