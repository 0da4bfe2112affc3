#!/bin/bash
# tests/system/plot-look.t - how each figure looks, on crafted databases
# (tests/system/craft-db.py) whose names are plain and whose names are
# hostile and 100 characters long:
#  - every figure draws, its PNG has a sane size (400x300 up to 4000x1400
#    pixels: labels neither cut to nothing nor stretching the image), and
#    gnuplot printed nothing at all (stderr holds only cvmbench's own
#    "wrote" line: no "difficulty making room for xtic labels", no other
#    warning);
#  - integer dimensions are on integer axes: in the runc sweeps, the
#    threads sweep and the memory figure every number on the x axis (SVG
#    text anchored in the middle) is an integer, no tick at 0.8 or -0.2;
#  - a sweep of two points is drawn as points: runc-parallel, whose
#    crafted lines have two points each, has no joining line (the SVG
#    path of a line has more than one segment);
#  - runc-cpus draws cpus = 0 ("all") at the machine's CPU count as the
#    run recorded it (topology.online_cpus), ticked "N (all)";
#  - a sweep's baseline (its point at the key's default) measured by
#    another experiment is ringed and the key names that experiment;
#  - the overhead figure gives, beside N, the achieved coverage of each
#    side's median interval (the ratio's bootstrap interval has only its
#    nominal level), and names a regular twin of another experiment;
#  - the vmexit-rate figure draws, with plain and hostile names, the
#    slowdown of the confidential cell (craft-db.py vmexit-pair) under its
#    label and as a point on the right axis;
#  - the memory figures' keys (memory-scaling, memory-overhead,
#    memory-mixed, consolidation), with plain and hostile names, lie
#    outside the plot area, below the x axis (tests/system/key-outside.py).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/plot-lib.sh

N=15
py=/usr/bin/python3
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT; echo "# tmp $tmp"
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
craft() { $py tests/system/craft-db.py "$@"; }

plan $N
plot_needs $N
plot_base_db "$tmp/base.db"
is "$?" 0 "a warm sweep of the null function at threads 1 and 2 runs (latency only)"

# PNG width and height from its IHDR chunk
pngsize() { $py -c 'import struct, sys
d = open(sys.argv[1], "rb").read(24)
print("%dx%d" % struct.unpack(">II", d[16:24]))' "$1"; }

# Every figure of DB drawn as PNG and SVG into DIR: "" or what was wrong.
look() { # DB DIR
	local f bad="" size w h
	mkdir -p "$2"
	# the plan figures draw a capacity plan (cvmbench plan), not a run: plan-db.t draws them
	for f in $(./cvmbench plot --list | awk '$1 !~ /^plan-/ { print $1 }'); do
		for ext in png svg; do
			./cvmbench plot "$f" --db "$1" --out "$2/$f.$ext" 2> "$2/$f.$ext.err"
			[ $? = 0 ] || { bad="$bad $f.$ext:failed"; continue; }
			grep -v "^cvmbench: info: wrote " "$2/$f.$ext.err" > "$2/$f.$ext.gp"
			[ -s "$2/$f.$ext.gp" ] && bad="$bad $f.$ext:stderr" &&
				sed "s/^/# $f.$ext: /" "$2/$f.$ext.gp" | head -3
		done
		size=$(pngsize "$2/$f.png")
		w=${size%x*} h=${size#*x}
		[ "$w" -ge 400 ] && [ "$w" -le 4000 ] && [ "$h" -ge 300 ] && [ "$h" -le 1400 ] ||
			bad="$bad $f:$size"
	done
	echo "$bad"
}

# Numbers under the x axis of an SVG that are not integers.
nonint_x() { $py - "$1" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
bad = []
for t in re.findall(r'<g [^>]*text-anchor(?::|=")middle[^>]*>\s*<text>(.*?)</text>',
                   svg, re.S):
    t = re.sub(r'<[^>]*>', '', t).strip()
    if re.fullmatch(r'-?[0-9]*\.[0-9]+', t):
        bad.append(t)
print(" ".join(bad))
PY
}

cp "$tmp/base.db" "$tmp/plain.db"
craft "$tmp/plain.db" noidle && craft "$tmp/plain.db" runc runc &&
	craft "$tmp/plain.db" pair tdx && craft "$tmp/plain.db" services sev-snp &&
	craft "$tmp/plain.db" vmexit kvm_exit &&
	craft "$tmp/plain.db" vmboot kvm && craft "$tmp/plain.db" memory hello &&
	craft "$tmp/plain.db" vmexit-rows kvm_exit && craft "$tmp/plain.db" ipc &&
	craft "$tmp/plain.db" ple hello &&
	craft "$tmp/plain.db" vmexit-pair sev-snp && craft "$tmp/plain.db" seed sev-snp
is "$?" 0 "crafted a database with every figure's data (plain names)"
is "$(look "$tmp/plain.db" "$tmp/plain")" "" \
	"plain names: every figure draws, sane size, gnuplot printed nothing"

long=$($py -c 'print(("x'"'"'\"; system(\"touch '"$tmp"'/pwned\"); print \"" * 5)[:100])')
cp "$tmp/base.db" "$tmp/long.db"
craft "$tmp/long.db" noidle && craft "$tmp/long.db" names "$long" &&
	craft "$tmp/long.db" runc "$long" && craft "$tmp/long.db" pair "$long" &&
	craft "$tmp/long.db" services "$long" &&
	craft "$tmp/long.db" vmexit kvm_exit && craft "$tmp/long.db" vmboot "$long" &&
	craft "$tmp/long.db" memory "$long" && craft "$tmp/long.db" vmexit-rows "$long" &&
	craft "$tmp/long.db" ipc && craft "$tmp/long.db" ple "$long" &&
	craft "$tmp/long.db" vmexit-pair "$long" && craft "$tmp/long.db" seed "$long"
is "$?:${#long}" "0:100" "crafted a database with hostile names of 100 characters"
is "$(look "$tmp/long.db" "$tmp/long")" "" \
	"hostile 100-character names: every figure draws, sane size, gnuplot printed nothing"
[ -e "$tmp/pwned" ]
is "$?" 1 "... and no command in the names ran"

bad=""
for f in runc-cpus runc-quota runc-corunner runc-parallel threads-sweep memory-scaling; do
	for d in plain long; do
		[ -s "$tmp/$d/$f.svg" ] || { bad="$bad $d/$f:missing"; continue; }
		b=$(nonint_x "$tmp/$d/$f.svg")
		[ -n "$b" ] && bad="$bad $d/$f:$b"
	done
done
is "$bad" "" "integer dimensions: no x tick between integers (sweeps, threads, VMs)"

svgs=$(for d in plain long; do for f in memory-scaling memory-overhead memory-mixed consolidation
	do echo "$tmp/$d/$f.svg"; done; done)
is "$($py tests/system/key-outside.py $svgs)" outside \
	"the memory figures' keys lie outside the plot area (plain and hostile names)"

# cpus = 0 is "all": drawn at the CPU count the run recorded
q() { $py -c 'import sqlite3, sys
d = sqlite3.connect(sys.argv[1]); d.executescript(sys.argv[2]); d.commit()' "$@"; }
cp "$tmp/plain.db" "$tmp/all.db"
q "$tmp/all.db" "UPDATE cell_param SET value = '0' WHERE key = 'cpus' AND value = '1';
	DELETE FROM environment WHERE key = 'topology.online_cpus';
	INSERT INTO environment (run_id, key, value, source) SELECT max(id),
	'topology.online_cpus', '3', 'test' FROM run"
./cvmbench plot runc-cpus --db "$tmp/all.db" --out "$tmp/all.svg" 2> "$tmp/all.err"
rc=$?
grep -q ">3 (all)<" "$tmp/all.svg" && grep -q "> *2<" "$tmp/all.svg"
is "$rc:$?:$(nonint_x "$tmp/all.svg")" "0:0:" \
	"runc-cpus: cpus = 0 drawn at the 3 CPUs the run recorded, ticked '3 (all)', beside 2"
q "$tmp/all.db" "DELETE FROM environment WHERE key = 'topology.online_cpus'"
./cvmbench plot runc-cpus --db "$tmp/all.db" --out "$tmp/none.svg" 2> "$tmp/none.err"
rc=$?
grep -q "two or more values of cpus" "$tmp/none.err"
is "$rc:$?" "3:0" "... the run without its CPU count: 'all' is no value, one point is no sweep (exit 3)"

# a baseline from another experiment is marked
grep -q "baseline from" "$tmp/plain/runc-parallel.svg"
is "$?" 1 "a sweep whose points are of one experiment marks no baseline"
cp "$tmp/plain.db" "$tmp/base2.db"
q "$tmp/base2.db" "UPDATE cell SET experiment = 'base-exp' WHERE id IN
	(SELECT cell_id FROM cell_param WHERE key = 'parallel' AND value = '1')"
./cvmbench plot runc-parallel --db "$tmp/base2.db" --out "$tmp/base2.svg" 2> "$tmp/base2.err"
rc=$?
grep -q "ringed: baseline from base-exp" "$tmp/base2.svg"
is "$rc:$?:$(grep -vc '^cvmbench: info' "$tmp/base2.err")" "0:0:0" \
	"the parallel = 1 point of another experiment is ringed, the key names base-exp"

# the overhead figure: the interval's coverage, a baseline from elsewhere
grep -qE 'N=[0-9]+/[0-9]+, cov [0-9.]+/[0-9.]+%<' "$tmp/plain/overhead.svg"
is "$?" 0 "overhead: N of both sides and the achieved coverage of each side's median interval beside each bar"
cp "$tmp/plain.db" "$tmp/pair2.db"
q "$tmp/pair2.db" "UPDATE cell SET experiment = 'reg-exp' WHERE run_id NOT IN
	(SELECT run_id FROM environment WHERE key = 'cvm.type' AND value = 'tdx')"
./cvmbench plot overhead --db "$tmp/pair2.db" --out "$tmp/pair2.svg" 2> /dev/null
grep -q "baseline from reg-exp" "$tmp/pair2.svg"
is "$?:$(grep -c "baseline from" "$tmp/plain/overhead.svg")" "0:0" \
	"... and 'baseline from reg-exp' when the regular twin is another experiment's (only then)"

# the vmexit-rate figure against slowdown, with plain and hostile names
bad=""
for d in plain long; do
	grep -qE '>slowdown 1\.2[45][0-9] \[[0-9.]+, [0-9.]+\]<' "$tmp/$d/vmexit-rate.svg" &&
		grep -qE '>N=20/20, cov [0-9.]+/[0-9.]+%<' "$tmp/$d/vmexit-rate.svg" &&
		grep -q '>slowdown (right axis)<' "$tmp/$d/vmexit-rate.svg" || bad="$bad $d"
done
is "$bad" "" "vmexit-rate: the twin's slowdown, N and coverage under its label, a point (plain, hostile)"
