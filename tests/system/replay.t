#!/usr/bin/env bash
# tests/system/replay.t - `cvmbench replay`: a short trace (2 functions, 6
# minutes, seed 7) run for real natively, compressed 60 x, TTL 100 s (1.667 s
# replayed). The cold starts each function's cell stored are counted again
# here from its schedule file alone (one, plus one per gap between arrivals
# longer than the TTL; the seed is one whose gaps are all far from the TTL,
# checked too, so the calls' own milliseconds cannot move a gap across it),
# and the simulator's prediction printed beside them is the same number.
# Bad input is exit 2 before anything runs (no workloads, a replay over
# --max-seconds, not a 2019-format trace). A replay killed with kill -9
# mid-way had its instance in the journal by its pid, and leaves no
# instance once `cvmbench restore` ran (a native one also ends when its
# stdin closes: the journal entry is what restore would act on).
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap '"$CVMBENCH" restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
plan 10

"$CVMBENCH" -q trace gen --kind poisson --functions 2 --minutes 6 --rate 1.5 --seed 7 --out "$tmp/t.csv"
rp() { "$CVMBENCH" replay "$tmp/t.csv" --db "$tmp/r.db" "$@" 2>&1; }
out=$(rp); rc=$?
is "$rc:$(grep -c -- '--workloads: name the measured functions' <<<"$out")" 2:1 "no --workloads: exit 2, says so"
out=$(rp --workloads hello-world --compress 1 --max-seconds 60); rc=$?
is "$rc:$(grep -c 'over --max-seconds 60' <<<"$out")" 2:1 "a replay longer than --max-seconds: exit 2, says how long"
echo "not,a,trace" > "$tmp/bad.csv"
out=$("$CVMBENCH" replay "$tmp/bad.csv" --workloads null --db "$tmp/r.db" 2>&1); rc=$?
is "$rc:$(grep -c 'bad.csv:1: header' <<<"$out")" 2:1 "not a trace: exit 2, names the file"
ok "$(ls "$tmp" | grep -c '^r.db$')" = 0 "nothing run or written for bad input"

"$CVMBENCH" replay "$tmp/t.csv" --workloads hello-world,null --ttl 100 --compress 60 \
	--db "$tmp/r.db" > "$tmp/out" 2> "$tmp/err"
rc=$?
is "$rc" 0 "the replay runs and agrees with the simulator (exit $rc)" || sed 's/^/# /' "$tmp/out" "$tmp/err" | tail -8
# cold starts from a schedule: 1 + gaps > TTL; and the smallest distance of a gap to the TTL
count() { awk -v ttl=1666.667 '!/^#/ { if (n++ && $1 - p > ttl) c++; d = $1 - p - ttl; d = d < 0 ? -d : d;
	if (n > 1 && (m == "" || d < m)) m = d; p = $1 } END { print c + 1, int(m) }' "$1"; }
q() { sqlite3 "$tmp/r.db" "$1"; }
for i in 0 1; do
	read -r want margin <<<"$(count "$tmp/r.db.replay/replay-$i.schedule")"
	cell=$(q "SELECT c.id FROM cell c JOIN cell_param p ON p.cell_id = c.id AND p.key = 'experiment' AND p.value = 'replay-$i'")
	got=$(q "SELECT count(*) FROM invocation WHERE cell_id = ${cell:-0} AND start = 'cold'")
	pred=$(awk -v f="replay-$i" '$1 == f { print $5 }' "$tmp/out")
	is "$got/$pred/$((margin >= 100))" "$want/$want/1" "replay-$i: cold starts stored and predicted = 1 + gaps over the TTL from its schedule ($want; no gap within ${margin} ms of the TTL)"
done
ok "$(q "SELECT count(*) FROM cell_param WHERE key = 'replay.overlapped_calls' AND value = '0'")" = 2 \
	"no call overlapped the one before"

# kill -9 mid-replay: restore ends what it left
"$CVMBENCH" replay "$tmp/t.csv" --workloads hello-world --ttl 600 --compress 60 \
	--db "$tmp/k.db" > /dev/null 2>&1 &
parent=$!
for _ in $(seq 100); do          # the run (a child of replay) and its instance (the run's child)
	child=$(pgrep -P $parent | head -1)
	inst=${child:+$(pgrep -P "$child" -f "cvmfn serve hello-world" | head -1)}
	[ -n "$inst" ] && break
	sleep 0.1
done
sleep 0.3                        # its first call made: journalled after it
journalled=$(grep -c "^proc [0-9]* ${inst:-none} " "$tmp/state/journal" 2>/dev/null)
kill -9 $parent $child 2>/dev/null
wait $parent 2>/dev/null
ok "${inst:-0}/${journalled:-0}" = "${inst:-0}/1" "a replay instance ran ($inst) when cvmbench was killed, journalled by its pid (so restore ends it)"
"$CVMBENCH" restore >/dev/null 2>&1
sleep 0.2
ok "$( [ -n "$inst" ] && [ -d /proc/$inst ] && ! ps -o stat= -p $inst | grep -q Z && echo runs || echo gone)" = gone \
	"after kill -9 and restore no replay instance is left"
