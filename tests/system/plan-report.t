#!/usr/bin/env bash
# tests/system/plan-report.t - `cvmbench report` on a database with stored
# capacity plans (craft-plan-db.py, a regular and a model platform): the
# Markdown and HTML reports have the plan section of the newest plan, one
# row per stored target whose numbers are the plan_target row read here with
# sqlite3 (at the report's precision); an older plan's targets are not in
# it; a database without a plan has no plan section.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/plan-lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 8
here=$(dirname "$0")

"$CVMBENCH" -q trace gen --kind mix --functions 20 --minutes 240 --seed 5 --out "$tmp/tr.csv"
python3 "$here/craft-plan-db.py" "$tmp/db" larger
python3 "$here/craft-plan-db.py" "$tmp/none.db" larger
plan_ini "$tmp/tr.csv" 'targets = 1, 5, 10' 'seeds = 2' 'bootstrap = 2' > "$tmp/old.ini"
plan_ini "$tmp/tr.csv" 'targets = 2, 20' 'seeds = 2' 'bootstrap = 2' > "$tmp/new.ini"
"$CVMBENCH" -q plan --config "$tmp/old.ini" --db "$tmp/db" > /dev/null &&
	"$CVMBENCH" -q plan --config "$tmp/new.ini" --db "$tmp/db" > /dev/null
is $? 0 "two plans stored"
newest=$(sqlite3 "$tmp/db" 'SELECT max(id) FROM plan')
# the Markdown row of each stored target of plan $1, as the report prints it
rows() {
	sqlite3 "$tmp/db" "SELECT printf('| %s | %s | %g | %.1f | %.1f | %.1f | %.1f .. %.1f |',
		platform, twin, target_pct, mem_mib, twin_mem_mib, extra_mib, extra_lo_mib, extra_hi_mib)
		FROM plan_target WHERE plan_id = $1 ORDER BY rowid"
}
rows "$newest" > "$tmp/want"
rows $((newest - 1)) > "$tmp/old"

"$CVMBENCH" -q report "$tmp/rep" --db "$tmp/db" > /dev/null 2> "$tmp/err"
is $? 0 "report on the database with plans ($(head -c 160 "$tmp/err"))"
is "$(grep -c "^## Capacity plan $newest\$" "$tmp/rep/index.md")" 1 "index.md: the section of the newest plan ($newest)"
is "$(grep -cxFf "$tmp/want" "$tmp/rep/index.md")" "$(wc -l < "$tmp/want")" \
	"index.md: a row per stored target with its numbers ($(wc -l < "$tmp/want"): $(head -1 "$tmp/want"))"
is "$(wc -l < "$tmp/old") $(grep -cxFf "$tmp/old" "$tmp/rep/index.md")" "3 0" \
	"index.md: none of the older plan's 3 targets is shown"
# HTML: the same numbers as table cells
sed -e 's/^| //' -e 's/ |$//' -e 's/ | /|/g' "$tmp/want" | awk -F'|' '{
	printf "<tr><td>%s</td><td>%s</td>", $1, $2
	for (i = 3; i <= 6; i++) printf "<td class=\"num\">%s</td>", $i
	printf "<td>%s</td></tr>\n", $7 }' > "$tmp/want.html"
is "$(grep -cFf "$tmp/want.html" "$tmp/rep/index.html")" "$(wc -l < "$tmp/want")" \
	"index.html: the same rows ($(head -1 "$tmp/want.html"))"

"$CVMBENCH" -q report "$tmp/rep0" --db "$tmp/none.db" > /dev/null 2>&1
is $? 0 "report on a database without a plan"
is "$(grep -c 'Capacity plan' "$tmp/rep0/index.md")" 0 "no plan section without a plan"
