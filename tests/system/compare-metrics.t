#!/bin/bash
# tests/system/compare-metrics.t - `cvmbench compare`, the figures
# system-suite and system-overhead and the report's System suite section on
# service cells (the system suite): databases written by
# tests/system/compare-db.py (cells of the seven services, each invocation a
# measured window) with the catalog's metrics added per window by
# tests/system/svc-db.py (Python's sqlite3, not cvmbench). The regular side
# draws each metric around a base; the CVM side draws the same values (the
# same seed) times 0.8 for a throughput (higher is better) and 1.2 for a
# latency (lower is better), so the known overheads are 1/0.8 - 1 = +25 %
# and +20 %, worked out by hand. fio's CVM cell is skipped (no SEV-SNP here): it must show as
# missing with the reason, never as a zero bar. A database whose service
# metric name and tool name hold gnuplot, shell and HTML metacharacters is
# drawn (gnuplot runs no command of it) and reported escaped.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=16
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/system/plot-lib.sh
plan $N
plot_needs $N
bin=./cvmbench
j() { $py -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
tools=nginx-open,nginx-wrk,redis,pgbench,sysbench-cpu,sysbench-memory
skip='fio=confidential = sev-snp: this host cannot run an SEV-SNP guest (no /dev/sev)'

$py tests/system/compare-db.py $tmp/reg.db --cell backend=qemu --workloads $tools,fio --n 5 --repeats 2
$py tests/system/svc-db.py $tmp/reg.db --seed 1
$py tests/system/compare-db.py $tmp/cvm.db --cell backend=qemu --cell confidential=sev-snp \
	--workloads $tools --n 5 --repeats 2 --started 2026-12-01T09:00:00.000000Z
$py tests/system/svc-db.py $tmp/cvm.db --seed 1 --higher 0.8 --lower 1.2 --skip "$skip"
$bin merge --out $tmp/all.db $tmp/reg.db $tmp/cvm.db > /dev/null

$bin compare --db $tmp/all.db --json > $tmp/c.json
is "$?" 0 "compare of the service cells exits 0"
is "$(j $tmp/c.json 'sorted(p["workload"] for p in d["pairs"] if p.get("service"))')" \
   "['nginx-open', 'nginx-wrk', 'pgbench', 'redis', 'sysbench-cpu', 'sysbench-memory']" \
   "one service pair per tool that has a CVM side"
# every metric with a direction: named, with its direction and N = 10 windows a side
is "$(j $tmp/c.json 'sorted({(m["direction"], m["base"]["n"], m["side"]["n"]) for p in d["pairs"] for m in p["stats"]["metrics"] if m["direction"] != "info"})')" \
   "[('higher', 10, 10), ('lower', 10, 10)]" "every metric: a direction and N = 10 windows on each side"
is "$(j $tmp/c.json 'sorted({round(m["overhead"], 9) for p in d["pairs"] for m in p["stats"]["metrics"] if m["direction"] != "info"})')" \
   "[0.2, 0.25]" "throughput 0.8x gives +25 %, latency 1.2x +20 %: positive, the CVM is worse"
is "$(j $tmp/c.json 'all(m["overhead_ci"][0] < (0.25 if m["direction"] == "higher" else 0.2) < m["overhead_ci"][1] for p in d["pairs"] for m in p["stats"]["metrics"] if m["direction"] != "info")')" \
   True "each interval holds the known overhead"
is "$(j $tmp/c.json '[(m["metric"], m["overhead"], m["why"]) for p in d["pairs"] for m in p["stats"]["metrics"] if m["direction"] == "info"][:1]')" \
   "[('target_per_s', None, 'context only: the catalog gives it no direction')]" \
   "a context metric (SVC_INFO) is shown without an overhead, and says why"

$bin compare --db $tmp/all.db > $tmp/c.txt
is "$(awk '$1 == "nginx-wrk" && $5 == "requests_per_s" {print $6, $7, $8, $9, $10}' $tmp/c.txt)" \
   "1/s higher 10 10 +25.0%" "table: nginx-wrk requests_per_s, unit, direction, N per side, +25.0 %"
is "$(awk '$1 == "pgbench" && $5 == "latency_mean_ns" {print $7, $10}' $tmp/c.txt) $(grep -c '^WORKLOAD .*RATIO' $tmp/c.txt)" \
   "lower +20.0% 0" "table: pgbench latency lower is better, +20.0 %; no latency table for services"
$bin compare --db $tmp/all.db --csv > $tmp/c.csv
is "$($py -c 'import csv, sys
r = [x for x in csv.DictReader(open(sys.argv[1])) if x["metric"] == "tps"]
print(len(r), r[0]["status"], r[0]["metric_direction"], r[0]["metric_base_n"], round(float(r[0]["metric_overhead"]), 2), repr(r[0]["ratio"]))' $tmp/c.csv)" \
   "1 compared higher 10 0.25 ''" "CSV: a record per metric with its direction, N and overhead; no latency ratio"

# figures: drawn by gnuplot; a skipped CVM is missing, not a zero bar
for f in system-suite system-overhead; do
	$bin plot $f --db $tmp/all.db --out $tmp/$f.png 2> $tmp/$f.err
	is "$? $(file -b $tmp/$f.png | cut -d, -f1) $(grep -ci warning $tmp/$f.err)" "0 PNG image data 0" \
	   "plot $f draws (gnuplot ran, no warning)"
done
$bin plot system-suite --db $tmp/all.db --out $tmp/s.svg 2> /dev/null
is "$(grep -c '>missing: skipped<' $tmp/s.svg) $(grep -c '>N=10, ' $tmp/s.svg)" "1 13" \
   "the skipped fio CVM is a place saying 'missing: skipped', no bar; N above each of 13 bars"
$bin plot overhead --db $tmp/all.db --out $tmp/ov.png > /dev/null 2> $tmp/ov.err
is "$? $(grep -c 'no pair of a confidential' $tmp/ov.err)" "3 1" \
   "the latency overhead figure leaves service pairs out (their windows are no latency)"
$bin report $tmp/rep --db $tmp/all.db > /dev/null 2>&1
is "$(grep -c '^## System suite' $tmp/rep/index.md) $(grep -c 'nginx-wrk, sev-snp: requests\\_per\\_s (1/s) 20.0 % lower on the CVM' $tmp/rep/index.md) $(grep -c 'fio, sev-snp: not compared, skipped: confidential = sev-snp: this host cannot run an SEV-SNP guest' $tmp/rep/index.md)" \
   "1 1 1" "report: a System suite section leading with findings; the skipped fio CVM with its reason"

# hostile names: a tool and a metric name with gnuplot, shell and HTML metacharacters
bad='x"; system("touch '$tmp'/pwned") #<b>$(touch '$tmp'/pwned2)`id`'"'"
$py tests/system/compare-db.py $tmp/h1.db --cell backend=qemu --workloads "$bad" --n 5 --repeats 2
$py tests/system/svc-db.py $tmp/h1.db --map "$bad=wrk" --extra "wrk:<img src=x onerror=alert(1)>\$(touch $tmp/pwned3)"
$py tests/system/compare-db.py $tmp/h2.db --cell backend=qemu --cell confidential=sev-snp --workloads "$bad" \
	--n 5 --repeats 2 --started 2026-12-01T09:00:00.000000Z
$py tests/system/svc-db.py $tmp/h2.db --map "$bad=wrk" --higher 0.8 --lower 1.2 --extra "wrk:<img src=x onerror=alert(1)>\$(touch $tmp/pwned3)"
$bin merge --out $tmp/h.db $tmp/h1.db $tmp/h2.db > /dev/null
$bin plot system-suite --db $tmp/h.db --out $tmp/hs.png 2> $tmp/hs.err && \
	$bin plot system-overhead --db $tmp/h.db --out $tmp/ho.png 2> $tmp/ho.err
is "$? $(file -b $tmp/hs.png | cut -d, -f1) $(ls $tmp | grep -c pwned) $(cat $tmp/hs.err $tmp/ho.err | grep -ci warning)" \
   "0 PNG image data 0 0" \
   "hostile names are drawn as labels: gnuplot ran no command of them, printed no warning (no tool missing)"
$bin report $tmp/hrep --db $tmp/h.db > /dev/null 2>&1
$bin compare --db $tmp/h.db > $tmp/h.txt
is "$(grep -c '<img src=x' $tmp/hrep/index.html) $(grep -c '&lt;img src=x' $tmp/hrep/index.html) $(grep -c 'wrk/<img src=x onerror' $tmp/h.txt) $(ls $tmp | grep -c pwned)" \
   "0 1 1 0" "report escapes the unknown metric's name (HTML), compare lists it as not compared"
