#!/usr/bin/env bash
# tests/system/plan-map.t - the map file of `cvmbench plan --config`
# (planner/plan-map.c) on the crafted database of craft-plan-db.py, platform
# regular: one warm instance of fa is 262144 kB memcg over 2 instances, of fb
# 204800 kB PSS (1 instance); both have the same latency samples. The trace:
# 6 functions called every 5 minutes for 2 hours. Under a TTL of 10 minutes
# every function keeps its one instance from its first call to the end, so the
# peak warm memory is the sum, over trace functions, of the instance memory of
# the measured function each is mapped to: computed here from the crafted
# numbers. `*,fb` against `*,fa` scales the time-averaged memory by exactly
# fb / fa (same arrivals, same latency draws); a line naming one function
# overrides `*` for it alone; without a map the documented rule (FNV-1a-64 of
# the name mod the 2 workloads, computed here in Python) decides; an unknown
# workload is exit 2 naming file and line, nothing written.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 10
here=$(dirname "$0")
fa=$(awk 'BEGIN { printf "%.6f", 262144 / 2 / 1024 }')   # MiB, from craft-plan-db.py
fb=$(awk 'BEGIN { printf "%.6f", 204800 / 1024 }')

"$CVMBENCH" -q trace gen --kind periodic --functions 6 --minutes 120 --period 5 --seed 2 \
	--out "$tmp/tr.csv"
names=$(awk -F, 'NR > 1 { print $1 "/" $2 "/" $3 }' "$tmp/tr.csv")
one=$(echo "$names" | head -1)
python3 "$here/craft-plan-db.py" "$tmp/db" larger
q() { sqlite3 "$tmp/db" "$1"; }
# plan MAPFILE: a plan of the regular platform with that map ("" none); its id
run_plan() {
	{ printf '[plan]\ntrace = %s\nseeds = 1\nbootstrap = 1\n' "$tmp/tr.csv"
	  [ -n "$1" ] && printf 'map = %s\n' "$1"
	  printf '[platform regular]\nbackend = qemu\nconfidential = none\nksm = on\n'; } > "$tmp/p.ini"
	"$CVMBENCH" -q plan --config "$tmp/p.ini" --db "$tmp/db" > /dev/null 2> "$tmp/err" || return
	q 'SELECT max(id) FROM plan'
}
fns() { q "SELECT group_concat(workload || '=' || trace_fns, ' ') FROM (SELECT * FROM plan_input WHERE plan_id = $1 ORDER BY workload)"; }
point() { q "SELECT printf('%.6f', $2) FROM plan_point WHERE plan_id = $1 AND label = 'ttl:600'"; }

echo '*,fa' > "$tmp/fa.map"
echo '*,fb' > "$tmp/fb.map"
printf '# one function to fb, the rest to fa\n%s,fb\n*,fa\n' "$one" > "$tmp/one.map"
pa=$(run_plan "$tmp/fa.map"); pb=$(run_plan "$tmp/fb.map"); p1=$(run_plan "$tmp/one.map")
is "$(fns "$pa") / $(fns "$pb") / $(fns "$p1")" "fa=6 fb=0 / fa=0 fb=6 / fa=5 fb=1" \
	"trace_fns: *,fa; *,fb; one function named to fb"
is "$(point "$pa" peak_mib)" "$(awk -v a="$fa" 'BEGIN { printf "%.6f", 6 * a }')" \
	"*,fa: peak = 6 x fa's instance ($fa MiB)"
is "$(point "$pb" peak_mib)" "$(awk -v b="$fb" 'BEGIN { printf "%.6f", 6 * b }')" \
	"*,fb: peak = 6 x fb's instance ($fb MiB)"
is "$(point "$p1" peak_mib)" "$(awk -v a="$fa" -v b="$fb" 'BEGIN { printf "%.6f", 5 * a + b }')" \
	"$one,fb then *,fa: peak = 5 x fa + fb"
ratio=$(awk -v x="$(point "$pb" mean_mib)" -v y="$(point "$pa" mean_mib)" -v a="$fa" -v b="$fb" \
	'BEGIN { r = x / y; w = b / a; print (r - w < 1e-6 * w && w - r < 1e-6 * w) ? "equal" : r " vs " w }')
is "$ratio" equal "mean warm memory *,fb / *,fa = fb / fa (same arrivals and draws)"
is "$(q "SELECT cold_frac * invocations FROM plan_point WHERE plan_id = $p1 AND label = 'ttl:600'")" 6.0 \
	"one compulsory cold start per function (the TTL outlives every gap)"

# the rule, computed here: FNV-1a-64 of the name mod 2 (fa 0, fb 1)
want=$(echo "$names" | python3 -c '
import sys
n = [0, 0]
for name in sys.stdin.read().split():
    h = 14695981039346656037
    for c in name.encode():
        h = ((h ^ c) * 1099511628211) % 2**64
    n[h % 2] += 1
print("fa=%d fb=%d" % tuple(n))')
p0=$(run_plan "")
is "$(fns "$p0")" "$want" "no map: the FNV-1a rule ($want)"

before=$(q 'SELECT count(*) FROM plan')
printf '# fine\n*,fa\n%s,nosuch\n' "$one" > "$tmp/bad.map"
run_plan "$tmp/bad.map" > /dev/null
is $? 2 "a map naming an unknown workload: exit 2"
ok "$(grep -c "bad.map:3: workload 'nosuch'" "$tmp/err")" -ge 1 \
	"the error names file and line ($(head -c 160 "$tmp/err"))"
is "$(q 'SELECT count(*) FROM plan')" "$before" "nothing written"
