#!/bin/bash
# tests/system/noise.t - the machine's load around a cell (lib/noise.c,
# metrics of the pseudo-probe "noise"), against a CPU hog this test starts and
# times itself: while a native cell runs beside a busy loop (a child of this
# shell, ended by its pid), the cell's other_cpu_ms must be close to the CPU
# time the kernel gave the hog over the cell (its /proc/PID/stat utime + stime,
# scaled from the whole run to the cell's window) and flag_noisy must be set;
# the same cell without the hog is not flagged. The threshold is set above the
# background this machine had just before (read from /proc/stat here); a
# machine already too busy to tell a hog from the rest skips. `show` prints the
# flag. The fake-/proc branches are tests/unit/noise.c.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=7
plan $N
[ -r /proc/stat ] || skip_all $N "cannot read /proc/stat"
command -v sqlite3 > /dev/null || skip_all $N "no sqlite3 (apt-get install sqlite3)"
tmp=$(mktemp -d)
hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
# native cells change no host setting: a private host lock, so a concurrent
# run elsewhere on the machine does not make this one wait or fail
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock

hz=$(getconf CLK_TCK)
ncpus=$(grep -c '^cpu[0-9]' /proc/stat)
# user + nice + system + irq + softirq + steal: the tool flags steal too
busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
now_ms() { date +%s%3N; }

# the background: % of all CPUs' time busy over one second, before anything
b0=$(busy); sleep 1; b1=$(busy)
bg=$(( (b1 - b0) * 100 * 100 / hz / (ncpus * 100) ))
hog_pct=$(( 100 / ncpus ))     # one busy loop: one CPU's worth
# A busy machine cannot show a quiet cell: then only the hog's side is checked,
# flagged at 0.4 hog (a busy machine is not a missing tool: no failure under CI).
busy_why=
[ "$bg" -gt $(( hog_pct / 2 )) ] &&
	busy_why="the machine is busy already (${bg} % of its CPUs; a hog adds ${hog_pct} %)"
threshold=$(( ${busy_why:+0 * }bg + hog_pct * 2 / 5 ))
write_ini() {
	cat > "$tmp/n.ini" <<INI
[experiment noise]
workload = null
backend = native
wait = block
invocations = ${1:-20000}
warmup = 0
noise-threshold = $threshold
INI
}
write_ini
metric() { sqlite3 "$1" "SELECT value FROM metric WHERE probe = 'noise' AND name = '$2'"; }

# run_timed DB: run the cell; CPU busy ms of all CPUs over it in $run_busy,
# cvmbench's own (and its children's) in $run_own, the exit code in $rc
TIMEFORMAT='%3U %3S'
run_timed() {
	local b0 b1
	b0=$(busy)
	{ time $CVMBENCH run "$tmp/n.ini" --db "$1" > /dev/null 2> "$tmp/err"; } 2> "$tmp/time"
	rc=$?
	b1=$(busy)
	run_busy=$(( (b1 - b0) * 1000 / hz ))
	run_own=$(awk '{ printf "%.0f", ($1 + $2) * 1000 }' "$tmp/time")
}

if [ -n "$busy_why" ]; then
	skip_rest 2 "$busy_why"
else
	run_timed "$tmp/quiet.db"
	is "$rc" 0 "a native cell runs (threshold ${threshold} %, background ${bg} %)" ||
		sed 's/^/# /' "$tmp/err"
	# what else ran over the whole run, read here: if even that is under the
	# threshold, the cell must not be flagged
	wall=$(metric "$tmp/quiet.db" wall_ms)
	if awk -v o=$((run_busy - run_own)) -v w="$wall" -v n="$ncpus" -v t="$threshold" \
		'BEGIN { exit !(o < t / 100 * w * n) }'; then
		is "$(metric "$tmp/quiet.db" flag_noisy)" 0.0 "without a hog: not flagged (other $(
			metric "$tmp/quiet.db" other_cpu_pct) %; all others over the run $((
			run_busy - run_own)) ms)"
	else
		skip "others got busy during the quiet cell ($((run_busy - run_own)) ms over the run)"
	fi
fi

# with the hog: a cell of INV calls beside a busy loop; its ticks in h0, h1 over t0..t1
hog_cell() {
	write_ini "$1"
	bash -c 'while :; do :; done' & hog=$!
	sleep 0.2
	t0=$(now_ms); h0=$(ticks "$hog")
	run_timed "$tmp/hog.db"
	t1=$(now_ms); h1=$(ticks "$hog")
	kill "$hog"; wait "$hog" 2> /dev/null; hog=
}
inv=${CVMBENCH_TEST_NOISE_CALLS:-20000}
hog_cell "$inv"
# The tool's rounding allowance is a tick per CPU and per process (about 0.7 s
# on 64 CPUs): a cell shorter than 3 of them cannot show a hog of one CPU.
# Then once more, as many calls as make it 3 x (sized from this cell's wall).
wall=$(metric "$tmp/hog.db" wall_ms); res=$(metric "$tmp/hog.db" resolution_ms)
if [ "$rc" = 0 ] && awk -v w="${wall:-0}" -v r="${res:-0}" 'BEGIN { exit !(w < 3 * r) }'; then
	inv=$(awk -v i="$inv" -v w="$wall" -v r="$res" 'BEGIN { printf "%d", i * (3.5 * r / (w > 1 ? w : 1) + 1) }')
	echo "# hog cell ${wall} ms < 3 x the tick allowance ${res} ms: again with $inv calls"
	rm -f "$tmp/hog.db"; hog_cell "$inv"
fi
is "$rc" 0 "the same cell runs beside a busy loop (threshold ${threshold} %)" ||
	sed 's/^/# /' "$tmp/err"
wall=$(metric "$tmp/hog.db" wall_ms)
other=$(metric "$tmp/hog.db" other_cpu_ms)
res=$(metric "$tmp/hog.db" resolution_ms)
if awk -v w="${wall:-0}" -v r="${res:-0}" 'BEGIN { exit !(w < 2 * r) }'; then
	skip "flag beside the hog: the cell (${wall} ms) is under 2 x the tick allowance (${res} ms)"
else
	is "$(metric "$tmp/hog.db" flag_noisy)" 1.0 \
		"beside the hog: flagged (other $(metric "$tmp/hog.db" other_cpu_pct) %, ${wall} ms)"
fi
# The hog's CPU time over the cell's window, at its rate over the whole run.
# Other processes only add to it: the lower bound holds on a busy machine too.
want=$(awk -v h=$((h1 - h0)) -v hz="$hz" -v t=$((t1 - t0)) -v w="$wall" \
	'BEGIN { printf "%.0f", h * 1000 / hz / t * w }')
lo=$(awk -v x="$want" 'BEGIN { printf "%.0f", 0.8 * x }')
# Above: what every CPU did over the whole run (/proc/stat, read here) less
# what cvmbench and its children used (the shell's `time`): the cell's window
# lies inside the run, so its "other" cannot be more, whatever else ran.
hi=$(awk -v o=$((run_busy - run_own)) -v hz="$hz" -v r="$res" -v n="$ncpus" \
	'BEGIN { printf "%.0f", o + r + n * 1000 / hz }')
ok "${other%.*}" -ge "$lo" "other processes' CPU time ${other} ms >= 0.8 x the hog's own ${want} ms"
ok "${other%.*}" -le "$hi" "... and <= ${hi} ms: all CPUs' busy time over the run less cvmbench's"
$CVMBENCH show --db "$tmp/hog.db" 2> /dev/null | grep -q "flag_noisy"
is "$?" 0 "show prints the flag"
