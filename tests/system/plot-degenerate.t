#!/bin/bash
# tests/system/plot-degenerate.t - every figure on degenerate numbers and
# labels (the rule of analysis/plot-data.c and gp-string.c): a database
# where every figure draws (tests/system/craft-db.py) gets its latencies,
# container starts, VM boots, metric values, memory samples and VM exits
# set to zero, their negation, infinity (9e999), NULL (SQLite's NaN) or
# 1e300, everywhere or in every other row; another has control characters
# (\x01, \x1b, \n) in its cell_param values, experiment names and cell keys.
# Every figure, on each: exit 0 (drawn; a note says what was left out) or 3
# with "nothing to draw", never 1 and never a gnuplot error; the --out file
# exists iff exit 0, and an existing one is kept when nothing is drawn.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/plot-lib.sh

KINDS="zero negative inf nan huge"
N=13
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
craft() { $py tests/system/craft-db.py "$@"; }

# A database where every figure draws, NAME in its labels.
full_db() {
	cp "$tmp/base.db" "$1" && craft "$1" noidle && craft "$1" names "$2" &&
		craft "$1" runc "$2" && craft "$1" pair "$2" && craft "$1" services "$2" &&
		craft "$1" vmexit kvm_exit &&
		craft "$1" vmboot "$2" && craft "$1" memory "$2" &&
		craft "$1" vmexit-rows "$2" && craft "$1" ipc && craft "$1" ple "$2" &&
		craft "$1" vmexit-pair "$2" && craft "$1" seed "$2"
}

# Every figure on $1: what broke the rule, as " figure:why" words; with
# $2 = note, a figure drawn must also say on stderr that it left points out.
check_figures() {
	local f rc bad=""

	for f in $figs; do
		rm -f "$tmp/f.svg"
		./cvmbench plot "$f" --db "$1" --out "$tmp/f.svg" 2> "$tmp/err"
		rc=$?
		case $rc in
		0) [ -s "$tmp/f.svg" ] || bad="$bad $f:no-file"
		   # overhead and memory-overhead draw ratios of two such numbers
		   [ "${2:-}" = note ] && [ "${f%overhead}" = "$f" ] &&
			! grep -q "left out [0-9]* points" "$tmp/err" &&
			bad="$bad $f:drawn-without-note" ;;
		3) grep -q "$f: nothing to draw: " "$tmp/err" || bad="$bad $f:3-without-why"
		   [ -e "$tmp/f.svg" ] && bad="$bad $f:file-on-3" ;;
		*) bad="$bad $f:exit-$rc" ;;
		esac
		grep -qE 'undefined|line [0-9]+:|gnuplot failed' "$tmp/err" &&
			bad="$bad $f:gnuplot-error" && sed "s/^/# $f: /" "$tmp/err"
	done
	echo "$bad"
}

plan $N
plot_needs $N
plot_base_db "$tmp/base.db"
is "$?" 0 "a warm sweep of the null function at threads 1 and 2 runs (latency only)"
# the plan figures draw a capacity plan (cvmbench plan), not a run: plan-db.t draws them
figs=$(./cvmbench plot --list | awk '$1 !~ /^plan-/ { print $1 }')
full_db "$tmp/full.db" wl
is "$(check_figures "$tmp/full.db")" "" "the crafted database: every figure draws or says why"

# --- degenerate numbers ---------------------------------------------------
for k in $KINDS; do
	# every other row: where some points stay (negative, nan) the note is drawn
	some=
	case $k in negative | nan) some=1 ;; esac
	for part in "" ${some:+" some"}; do
		cp "$tmp/full.db" "$tmp/$k.db" && craft "$tmp/$k.db" numbers "$k$part"
		note=
		[ "$k$part" = huge ] && note=note     # every number beyond 1e18: each is left out
		is "$(check_figures "$tmp/$k.db" $note)" "" \
			"numbers $k${part:+ in every other row}: every figure exit 0 or 3, no gnuplot error"
	done
done

# a figure drawn without some points says how many and why, on stderr and on it
cp "$tmp/full.db" "$tmp/neg.db" && craft "$tmp/neg.db" numbers "negative some"
./cvmbench plot warm-latency --db "$tmp/neg.db" --out "$tmp/neg.svg" 2> "$tmp/err"
rc=$?
grep -q "warm-latency: left out [0-9]* points that cannot be drawn: [0-9]* negative" "$tmp/err" &&
	grep -q "left out [0-9]* points that cannot be drawn" "$tmp/neg.svg"
is "$rc:$?" "0:0" "warm-latency with negative latencies: drawn, the note on stderr and the figure" ||
	sed 's/^/# /' "$tmp/err"

# nothing left to draw: exit 3, the reason, an existing figure kept as it was
echo keep > "$tmp/kept.svg"
cp "$tmp/full.db" "$tmp/inf.db" && craft "$tmp/inf.db" numbers inf
./cvmbench plot warm-latency --db "$tmp/inf.db" --out "$tmp/kept.svg" 2> "$tmp/err"
rc=$?
grep -q "nothing to draw: .*left out [0-9]* points that cannot be drawn: [0-9]* not finite" "$tmp/err"
is "$rc:$?:$(cat "$tmp/kept.svg")" "3:0:keep" \
	"infinite latencies only: exit 3, says why, the existing --out is kept" || sed 's/^/# /' "$tmp/err"

# --- control characters in labels ----------------------------------------
ctl=$(printf 'a\001b\033[31mc\nd')
full_db "$tmp/ctl.db" "$ctl"
$py -c 'import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
d.execute("UPDATE cell SET experiment = experiment || ?, cell_key = cell_key || ?",
          (sys.argv[2], sys.argv[2]))
d.commit()' "$tmp/ctl.db" "$ctl"
bad="" ctlout=""
for f in $figs; do
	./cvmbench plot "$f" --db "$tmp/ctl.db" --out "$tmp/c-$f.svg" 2> "$tmp/err"
	rc=$?
	[ $rc = 0 ] && [ -s "$tmp/c-$f.svg" ] || { bad="$bad $f:$rc"; sed "s/^/# $f: /" "$tmp/err"; }
	LC_ALL=C grep -q $'[\001\033]' "$tmp/c-$f.svg" 2> /dev/null && ctlout="$ctlout $f"
done
is "$bad" "" "control characters in cell_param values, experiments, cell keys: every figure draws"
is "$ctlout" "" "... and no figure holds a control character (each is drawn as a space)"
