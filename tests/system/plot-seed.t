#!/bin/bash
# tests/system/plot-seed.t - `cvmbench plot seed-start` and `seed-memory`
# on a crafted database, made without a run (tests/system/craft-db.py
# schema, then seed: bare, runtime and
# warm cells on the host and a warm cell in VMs, each with 4 starts and 3
# children sampled after the calls, plus one sample before a fork at 99999
# kB that must not be drawn). Both figures draw as PNG and SVG with nothing
# from gnuplot; each group carries its N as crafted (4 starts; 3 children
# sampled, 3 alive); the largest y tick fits the crafted values (starts:
# 11 ms at most; memory: the seed's 1800 kB, not the 99999 of the sample
# before the fork). The numbers themselves are checked in tests/unit/fig-seed.c.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/plot-lib.sh

N=11
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
plan $N
plot_needs $N
# no run needed (the host lock may be another's for long): the schema, a
# complete run and one native cell for the crafted cells to copy
last=$(ls results-schema | sed -n 's/^\([0-9]*\)-.*\.sql$/\1/p' | sort -n | tail -1)
$py tests/system/craft-db.py "$tmp/r.db" schema "$((10#$last))" &&
	sqlite3 "$tmp/r.db" "INSERT INTO cell (run_id, cell_key, experiment, workload, size,
	backend, threads, wait, mode, instances, invocations, warmup, repeat_index, seed, probes,
	spec, status, started_at) VALUES (1, 'base', 'base', 'null', 'test', 'native', 1, 'spin',
	'warm', 1, 5, 0, 0, 1, 'latency', '', 'ok', '2026-11-30T00:00:00.000000Z')"
is "$?" 0 "a database of the current schema with one complete run"
$py tests/system/craft-db.py "$tmp/r.db" seed sev-snp
is "$?" 0 "crafted four cells forked from seeds"

# the largest number among an SVG's texts (its tick labels and labels)
ymax() { $py - "$1" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
texts = [re.sub(r'<[^>]*>', '', t).strip() for t in re.findall(r'<text>(.*?)</text>', svg, re.S)]
nums = [float(t) for t in texts if re.fullmatch(r'[0-9]+(?:\.[0-9]+)?', t)]
print(int(max(nums)) if nums else -1)
PY
}
for f in seed-start seed-memory; do
	bad=
	for ext in png svg; do
		./cvmbench plot $f --db "$tmp/r.db" --out "$tmp/$f.$ext" 2>"$tmp/err" || bad="$bad $ext:failed"
		grep -v "info: wrote" "$tmp/err" | grep -q . && bad="$bad $ext:stderr" &&
			sed 's/^/# /' "$tmp/err"
	done
	is "$bad" "" "$f draws as PNG and SVG, gnuplot printed nothing"
done
is "$(grep -c '>N = 4<' "$tmp/seed-start.svg")" 4 "seed-start: N = 4 starts above each of the 4 bars"
is "$(grep -c '>N = 3, 3 alive<' "$tmp/seed-memory.svg")" 4 \
	"seed-memory: N = 3 children, 3 alive, above each of the 4 clusters"
y=$(ymax "$tmp/seed-start.svg")
ok "$y" -ge 11 "seed-start: the y axis reaches the bare start of 11 ms (largest tick $y)"
ok "$y" -le 14 "... and not much beyond it"
y=$(ymax "$tmp/seed-memory.svg")
ok "$y" -ge 1800 "seed-memory: the y axis reaches the seed's PSS of 1800 kB (largest tick $y)"
ok "$y" -lt 5000 "... and the sample before a fork (99999 kB) is not drawn"
grep -q "sev-snp warm, sev-snp" "$tmp/seed-memory.svg"
is "$?" 0 "the cell in VMs is drawn under its VM type"
