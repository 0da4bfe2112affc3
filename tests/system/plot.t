#!/bin/bash
# tests/system/plot.t - figures and the report on runs that lack data, and
# on crafted databases (tests/system/craft-db.py), independent of what the
# machine can measure:
#  - a warm sweep without the idle probe: threads-sweep and idle-policy say
#    there is nothing to draw (exit 3, the reason), the report lists them
#    with the reason and has no error (gnuplot used to abort: "all points y
#    value undefined!");
#  - idle cells whose idle probe was skipped: both idle figures draw, the
#    halt panel says why it is empty;
#  - idle = spin is drawn as spin (its own colour), never as poll; halt
#    entries from different sources name their source, one source is named
#    once in the panel's title;
#  - a gnuplot failure (a broken script under $CVMBENCH_SHARE_DIR) is an
#    error of the report, with relative paths and gnuplot's first error
#    line, and exit 1 (no point left to draw is not one: plot-degenerate.t);
#  - hostile names in the database (backend, workload, cell_param values,
#    idle values, lock names, skip reasons) are never gnuplot language:
#    every figure draws or says there is nothing to draw, no marker file
#    (the vm-boot figure with VM boots of accel and confidential NAME);
#  - every figure says N (the invocations, starts, boots or cells behind
#    its points) and gnuplot prints no warning on them (labels are cut to
#    fit, gp-string.c);
#  - a run with measured and skipped cells is 'partial' with its counts in
#    its last line, show and the report; exit 3.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/plot-lib.sh

N=50
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
craft() { $py tests/system/craft-db.py "$@"; }
q() { $py -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in r))' "$1" "$2"; }

plan $N
plot_needs $N
plot_base_db "$tmp/base.db"
is "$?" 0 "a warm sweep of the null function at threads 1 and 2 runs (latency only)"

# --- nothing to draw ----------------------------------------------------
for f in threads-sweep idle-policy; do
	./cvmbench plot $f --db "$tmp/base.db" --out "$tmp/$f.png" 2> "$tmp/err"
	rc=$?
	grep -q "nothing to draw: run 1 has no .*idle or cpu probe" "$tmp/err"
	is "$rc:$?" "3:0" "$f of a run without idle cells: exit 3, nothing to draw, why" ||
		sed 's/^/# /' "$tmp/err"
done
./cvmbench report "$tmp/rep" --db "$tmp/base.db" 2> "$tmp/err"
is "$?" 0 "report of that run exits 0"
grep -q "| threads-sweep | run 1 has no workload and idle policy" "$tmp/rep/index.md"
is "$?" 0 "... lists threads-sweep under Figures not drawn with the reason"
sed -n '/^## Errors/,$p' "$tmp/rep/index.md" | grep -q "^No errors"
is "$?" 0 "... and has no error"

# --- ple: no ple cells; ple = off skipped (no PLE to turn off) -----------------
./cvmbench plot ple --db "$tmp/base.db" --out "$tmp/ple.svg" 2> "$tmp/err"
is "$?:$(grep -c "nothing to draw: run 1 has no measured cell with ple = off alone or next to a kv co-runner" "$tmp/err")" \
	"3:1" "ple of a run without ple = off cells: exit 3, nothing to draw, why"
cp "$tmp/base.db" "$tmp/ple.db" && craft "$tmp/ple.db" ple wl
$py -c 'import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
off = [r[0] for r in d.execute("SELECT cell_id FROM cell_param WHERE key = ? AND value = ?",
                               ("ple", "off"))]
for c in off:
    d.execute("DELETE FROM invocation WHERE cell_id = ?", (c,))
    d.execute("INSERT INTO skip (run_id, cell_id, probe, reason) VALUES (1, ?, NULL, ?)",
              (c, "ple = off: neither kvm_intel (ple_gap) nor kvm_amd (pause_filter_count) is loaded here"))
d.commit()' "$tmp/ple.db"
./cvmbench plot ple --db "$tmp/ple.db" --out "$tmp/ple.svg" 2> "$tmp/err"
is "$?:$(grep -c "run 1 has no measured cell with ple = off (3 skipped: ple = off: neither kvm_intel" "$tmp/err")" \
	"3:1" "ple with its off cells skipped: exit 3, with the skip's reason" || sed 's/^/# /' "$tmp/err"
cp "$tmp/base.db" "$tmp/ple2.db" && craft "$tmp/ple2.db" ple wl
./cvmbench plot ple --db "$tmp/ple2.db" --out "$tmp/ple2.svg" 2> "$tmp/err"
rc=$?
grep -q ">wl (N=20)<" "$tmp/ple2.svg" && ! grep -q ">null (N=" "$tmp/ple2.svg"
is "$rc:$?" "0:0" "ple draws a workload with both ple values (N = its 4 cells' calls), not one with only ple = default" ||
	sed 's/^/# /' "$tmp/err"

# --- idle cells whose idle probe was skipped ------------------------------
cp "$tmp/base.db" "$tmp/noidle.db" && craft "$tmp/noidle.db" noidle
for f in threads-sweep idle-policy; do
	./cvmbench plot $f --db "$tmp/noidle.db" --out "$tmp/$f.png" 2> "$tmp/err"
	rc=$?
	file "$tmp/$f.png" | grep -q "PNG image"
	is "$rc:$?" "0:0" "$f of idle cells without halt entries draws" ||
		sed 's/^/# /' "$tmp/err"
done
./cvmbench report "$tmp/rep2" --db "$tmp/noidle.db" 2> "$tmp/err"
rc=$?
[ -s "$tmp/rep2/threads-sweep.svg" ] && grep -q "the idle probe was skipped:" \
	"$tmp/rep2/threads-sweep.svg" && grep -q "no cpuidle driver" "$tmp/rep2/threads-sweep.svg"
is "$rc:$?" "0:0" "the report draws it; its halt panel gives the idle probe's skip reason"

# --- spin, and where the idle entries came from ---------------------------
cp "$tmp/base.db" "$tmp/spin.db" && craft "$tmp/spin.db" halt spin
./cvmbench plot idle-policy --db "$tmp/spin.db" --out "$tmp/spin.svg" 2> "$tmp/err"
rc=$?
grep -q ">null/1t spin<" "$tmp/spin.svg" && grep -qi "#9467bd\|rgb(148, 103, 189)" "$tmp/spin.svg"
is "$rc:$?" "0:0" "idle = spin: labelled spin, in its own colour" || sed 's/^/# /' "$tmp/err"
grep -qi "poll\|#1f77b4\|rgb( *31, 119, 180)" "$tmp/spin.svg"
is "$?" 1 "... and nothing in the figure says poll or has poll's colour"
grep -q "null/1t spin \[tracefs\]" "$tmp/spin.svg" && grep -q "null/2t spin \[cpuidle\]" "$tmp/spin.svg"
is "$?" 0 "halt entries from two sources: each bar names its source"
cp "$tmp/base.db" "$tmp/one.db" && craft "$tmp/one.db" halt hlt=same
./cvmbench plot threads-sweep --db "$tmp/one.db" --out "$tmp/one.svg" 2> "$tmp/err"
rc=$?
grep -q "from tracefs power:cpu_idle" "$tmp/one.svg" && ! grep -q "\[tracefs\]" "$tmp/one.svg"
is "$rc:$?" "0:0" "one source: named once, in the halt panel's title" || sed 's/^/# /' "$tmp/err"

# --- a gnuplot failure is an error of the report ---------------------------
mkdir -p "$tmp/share" && cp -r analysis "$tmp/share/"
printf 'set terminal pngcairo\nset output outfile\nplot datafile using 1:2 with nosuchstyle notitle\n' \
	> "$tmp/share/analysis/warm-latency.gp"
CVMBENCH_SHARE_DIR=$tmp/share ./cvmbench report "$tmp/rep3" --db "$tmp/base.db" 2> "$tmp/err"
is "$?" 1 "report exits 1 when gnuplot fails on a figure"
errs=$(sed -n '/^## Errors/,$p' "$tmp/rep3/index.md")
echo "$errs" | grep -q "figure warm-latency | warm-latency.png: gnuplot failed on analysis/warm-latency.gp"
is "$?" 0 "the Errors section names the figure, its file and script by relative path" ||
	echo "$errs" | sed 's/^/# /'
echo "$errs" | grep -q '"analysis/warm-latency.gp" line 3: unrecognized plot type'
is "$?" 0 "... with gnuplot's own message"
grep -q "$tmp/share" "$tmp/rep3/index.md" "$tmp/rep3/index.html"
is "$?" 1 "no absolute path of the scripts in the pages"
[ -e "$tmp/rep3/warm-latency.png" ]
is "$?" 1 "no half-drawn figure is left"

# --- hostile strings ------------------------------------------------------
# the plan figures draw a capacity plan (cvmbench plan), not a run: plan-db.t draws them
figs=$(./cvmbench plot --list | awk '$1 !~ /^plan-/ { print $1 }')
mark=$tmp/pwned
names=(
	"x';system(\"touch\\t$mark\");print'"
	"x\"; system(\"touch $mark\"); print \""
	"x'\"; system('touch $mark'); print \"'"
	"\`touch $mark\`"
)
i=0
for name in "${names[@]}"; do
	i=$((i + 1))
	cp "$tmp/base.db" "$tmp/h$i.db"
	craft "$tmp/h$i.db" noidle && craft "$tmp/h$i.db" names "$name" &&
		craft "$tmp/h$i.db" runc "$name" && craft "$tmp/h$i.db" pair "$name" &&
		craft "$tmp/h$i.db" services "$name" &&
		craft "$tmp/h$i.db" vmexit kvm_exit && craft "$tmp/h$i.db" vmboot "$name" &&
		craft "$tmp/h$i.db" memory "$name" && craft "$tmp/h$i.db" vmexit-rows "$name" &&
		craft "$tmp/h$i.db" ipc && craft "$tmp/h$i.db" ple "$name" &&
		craft "$tmp/h$i.db" vmexit-pair "$name" && craft "$tmp/h$i.db" seed "$name"
	$py -c 'import sqlite3, sys
d = sqlite3.connect(sys.argv[1]); d.execute("UPDATE skip SET reason = ?", (sys.argv[2],))
d.commit()' "$tmp/h$i.db" "$name"
	bad="" nonum="" warned=""
	for f in $figs; do
		./cvmbench plot "$f" --db "$tmp/h$i.db" --out "$tmp/h$i-$f.svg" 2> "$tmp/err"
		rc=$?
		[ $rc = 0 ] && [ -s "$tmp/h$i-$f.svg" ] || bad="$bad $f:$rc"
		grep -qE '>[^<]*N ?= ?[0-9]' "$tmp/h$i-$f.svg" || nonum="$nonum $f"
		# x tick labels of 100+ characters (these names repeated per key) are
		# cut to fit (gp-string.c): no warning at all
		grep -qi "warning" "$tmp/err" &&
			warned="$warned $f" && sed "s/^/# $f: /" "$tmp/err"
	done
	is "$bad" "" "hostile name $i: every figure draws (runc and idle cells with that name)"
	is "$nonum" "" "... every figure says its N (N=... or N = ... as SVG text)"
	is "$warned" "" "... and gnuplot printed no warning"
	grep -qF "touch" "$tmp/h$i-runc-parallel.svg"
	is "$?" 0 "... with the name in the legend, as text"
	grep -qF "touch" "$tmp/h$i-overhead.svg"
	is "$?" 0 "... also as the CVM type in the overhead figure's legend"
	[ -e "$mark" ]
	is "$?" 1 "... and the command in it did not run"
	rm -f "$mark"
done

# --- file names ---------------------------------------------------------
mkdir -p "$tmp/it's"
./cvmbench plot warm-latency --db "$tmp/base.db" --out "$tmp/it's/''wl'.svg" 2> "$tmp/err"
rc=$?
[ -s "$tmp/it's/''wl'.svg" ]
is "$rc:$?" "0:0" "an output file name with quotes is drawn where asked" || sed 's/^/# /' "$tmp/err"
./cvmbench plot warm-latency --db "$tmp/base.db" --out "$tmp/a
b.svg" 2> "$tmp/err"
rc=$?
grep -q "control character cannot be given to gnuplot" "$tmp/err"
is "$rc:$?:$(ls "$tmp" | grep -c '^a$')" "2:0:0" \
	"one with a newline is refused (exit 2, says why), nothing written"

# --- a run with measured and skipped cells ---------------------------------
cat > "$tmp/part.ini" <<'INI'
[experiment ran]
workload = null
invocations = 3
warmup = 0

[experiment cannot]
workload = null
backend = runc
mode = cold
cpus = 1024
invocations = 1
warmup = 0
INI
./cvmbench run "$tmp/part.ini" --db "$tmp/part.db" > "$tmp/run.out" 2>&1
rc=$?
grep -q "run 1 partial: 1 ok, 1 skipped (2 cells)" "$tmp/run.out"
is "$rc:$?:$(q "$tmp/part.db" "SELECT status FROM run")" "3:0:partial" \
	"1 cell measured, 1 skipped: exit 3, run 'partial', last line 'partial: 1 ok, 1 skipped'" ||
	tail -2 "$tmp/run.out" | sed 's/^/# /'
./cvmbench show --db "$tmp/part.db" | grep -q "^run 1 (partial: 1 ok, 1 skipped, "
is "$?" 0 "show says partial with the counts"
./cvmbench report "$tmp/rep4" --db "$tmp/part.db" 2> /dev/null
grep -q "| status | partial: 1 ok, 1 skipped |" "$tmp/rep4/index.md"
is "$?" 0 "the report says partial with the counts"
