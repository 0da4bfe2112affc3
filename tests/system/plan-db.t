#!/usr/bin/env bash
# tests/system/plan-db.t - `cvmbench plan --config` against crafted databases
# (craft-plan-db.py: a regular and a model platform, two functions, schema 9):
# the plan reads exactly the crafted memory per instance (memcg / instances
# where the cell has the cgroup figure, PSS otherwise, computed here from the
# crafted numbers), the database is migrated and the plan stored; with the
# model's memory 1.5 times the regular's and equal latencies the extra
# memory at 1/5/10 % is non-negative and half the twin's (same arrivals, same
# resamples), with equal memory it is exactly zero; a platform missing its
# hostmem row is refused with exit 2 naming the cell, nothing written; the
# figures' data files have one curve per (platform, policy).
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/plan-lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 15
here=$(dirname "$0")

"$CVMBENCH" -q trace gen --kind mix --functions 30 --minutes 360 --seed 3 --out "$tmp/tr.csv"
plan_ini "$tmp/tr.csv" 'budget = 2GiB' 'seeds = 2' 'bootstrap = 3' > "$tmp/p.ini"
q() { sqlite3 "$1" "$2"; }
for m in larger equal missing; do python3 "$here/craft-plan-db.py" "$tmp/$m.db" $m; done

"$CVMBENCH" -q plan --config "$tmp/p.ini" --db "$tmp/larger.db" > "$tmp/out" 2> "$tmp/err"
is $? 0 "plan --config on the crafted database (larger model)"
is "$(q "$tmp/larger.db" 'PRAGMA user_version')" "$(ls results-schema/[0-9]*.sql | wc -l)" "the schema-9 database was migrated to the newest"
# expected: fa 262144 kB memcg over 2 instances; fb 204800 kB PSS, 1 instance
is "$(q "$tmp/larger.db" "SELECT printf('%.3f %s', mem_mib, mem_source) FROM plan_input WHERE platform = 'regular' AND workload = 'fa'")" \
	"$(awk 'BEGIN { printf "%.3f memcg", 262144 / 2 / 1024 }')" "regular fa: memcg / instances"
is "$(q "$tmp/larger.db" "SELECT printf('%.3f %s', mem_mib, mem_source) FROM plan_input WHERE platform = 'model' AND workload = 'fb'")" \
	"$(awk 'BEGIN { printf "%.3f pss", 204800 * 1.5 / 1024 }')" "model fb: PSS where no memcg row"
is "$(q "$tmp/larger.db" "SELECT cold_n || ' ' || cold_source || ' ' || cells || ' ' || runs FROM plan_input WHERE platform = 'model' AND workload = 'fa'")" \
	"2 vm_boot+first-call 3 1" "cold starts from the two VM boots; cells and runs recorded"
is "$(q "$tmp/larger.db" "SELECT count(*) FROM plan_target WHERE extra_mib >= 0 AND target_pct IN (1, 5, 10)")" 3 \
	"larger model: extra memory at 1/5/10 % non-negative"
is "$(q "$tmp/larger.db" "SELECT count(*) FROM plan_target WHERE abs(extra_mib - 0.5 * twin_mem_mib) < 1e-6 * twin_mem_mib AND extra_lo_mib <= extra_mib AND extra_hi_mib >= extra_lo_mib")" 3 \
	"larger model: extra = 0.5 x twin (same arrivals, memory x 1.5), inside its interval"

"$CVMBENCH" -q plan --config "$tmp/p.ini" --db "$tmp/equal.db" > /dev/null 2>&1
is "$(q "$tmp/equal.db" "SELECT count(*) FROM plan_target WHERE extra_mib = 0 AND extra_lo_mib = 0 AND extra_hi_mib = 0")" 3 \
	"equal memory: extra exactly 0 at 1/5/10 %"

"$CVMBENCH" -q plan --config "$tmp/p.ini" --db "$tmp/missing.db" > /dev/null 2> "$tmp/err"
is $? 2 "a platform without a function's hostmem row: exit 2"
ok "$(grep -c 'platform model lacks for function fb: host memory.*seen: 4' "$tmp/err")" -ge 1 \
	"the refusal names the platform, function and the cell ($(head -c 160 "$tmp/err"))"
is "$(q "$tmp/missing.db" "SELECT count(*) FROM sqlite_master WHERE name = 'plan'")" 0 "nothing written"

# gnuplot, keeping a copy of each figure's data file as $tmp/keep/SCRIPT.dat
mkdir -p "$tmp/bin" "$tmp/keep"
cat > "$tmp/bin/gnuplot" <<SH
#!/bin/bash
for a; do case \$a in datafile=*) d=\${a#datafile=\\'}; d=\${d%%\\'*};; esac; done
cp "\$d" "$tmp/keep/\$(basename "\${@: -1}" .gp).dat"
exec $(command -v gnuplot || echo false) "\$@"
SH
chmod +x "$tmp/bin/gnuplot"
curves() {   # FIGURE QUESTION: the data's titled blocks against the distinct (platform, policy)
	local want
	want=$(q "$tmp/larger.db" "SELECT count(*) FROM (SELECT DISTINCT platform, policy FROM plan_point WHERE question = '$2')")
	if ! command -v gnuplot > /dev/null; then
		skip "no gnuplot: plot $1 not drawn"
		return
	fi
	PATH=$tmp/bin:$PATH "$CVMBENCH" -q plot "$1" --db "$tmp/larger.db" --out "$tmp/$1.svg" \
		> /dev/null 2> "$tmp/plot.err"
	is "$(grep -c '^"' "$tmp/keep/$1.dat" 2>/dev/null)" "$want" \
		"$1 data: one curve per (platform, policy) ($want; $(head -c 200 "$tmp/plot.err"))"
}
curves plan-pareto ladder
curves plan-budget budget
"$CVMBENCH" -q show --table plan --db "$tmp/larger.db" > "$tmp/show"
ok "$(grep -c '^model  *regular' "$tmp/show")" -ge 3 "show --table plan prints the target rows"
"$CVMBENCH" -q export --csv --db "$tmp/larger.db" --table plan-targets > "$tmp/t.csv"
is "$(($(wc -l < "$tmp/t.csv") - 1))" "$(q "$tmp/larger.db" 'SELECT count(*) FROM plan_target')" \
	"export --csv --table plan-targets: every target row"
