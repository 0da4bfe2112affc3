#!/usr/bin/env bash
# tests/system/minmem.t - `cvmbench minmem` without booting anything: bad
# input is exit 2 before any run, naming the value (a range below the
# smallest guest a VM takes, an empty range, an unknown VM type or
# workload), no database written; and the planner's `memory = minmem`
# against a crafted database (craft-plan-db.py): the model platform's
# memory per instance is exactly the newest minmem answer stored for the
# function on that VM type (not its hostmem figure, not an older answer,
# not another VM type's), recorded as mem_source minmem; a function
# without an answer is refused with exit 2 naming the command to run; a
# minmem platform without a VM type is refused. The search with real boots
# is tests/system/minmem-boot.t (check-long).
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 14
here=$(dirname "$0")

mm() { "$CVMBENCH" minmem "$@" --db "$tmp/mm.db" 2>&1; }
out=$(mm hello-world --from 32); rc=$?
is "$rc:$(grep -c -- '--from 32: below 64 MiB' <<<"$out")" 2:1 "--from below the smallest guest: exit 2, says so"
out=$(mm hello-world --from 256 --to 128); rc=$?
is "$rc:$(grep -c -- '--to 128: must be above --from 256' <<<"$out")" 2:1 "an empty range: exit 2, says so"
out=$(mm hello-world --vm-type none,cvm); rc=$?
is "$rc:$(grep -c -- '--vm-type cvm: give none, model, sev-snp or tdx' <<<"$out")" 2:1 "an unknown VM type: exit 2, names it"
out=$(mm no-such-fn); rc=$?
is "$rc:$(grep -c "unknown workload 'no-such-fn'" <<<"$out")" 2:1 "an unknown workload: exit 2 before any run, names it"
ok "$(ls "$tmp" | grep -c mm.db)" = 0 "no database written for bad input"

"$CVMBENCH" -q trace gen --kind mix --functions 20 --minutes 120 --seed 3 --out "$tmp/tr.csv"
python3 "$here/craft-plan-db.py" "$tmp/p.db" larger
plan_ini() {
	cat <<EOC
[plan]
trace = $tmp/tr.csv
seeds = 1
bootstrap = 2
[platform regular]
backend = qemu
confidential = none
[platform model]
backend = qemu
confidential = ${1:-model}
twin = regular
memory = minmem
EOC
}
plan_ini > "$tmp/p.ini"
# a plan of the regular platform alone migrates the crafted database to the newest schema
sed '/^\[platform model\]/,$d' "$tmp/p.ini" > "$tmp/reg.ini"
"$CVMBENCH" -q plan --config "$tmp/reg.ini" --db "$tmp/p.db" > /dev/null 2>&1
"$CVMBENCH" -q plan --config "$tmp/p.ini" --db "$tmp/p.db" > /dev/null 2> "$tmp/err"
is $? 2 "memory = minmem with no minmem answer yet: exit 2"
ok "$(grep -c 'platform model lacks for function fa: a minimum memory on model (run cvmbench minmem fa --vm-type model)' "$tmp/err")" -ge 1 \
	"... naming the command to run ($(head -c 200 "$tmp/err"))"
# store answers as minmem would (the table is the newest schema's)
sqlite3 "$tmp/p.db" "INSERT INTO minmem (created_at, workload, vm_type, accel, size, from_mib, to_mib, step_mib, threshold_pct, baseline_ms, min_mib) VALUES
  ('t', 'fa', 'model', 'tcg', 'test', 64, 1024, 16, 10, 1, 512),
  ('t', 'fa', 'model', 'tcg', 'test', 64, 1024, 16, 10, 1, 320),
  ('t', 'fa', 'none', 'tcg', 'test', 64, 1024, 16, 10, 1, 128),
  ('t', 'fb', 'model', 'tcg', 'test', 64, 1024, 16, 10, 1, NULL),
  ('t', 'fb', 'model', 'tcg', 'test', 64, 1024, 16, 10, 1, 192)"
is $? 0 "the answers stored in the migrated database"
"$CVMBENCH" -q plan --config "$tmp/p.ini" --db "$tmp/p.db" > /dev/null 2> "$tmp/err"
is $? 0 "with answers for both functions: the plan runs ($(head -c 200 "$tmp/err"))"
is "$(sqlite3 "$tmp/p.db" "SELECT group_concat(workload || '=' || mem_mib || ':' || mem_source, ' ') FROM (SELECT * FROM plan_input WHERE plan_id = (SELECT max(id) FROM plan) AND platform = 'model' ORDER BY workload)")" \
	"fa=320.0:minmem fb=192.0:minmem" \
	"model: the newest search's answer on model per function (fa 320, not 512 nor none's 128; fb 192)"
ok "$(sqlite3 "$tmp/p.db" "SELECT count(*) FROM plan_input WHERE plan_id = (SELECT max(id) FROM plan) AND platform = 'regular' AND mem_source != 'minmem'")" = 2 \
	"the regular platform keeps its measured host memory"
# a newer search without an answer: the older answer is stale, the function has none
sqlite3 "$tmp/p.db" "INSERT INTO minmem (created_at, workload, vm_type, accel, size, from_mib, to_mib, step_mib, threshold_pct, baseline_ms, min_mib, why) VALUES ('t', 'fb', 'model', 'tcg', 'test', 64, 1024, 16, 10, 1, NULL, 'at 64 MiB ...')"
"$CVMBENCH" -q plan --config "$tmp/p.ini" --db "$tmp/p.db" > /dev/null 2> "$tmp/err"
is "$?:$(grep -c 'lacks for function fb: a minimum memory on model' "$tmp/err")" 2:1 \
	"the newest search for fb found no answer: refused, not an older answer"
# the steps of a minmem search and replay cells never feed a platform's measurements:
# copies of the regular fa cell (its calls, params, hostmem rows) as a minmem step and
# as a replay cell
for kind in minmem replay; do
	sqlite3 "$tmp/p.db" "
	  INSERT INTO cell (run_id, cell_key, experiment, workload, size, backend, threads, wait, mode,
	    instances, invocations, warmup, repeat_index, seed, probes, spec, status, started_at, ended_at)
	  SELECT run_id, cell_key || '-$kind', CASE '$kind' WHEN 'minmem' THEN 'minmem-step' ELSE experiment END,
	    workload, size, backend, threads, wait, mode, instances, invocations, warmup, repeat_index, seed,
	    probes, spec, status, started_at, ended_at FROM cell WHERE id = 1;
	  INSERT INTO cell_param SELECT last_insert_rowid(), key, value FROM cell_param WHERE cell_id = 1;
	  INSERT INTO cell_param SELECT id, 'replay-schedule', '/x' FROM cell WHERE id = (SELECT max(id) FROM cell) AND '$kind' = 'replay';
	  INSERT INTO invocation (cell_id, instance_idx, seq, phase, start, started_at, latency_ns, fn_ns, ok)
	    SELECT (SELECT max(id) FROM cell), instance_idx, seq, phase, start, started_at, latency_ns * 50, fn_ns, ok
	    FROM invocation WHERE cell_id = 1"
done
sed '/^\[platform model\]/,$d' "$tmp/p.ini" > "$tmp/reg.ini"
"$CVMBENCH" -q plan --config "$tmp/reg.ini" --db "$tmp/p.db" > /dev/null 2>"$tmp/err"
is "$?:$(sqlite3 "$tmp/p.db" "SELECT cells || ' ' || warm_n FROM plan_input WHERE plan_id = (SELECT max(id) FROM plan) AND platform = 'regular' AND workload = 'fa'")" \
	"0:1 30" "a minmem step's and a replay cell's copies of fa's cell are not among the platform's cells ($(head -c 100 "$tmp/err"))"
plan_ini any > "$tmp/any.ini"
out=$("$CVMBENCH" -q plan --config "$tmp/any.ini" --db "$tmp/p.db" 2>&1); rc=$?
is "$rc:$(grep -c 'platform model: memory = minmem is a VM type.s: give confidential = none, model' <<<"$out")" 2:1 \
	"memory = minmem without a VM type: exit 2, says what to give"
