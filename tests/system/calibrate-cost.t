#!/bin/bash
# tests/system/calibrate-cost.t - `cvmbench calibrate cost`: what counting
# costs per event, from interleaved counter-off / counter-on pairs of getpid
# rounds. The figures themselves depend on the machine; what is checked is
# their form: each way of counting gives the median of its pairs with the
# interval and the number of pairs, or "not measured" with a reason (bpf
# refused by the kernel, trace-stream without the journal); a cost is
# printed only when its interval excludes 0, else "below the noise: cannot
# be told from 0 here", never a bare negative cost. --pairs 0 is a usage
# error. Not root, no tracefs, no syscall events or perf refused: SKIP with
# the reason cvmbench gives.
set -u
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state    # its journal: a tracefs mount, an instance

plan 9
"$CVMBENCH" calibrate cost --pairs 0 > /dev/null 2>&1; is $? 2 "--pairs 0 is a usage error (exit 2)"
"$CVMBENCH" calibrate cost --pairs 1001 > /dev/null 2>&1; is $? 2 "--pairs above 1000 is a usage error"
err=$("$CVMBENCH" calibrate cost --calls 7 2>&1 >/dev/null); rc=$?
is "$rc: $err" "2: cvmbench: error: calibrate cost: --calls 7: at least 8 calls per round" \
   "--calls below 8 is a usage error naming the value (a stream round would time no call)"

calibrate 6 cost --calls 2000 --pairs 6 --wait-lock 300
is $rc 0 "calibrate cost: exit 0" || sed "s/^/# stderr: /" "$tmp/err"
echo "$out" | sed 's/^/# /'
ways=$(echo "$out" | grep '^getpid, ' | grep -v '^getpid, no counter')
is "$(echo "$ways" | wc -l)" 12 "twelve ways of counting, one line each"
is "$(echo "$ways" | grep -v 'not measured: .' |
      grep -vc ' ns/call  .* \[96\.9 % CI [-+][0-9.]* \.\. [-+][0-9.]* ns, 6 pairs\], ')" 0 \
   "each measured one: its figure, the interval of 6 pairs (coverage 62/64) and the pairs"
# the interval's bounds against the verdict: a cost only when 0 is outside
bad=$(echo "$ways" | grep -v 'not measured' | sed 's/.*ns\/call *//' | awk '{
	noise = /^below the noise: cannot be told from 0 here \(median [-+][0-9.]* ns\)/
	match($0, /CI [-+][0-9.]* \.\. [-+][0-9.]*/); split(substr($0, RSTART + 3, RLENGTH - 3), b, " .. ")
	if (noise != (b[1] <= 0 && b[2] >= 0) || (!noise && $1 !~ /^[-+][0-9.]+$/)) print }')
is "$bad" "" "a cost where its interval excludes 0, \"below the noise\" where it holds 0"
is "$(echo "$ways" | grep -c -e 'counter.* not measured' -e 'counters.* not measured')" 0 \
   "the perf-filter ways are measured (perf counted getpid here)"
if echo "$ways" | grep -q '^getpid, bpf.* not measured'; then
	skip "$(echo "$ways" | grep -m1 '^getpid, bpf.* not measured')"
else
	is "$(echo "$ways" | grep -c '^getpid, bpf.* pairs\], ')" 4 \
	   "the four bpf ways are measured"
fi
