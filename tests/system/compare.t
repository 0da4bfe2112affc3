#!/bin/bash
# tests/system/compare.t - `cvmbench compare` on databases written by
# tests/system/compare-db.py (Python's sqlite3, not cvmbench) with known
# latencies: the regular side 1000 .. 1099 us, the CVM side the same times
# 1.25, so the median ratio is exactly 1.25. Checked against independent
# numbers: the order-statistic interval of each median and its coverage
# against exact binomial sums in Python (math.comb); the bootstrap interval
# covers 1.25 in 93 - 98.5 % of 400 seeded lognormal pairs and 1 in a
# self-comparison. Mismatched environments are refused with the difference
# named (and compared with --allow-mismatch, every line saying so); a cell
# that asked for a CVM and ran in a regular guest is never paired as one;
# what was not measured prints "-" (CSV: empty), never 0; bad files are
# named with exit 2 and left unchanged; --json on a fixed database is
# golden (tests/fixtures/compare/golden.json).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=39
py=/usr/bin/python3
top=$PWD
bin=$(cd "$(dirname "$CVMBENCH")" && pwd)/$(basename "$CVMBENCH")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mk() { $py tests/system/compare-db.py "$@"; }
# j FILE EXPR: EXPR evaluated in Python with d = the JSON of FILE
j() { $py -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
cmp_() { "$bin" compare "$@"; }

plan $N
if [ ! -x "$CVMBENCH" ]; then
	skip_rest $N "$CVMBENCH is not built (make)"
	exit 0
fi
if [ ! -x $py ]; then
	if [ -n "${CI:-}" ]; then
		for ((i = 0; i < N; i++)); do _tap 1 "$py is needed (CI)"; done
		exit 0
	fi
	skip_rest $N "$py is needed for the fixtures and the reference numbers"
	exit 0
fi

mk $tmp/reg.db
mk $tmp/cvm.db --cvm sev-snp --scale 1.25
cmp_ --db $tmp/reg.db --db $tmp/cvm.db --json > $tmp/out.json
is "$?" 0 "compare of a regular and a CVM database exits 0"
is "$(j $tmp/out.json 'len(d["pairs"]), [p["workload"] for p in d["pairs"]]')" \
   "(2, ['matmul', 'pyaes'])" "one pair per workload"
is "$(j $tmp/out.json '{(p["kind"], p["side"], p["baseline"], p["stats"]["ratio"],
	p["stats"]["base"]["n"], p["stats"]["side"]["n"]) for p in d["pairs"]}')" \
   "{('CVM overhead', 'sev-snp', 'none', 1.25, 100, 100)}" \
   "the ratio is 1.25, labelled CVM overhead sev-snp vs none, 100 invocations a side"
is "$(j $tmp/out.json 'all(p["stats"]["ratio_ci"][0] < 1.25 < p["stats"]["ratio_ci"][1]
	and p["stats"]["ratio_ci"][1] - p["stats"]["ratio_ci"][0] < 0.1 for p in d["pairs"])')" \
   True "the bootstrap interval holds 1.25 and is narrow"
is "$(j $tmp/out.json 'd["bootstrap"], d["level"]')" \
   "({'resamples': 2000, 'seed': 20261201}, 0.95)" "seed and resamples are in the output"

# The order-statistic interval of a median, by exact binomial sums.
ref=$($py -c '
import math
def ci(x, level=0.95):
    n = len(x); s = sorted(x); tail = 0; j = 0
    while j < n // 2:
        p = math.comb(n, j) / 2 ** n
        if tail + p > (1 - level) / 2: break
        tail += p; j += 1
    return [s[j - 1] / 1e6, s[n - j] / 1e6, 1 - 2 * tail]
print(ci([(1000 + i) * 1000 for i in range(100)]) + ci([1250 * (1000 + i) for i in range(100)]))')
got=$(j $tmp/out.json '[v for s in ("base", "side") for v in d["pairs"][0]["stats"][s]["median_ci_ms"] + [d["pairs"][0]["stats"][s]["median_ci_coverage"]]]')
is "$($py -c 'import sys; a, b = eval(sys.argv[1]), eval(sys.argv[2])
print(len(a) == len(b) == 6 and all(abs(x - y) <= 1e-12 * abs(y) for x, y in zip(a, b)))' "$got" "$ref")" True \
   "order-statistic intervals and coverage of both medians match exact binomial sums ($ref)"

cmp_ --db $tmp/reg.db --db $tmp/cvm.db > $tmp/out.txt
is "$?" 0 "the table exits 0"
ok "$(grep -c 'seed 20261201' $tmp/out.txt)" -eq 1 "the table prints the seed and resamples"
is "$(awk '$1 == "pyaes" {print $5, $8, $9, $10, $11, $12, $(NF - 2), $(NF - 1), $NF}' $tmp/out.txt)" \
   "unchanged 100 100 1.250 [1.233, 1.266] - - -" \
   "table: the pair's ksm, N of each side, ratio, interval; memory, exits and flags unmeasured are '-'"
cmp_ --db $tmp/reg.db --db $tmp/cvm.db --seed 7 --json > $tmp/seed7.json
cmp_ --db $tmp/reg.db --db $tmp/cvm.db --json > $tmp/again.json
ok "$(cmp -s $tmp/out.json $tmp/again.json && ! cmp -s $tmp/out.json $tmp/seed7.json; echo $?)" \
   -eq 0 "the same seed gives the same output, another seed another interval"

cmp_ --db $tmp/reg.db --db $tmp/cvm.db --csv > $tmp/out.csv
is "$($py -c 'import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
print(len(r), r[0]["status"], r[0]["ratio"], repr(r[0]["base_mem_kb"]), repr(r[0]["mem_diff_kb"]), r[0]["base_n"])' $tmp/out.csv)" \
   "2 compared 1.25 '' '' 100" "CSV: one record per pair, unmeasured memory empty (not 0)"

# self-comparison: the same latencies on both sides
mk $tmp/same.db --cvm tdx
cmp_ --db $tmp/reg.db --db $tmp/same.db --json > $tmp/self.json
is "$(j $tmp/self.json '[(p["side"], p["stats"]["ratio"], p["stats"]["ratio_ci"][0] <= 1 <= p["stats"]["ratio_ci"][1]) for p in d["pairs"]][0]')" \
   "('tdx', 1, True)" "a self-comparison's interval holds 1"

# memory and exits where measured
mk $tmp/regm.db --mem 1000 --exits hlt=100 --exits io=5
mk $tmp/cvmm.db --cvm sev-snp --scale 1.25 --mem 1500 --exits hlt=300
cmp_ --db $tmp/regm.db --db $tmp/cvmm.db --json > $tmp/mem.json
is "$(j $tmp/mem.json 'd["pairs"][0]["stats"]["mem_diff_kb"], d["pairs"][0]["stats"]["exits_per_s"]')" \
   "(500, {'hlt': {'base': 100, 'side': 300}, 'io': {'base': 5, 'side': None}})" \
   "memory difference and exits/s by class; a class one side lacks is null"
cmp_ --db $tmp/regm.db --db $tmp/cvmm.db > $tmp/mem.txt
is "$(grep -c 'exits/s io: 5 baseline, - sev-snp' $tmp/mem.txt)" 2 "table: the missing exit rate is '-'"

# environments that differ: refused, with the difference named
mk $tmp/cvmx.db --cvm sev-snp --scale 1.25 --env cpu.microcode=0x2 --env kernel.release=
cmp_ --db $tmp/reg.db --db $tmp/cvmx.db > $tmp/x.txt 2>&1
is "$?" 3 "a mismatched environment: exit 3"
is "$(grep -c "cpu.microcode: '0x1' vs '0x2'" $tmp/x.txt) $(grep -c "kernel.release: '6.1.0-test' vs absent" $tmp/x.txt) $(grep -c '^no pairs' $tmp/x.txt)" \
   "2 2 1" "refused pairs list each difference (microcode, kernel absent); no pair compared"
cmp_ --db $tmp/reg.db --db $tmp/cvmx.db --allow-mismatch > $tmp/xa.txt
is "$?" 0 "--allow-mismatch compares them"
is "$(grep -c 'MISMATCH-ALLOWED$' $tmp/xa.txt) $(grep -c 'MISMATCH ALLOWED: cpu.microcode' $tmp/xa.txt)" \
   "2 2" "every pair compared despite a mismatch says so, with the difference"
cmp_ --db $tmp/reg.db --db $tmp/cvmx.db --allow-mismatch --csv > $tmp/xa.csv
is "$(grep -c '^compared-mismatch-allowed,' $tmp/xa.csv)" 2 "CSV: the status says so too"
mk $tmp/vol.db --cvm sev-snp --scale 1.25 --env memory.total=100 --env cvm.detected_by=x
cmp_ --db $tmp/reg.db --db $tmp/vol.db > /dev/null
is "$?" 0 "facts a CVM changes by being one (memory.total, cvm.*) are not differences"

# asked for a CVM, ran in a regular guest: never a CVM
mk $tmp/asked.db --cell confidential=sev-snp --started 2026-12-01T09:00:00.000000Z
cmp_ --db $tmp/reg.db --db $tmp/asked.db --json > $tmp/asked.json
is "$?" 3 "nothing to pair: exit 3"
is "$(j $tmp/asked.json 'len(d["pairs"]), sorted({u["why"] for u in d["unpaired"]})')" \
   "(0, ['asked confidential = sev-snp, ran in none', 'no twin: no other cell with the same settings but the pairing dimension'])" \
   "a cell that asked for sev-snp and ran in none is unpaired, with why"
cmp_ --db $tmp/asked.db > $tmp/asked.txt
is "$(grep -c '^no pairs' $tmp/asked.txt) $(grep -c 'asked confidential = sev-snp, ran in none' $tmp/asked.txt)" \
   "1 2" "the table says there are no pairs and why"

# model overhead; --pair-by backend
mk $tmp/qn.db --cell backend=qemu
mk $tmp/qm.db --cell backend=qemu --cell confidential=model --scale 1.1
cmp_ --db $tmp/qn.db --db $tmp/qm.db --json > $tmp/model.json
is "$(j $tmp/model.json '{(p["kind"], p["side"], p["stats"]["ratio"]) for p in d["pairs"]}')" \
   "{('model overhead', 'model', 1.1)}" "confidential = model pairs as 'model overhead'"
cmp_ --db $tmp/reg.db --db $tmp/qn.db --pair-by backend --json > $tmp/be.json
is "$(j $tmp/be.json '{(p["kind"], p["side"], p["baseline"]) for p in d["pairs"]}')" \
   "{('backend qemu vs native', 'qemu', 'native')}" "--pair-by backend is labelled as what it is"

# flags: noisy (CoV over 10 %), small (no 95 % order-statistic interval); p99 from 100 on
mk $tmp/ln1.db --lognormal 1 --n 50
mk $tmp/ln2.db --lognormal 2 --n 5 --cvm tdx
cmp_ --db $tmp/ln1.db --db $tmp/ln2.db --json > $tmp/flags.json
is "$(j $tmp/flags.json 'd["pairs"][0]["stats"]["flags"], d["pairs"][0]["stats"]["p99_diff_ms"], d["pairs"][0]["stats"]["base"]["p99_ms"], d["pairs"][0]["stats"]["side"]["median_ci_coverage"]')" \
   "(['noisy', 'small'], None, None, 0.9375)" \
   "noisy and small flags; p99 null under 100 invocations; n = 5 interval [min, max] covers 93.75 %"

# a run in two databases (a merged one and its input, or a file given twice) counts once
"$bin" merge --out $tmp/rc.db $tmp/reg.db $tmp/cvm.db > /dev/null
cmp_ --db $tmp/rc.db --db $tmp/reg.db --db $tmp/cvm.db --db $tmp/reg.db --json > $tmp/dup.json 2> $tmp/err
is "$(j $tmp/dup.json '[(p["stats"]["base"]["n"], p["stats"]["side"]["n"]) for p in d["pairs"]]') $(grep -c 'counted once' $tmp/err)" \
   "[(100, 100), (100, 100)] 3" "a run found in several databases is counted once, and said"

cmp_ --db $tmp/rc.db > $tmp/c.txt
"$bin" show --table overhead --db $tmp/rc.db > $tmp/s.txt
is "$?:$(md5sum < $tmp/s.txt)" "0:$(md5sum < $tmp/c.txt)" "show --table overhead prints what compare prints"

# show and report: p99 from 100 invocations on, the median interval with its coverage
"$bin" show --db $tmp/ln1.db --json > $tmp/show50.json
"$bin" show --db $tmp/reg.db --json > $tmp/show100.json
is "$(j $tmp/show50.json '[c["latency_ms"]["p99"] for c in d["run"]["cells"]]') $(j $tmp/show100.json '[round(c["latency_ms"]["p99"], 5) for c in d["run"]["cells"]]')" \
   "[None, None] [1.09801, 1.09801]" "show: p99 is null under 100 invocations, given at 100"
"$bin" report $tmp/rep --db $tmp/reg.db > /dev/null 2>&1
is "$(grep -c '1.039 - 1.060 (96.5 %)' $tmp/rep/index.md)" 2 "the report gives each median's interval with its coverage"

# coverage: 400 seeded lognormal pairs (one workload each) with a true ratio of 1.25
wl=$(seq -f 'w%g' -s, 1 400)
mk $tmp/l1.db --lognormal 1 --workloads ${wl%,}
mk $tmp/l2.db --lognormal 2 --workloads ${wl%,} --cvm sev-snp --scale 1.25
cmp_ --db $tmp/l1.db --db $tmp/l2.db --json --resamples 1000 > $tmp/l.json
hits=$(j $tmp/l.json 'sum(p["stats"]["ratio_ci"][0] <= 1.25 <= p["stats"]["ratio_ci"][1] for p in d["pairs"])')
ok "$hits" -ge 372 "the 95 % interval holds the true ratio 1.25 in $hits of 400 pairs (>= 93 %)"
ok "$hits" -le 394 "... and not nearly always (<= 98.5 %; an interval far too wide would)"

# bad input
cmp_ --db $tmp/nonexistent.db > /dev/null 2> $tmp/err
is "$? $(grep -c nonexistent.db $tmp/err)" "2 1" "a missing database: exit 2, named"
$py -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE t (x)"); c.commit()' $tmp/other.db
sum=$(sha256sum < $tmp/other.db)
cmp_ --db $tmp/reg.db --db $tmp/other.db > /dev/null 2> $tmp/err
is "$? $(grep -c other.db $tmp/err) $(sha256sum < $tmp/other.db)" "2 1 $sum" \
   "another program's SQLite file: exit 2, named, unchanged"
head -c 8192 /dev/urandom > $tmp/corrupt.db
sum=$(sha256sum < $tmp/corrupt.db)
cmp_ --db $tmp/corrupt.db > /dev/null 2> $tmp/err
is "$? $(grep -c corrupt.db $tmp/err) $(sha256sum < $tmp/corrupt.db)" "2 1 $sum" \
   "a corrupt file: exit 2, named, unchanged"
cmp_ --db $tmp/reg.db --pair-by nosuchkey > /dev/null 2> $tmp/err
is "$? $(grep -c nosuchkey $tmp/err)" "2 1" "--pair-by a key that is not a dimension: exit 2"

# the overhead figure: drawn from a merged database, a clear message without pairs
"$bin" merge --out $tmp/both.db $tmp/reg.db $tmp/cvm.db $tmp/same.db > /dev/null
if command -v gnuplot > /dev/null; then
	"$bin" plot overhead --db $tmp/both.db --out $tmp/ov.png 2> $tmp/err
	is "$? $(file -b $tmp/ov.png | cut -d, -f1)" "0 PNG image data" "plot overhead draws the pairs of a merged database"
	"$bin" plot overhead --db $tmp/reg.db --out $tmp/none.png 2> $tmp/err
	is "$? $(grep -c 'no pair of a confidential' $tmp/err) $([ -e $tmp/none.png ] && echo drawn)" "3 1 " \
	   "plot overhead without pairs: exit 3 and why, nothing drawn"
elif [ -n "${CI:-}" ]; then
	_tap 1 "gnuplot is needed (CI)"; _tap 1 "gnuplot is needed (CI)"
else
	skip_rest 2 "gnuplot is not installed"
fi

# golden --json on a fixed database (relative names, as a user types them)
(cd $tmp && mk_g() { $py $top/tests/system/compare-db.py "$@"; }
 mk_g g1.db --workloads pyaes --n 12 --mem 2048 --exits hlt=10
 mk_g g2.db --workloads pyaes --n 12 --cvm sev-snp --scale 1.25 --mem 2560 --exits hlt=40
 "$bin" compare --db g1.db --db g2.db --json --resamples 200 > golden.json)
if cmp -s $tmp/golden.json tests/fixtures/compare/golden.json; then
	_tap 0 "compare --json on a fixed database is golden"
else
	_tap 1 "compare --json on a fixed database is golden"
	diff tests/fixtures/compare/golden.json $tmp/golden.json | sed 's/^/# /' | head -20
fi
