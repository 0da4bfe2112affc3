#!/usr/bin/env bash
# tests/system/plan.t - `cvmbench trace gen` and `cvmbench plan` end to end:
# a generated Poisson trace (1 a minute for 50 functions, a day: 72 000
# invocations) through ttl:1m with zero latencies must give a cold fraction
# of e^-1 = 0.3679 within 0.01 (standard error sqrt(0.2325/72000) = 0.0018;
# the 50 first arrivals add 0.0004); a periodic trace (every 7 minutes,
# spread evenly: exactly 420 s apart) gives one cold start per function
# under ttl:7m and all cold under ttl:6m; the 2021 format is read; bad input
# (a malformed line, an empty trace, an unknown policy, a budget below one
# instance) exits 2 naming the reason and writes nothing.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 14

"$CVMBENCH" -q trace gen --kind poisson --functions 50 --rate 1 --seed 5 --out "$tmp/p.csv"
is $? 0 "trace gen poisson"
row=$("$CVMBENCH" plan "$tmp/p.csv" --policy ttl:1m --cold-ms 0 --warm-ms 0 --csv | tail -1)
frac=$(echo "$row" | cut -d, -f4)
ok "$(awk -v f="$frac" 'BEGIN { d = f - exp(-1); print (d < 0 ? -d : d) < 0.01 }')" = 1 \
	"Poisson trace, ttl:1m: cold fraction $frac ~ e^-1"

"$CVMBENCH" -q trace gen --kind periodic --period 7 --functions 3 --out "$tmp/per.csv"
out=$("$CVMBENCH" plan "$tmp/per.csv" --spread uniform --policy ttl:7m --policy ttl:6m \
	--cold-ms 0 --warm-ms 0 --csv)
n=$(echo "$out" | awk -F, 'NR == 3 { print $2 }')
is "$(echo "$out" | awk -F, 'NR == 2 { print $3 }')" 3 "periodic 7 min, ttl:7m: one cold start per function"
is "$(echo "$out" | awk -F, 'NR == 3 { print $3 }')" "$n" "periodic 7 min, ttl:6m: every invocation cold ($n)"

printf 'app,func,end_timestamp,duration\na,f,1.5,1.0\na,g,2.0,0.5\na,f,100.0,0.1\n' > "$tmp/t21.csv"
row=$("$CVMBENCH" plan "$tmp/t21.csv" --policy ttl:1m --csv | tail -1)
is "$(echo "$row" | cut -d, -f2,3)" "3,3" "2021 format: 3 invocations, 3 cold (f idle 98 s > 60 s)"

printf 'HashOwner,HashApp,HashFunction,Trigger,1,2\no,a,f,http,1,2\no,a,g,http,1,x\n' > "$tmp/bad.csv"
"$CVMBENCH" plan "$tmp/bad.csv" > "$tmp/out" 2> "$tmp/err"
is $? 2 "a malformed line: exit 2"
ok "$(grep -c "bad.csv:3: minute count: 'x'" "$tmp/err")" -ge 1 "the error names the file and line 3"
ok "$(wc -c < "$tmp/out")" -eq 0 "nothing written"

printf 'HashOwner,HashApp,HashFunction,Trigger,1,2\no,a,f,http,0,0\n' > "$tmp/empty.csv"
"$CVMBENCH" plan "$tmp/empty.csv" 2> "$tmp/err" > /dev/null
is $? 2 "an empty trace: exit 2"
ok "$(grep -c 'empty trace' "$tmp/err")" -ge 1 "the error says the trace is empty"
"$CVMBENCH" plan "$tmp/p.csv" --policy lfu 2> "$tmp/err" > /dev/null
is $? 2 "an unknown policy: exit 2"
"$CVMBENCH" plan "$tmp/p.csv" --policy lru:64MiB --instance-mib 128 2> "$tmp/err" > /dev/null
is $? 2 "a budget below one instance: exit 2"
ok "$(grep -c 'below one instance' "$tmp/err")" -ge 1 "the error says the budget holds no instance"
"$CVMBENCH" plan "$tmp/p.csv" --policy layered > "$tmp/out" 2>/dev/null
is "$?:$(grep -c 'SKIP layered: needs the per-layer metrics layer_warm_mem_kb' "$tmp/out")" 3:1 \
	"layered: exit 3, a skip naming the metrics it needs"
