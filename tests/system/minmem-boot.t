#!/bin/bash
# tests/system/minmem-boot.t - `cvmbench minmem` with real TCG boots:
# hello-world on a regular VM and on the model, 64-256 MiB at 32 MiB.
# Every step is a run of its own in the database; whether each step passed
# is worked out again here from the raw rows (the cell's status, its
# measured calls all ok, the median of their latencies in SQL against the
# baseline's times 1 + threshold), and must be what minmem stored; the
# answer is the smallest passing size tried, every size tried below it
# failed; at 64 MiB the guest cannot boot (its initramfs does not fit), so
# the answer is above it. The same command again measures nothing (every
# step's run kept). The answer is printed in the table.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/guest-lib.sh

N=8
guest_test_begin $N || exit 0
db=$tmp/mm.db
q() { sqlite3 "$db" "$@"; }
args=(hello-world --db "$db" --vm-type none,model --from 64 --to 256 --step 32
      --invocations 8 --threshold 50 --accel tcg)
$CVMBENCH minmem "${args[@]}" >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "minmem on none and model ends (exit $rc)" || tail -5 "$tmp/err"
is "$(q "SELECT count(*) FROM minmem WHERE min_mib IS NOT NULL")" 2 "an answer for each VM type"
for t in none model; do
	ans=$(q "SELECT min_mib FROM minmem WHERE vm_type = '$t'")
	grep -q "^hello-world *$t *$ans " "$tmp/out"
	is "$?" 0 "$t: the table says $ans MiB"
done
# pass/fail of each step again, from the raw rows (median in SQL: the
# middle row, or the mean of the two middle ones)
again=$(q "WITH s AS (SELECT m.id mid, m.vm_type, st.memory_mib mib, st.cell_id cid,
    st.passed stored, m.threshold_pct th FROM minmem m JOIN minmem_step st ON st.minmem_id = m.id),
  l AS (SELECT cell_id cid, latency_ns / 1e6 v, row_number() OVER (PARTITION BY cell_id ORDER BY latency_ns) r,
    count(*) OVER (PARTITION BY cell_id) n FROM invocation WHERE phase = 'measured' AND ok = 1),
  med AS (SELECT cid, avg(v) med FROM l WHERE r IN ((n + 1) / 2, (n + 2) / 2) GROUP BY cid),
  calls AS (SELECT cell_id cid, count(*) n, sum(ok) k FROM invocation WHERE phase = 'measured' GROUP BY cell_id),
  base AS (SELECT s.mid, med.med b FROM s JOIN med ON med.cid = s.cid WHERE s.mib = 256)
  SELECT count(*) FROM s LEFT JOIN med ON med.cid = s.cid LEFT JOIN calls ON calls.cid = s.cid
    LEFT JOIN base ON base.mid = s.mid LEFT JOIN cell c ON c.id = s.cid
  WHERE s.stored != (c.status = 'ok' AND calls.n > 0 AND calls.k = calls.n AND
    (s.mib = 256 OR med.med <= base.b * (1 + s.th / 100.0)))")
is "$again" 0 "every step's stored pass/fail is what the raw rows say"
is "$(q "SELECT count(*) FROM minmem m JOIN minmem_step s ON s.minmem_id = m.id WHERE
    (s.memory_mib < m.min_mib AND s.passed) OR (s.memory_mib = m.min_mib AND NOT s.passed)")" 0 \
	"the answer passed, every size tried below it failed"
is "$(q "SELECT count(*) FROM minmem_step WHERE memory_mib = 64 AND passed = 0 AND why LIKE '%ready%'")" 2 \
	"at 64 MiB the guest does not boot, on both VM types"
runs=$(q "SELECT count(*) FROM run")
$CVMBENCH minmem "${args[@]}" >"$tmp/out2" 2>"$tmp/err2"
is "$(q "SELECT count(*) FROM run")/$(grep -c "^cvmbench: info: cell 1/1 " "$tmp/err2")" "$runs/0" \
	"the same command again: no new run, no cell run again, not even a failed one ($runs runs)"
