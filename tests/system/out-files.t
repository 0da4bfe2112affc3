#!/bin/bash
# tests/system/out-files.t - what cvmbench writes as output (report DIR,
# export --out, plot --out, merge --out) cannot be turned against the one
# who runs it (root), on a database made by tests/system/compare-db.py:
#  - a symlink planted in an output file's place (report DIR/index.html,
#    DIR/index.md, DIR/warm-latency.png; export --out; plot --out; merge
#    --out), a report DIR that is a symlink and a --out whose directory is
#    a symlink are refused with exit 2 naming it; the symlink's target
#    (checked by sha256sum) is unchanged and nothing is written outside
#    the output directory;
#  - gnuplot is never given a path in the output directory (a gnuplot
#    wrapper first in PATH logs the program it is given);
#  - a gnuplot that fails (a fake one first in PATH, exit 1) leaves an
#    existing plot --out file as it was, and leaves no temporary file;
#  - report DIR where DIR is a regular file, and merge --out onto a
#    character device, are refused with exit 2 naming them, nothing made
#    beside them (no -journal);
#  - the normal path still writes: report's pages and figures, plot over
#    an existing file, export --out, with no temporary name left behind.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=28
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sum() { sha256sum "$1" | cut -d' ' -f1; }
# the files (and links) under directory $1, names only, sorted, one line
files() { (cd "$1" && find . -mindepth 1 | sort | tr '\n' ' '); }

plan $N
if [ "$(id -u)" != 0 ]; then
	skip_all $N "needs root"
fi
if [ ! -x ./cvmbench ] || [ ! -x $py ] || ! command -v gnuplot > /dev/null; then
	skip_all $N "./cvmbench (make), $py and gnuplot are needed"
fi
$py tests/system/compare-db.py "$tmp/a.db" > /dev/null
db=$tmp/a.db
echo "precious" > "$tmp/victim"
v=$(sum "$tmp/victim")
mkdir "$tmp/target"

# refused CMD... : runs CMD, expects exit 2 and $NAME in its stderr
refused() {
	"$@" > /dev/null 2> "$tmp/err"
	local rc=$?
	[ $rc = 2 ] && grep -qF -- "$NAME" "$tmp/err" && return 0
	echo "# exit $rc:"; sed 's/^/#   /' "$tmp/err"
	return 1
}

# --- report DIR that is a symlink --------------------------------------
ln -s "$tmp/target" "$tmp/replink"
NAME=$tmp/replink refused ./cvmbench report "$tmp/replink" --db "$db"
is "$?" 0 "report DIR, DIR a symlink: exit 2 naming it"
is "$(files "$tmp/target")" "" "... nothing written into the symlink's target"

# --- symlinks planted in DIR ------------------------------------------
for f in index.html index.md warm-latency.png; do
	rm -rf "$tmp/rep"; mkdir "$tmp/rep"
	ln -s "$tmp/victim" "$tmp/rep/$f"
	NAME=$f refused ./cvmbench report "$tmp/rep" --db "$db"
	is "$?" 0 "report with DIR/$f a symlink: exit 2 naming it"
	is "$(sum "$tmp/victim")" "$v" "... its target unchanged"
done
is "$(files "$tmp/target")" "" "nothing written outside DIR"

# --- export --out, plot --out, merge --out as symlinks -----------------
ln -sf "$tmp/victim" "$tmp/out.json"
NAME=out.json refused ./cvmbench export --json --db "$db" --out "$tmp/out.json"
is "$?:$(sum "$tmp/victim")" "0:$v" "export --json --out a symlink: exit 2 naming it, target unchanged"
ln -sf "$tmp/victim" "$tmp/x-cells.csv"
NAME=x-cells.csv refused ./cvmbench export --csv --db "$db" --out "$tmp/x"
is "$?:$(sum "$tmp/victim")" "0:$v" "export --csv with FILE-cells.csv a symlink: exit 2, target unchanged"
ln -sf "$tmp/victim" "$tmp/p.png"
NAME=p.png refused ./cvmbench plot warm-latency --db "$db" --out "$tmp/p.png"
is "$?:$(sum "$tmp/victim")" "0:$v" "plot --out a symlink: exit 2 naming it, target unchanged"
ln -s "$tmp/target" "$tmp/dirlink"
NAME=dirlink refused ./cvmbench plot warm-latency --db "$db" --out "$tmp/dirlink/p.png"
is "$?:$(files "$tmp/target")" "0:" "plot --out in a symlinked directory: exit 2 naming it, nothing written"
$py tests/system/compare-db.py "$tmp/m.db" --hostname other > /dev/null
mv "$tmp/victim" "$tmp/victim.keep"
cp "$tmp/m.db" "$tmp/victim"           # a database a merge would add to
mv "$tmp/victim.keep" "$tmp/victim.txt"
mv "$tmp/victim" "$tmp/vdb"
vdb=$(sum "$tmp/vdb")
ln -s "$tmp/vdb" "$tmp/merged.db"
NAME=merged.db refused ./cvmbench merge --out "$tmp/merged.db" "$db"
is "$?:$(sum "$tmp/vdb")" "0:$vdb" "merge --out a symlink: exit 2 naming it, its target unchanged"
mv "$tmp/victim.txt" "$tmp/victim"
ok "$(ls "$tmp" | grep -c -- '-journal\|-wal')" = 0 "... no -journal or -wal beside it"

# --- gnuplot never sees the output directory ---------------------------
real=$(command -v gnuplot)
mkdir "$tmp/bin"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >> %s/gp.log\nexec %s "$@"\n' "$tmp" "$real" > "$tmp/bin/gnuplot"
chmod +x "$tmp/bin/gnuplot"
rm -rf "$tmp/rep"
PATH=$tmp/bin:$PATH ./cvmbench report "$tmp/rep" --db "$db" > /dev/null 2>&1
is "$?" 0 "report through a logging gnuplot: exit 0"
grep -q "outfile=" "$tmp/gp.log" && ! grep -qF "$tmp/rep" "$tmp/gp.log"
is "$?" 0 "... gnuplot was given no path in DIR" || grep outfile "$tmp/gp.log" | head -2 | sed 's/^/# /'
is "$(files "$tmp/rep")" "./index.html ./index.md ./warm-latency.png ./warm-latency.svg " \
	"... DIR holds the pages and the figure, no temporary file"

# --- a failing gnuplot keeps an existing --out ---------------------------
printf '#!/bin/sh\necho "fake gnuplot: failing" >&2\nexit 1\n' > "$tmp/bin/gnuplot"
mkdir "$tmp/plots"
echo "an older figure" > "$tmp/plots/old.png"
o=$(sum "$tmp/plots/old.png")
PATH=$tmp/bin:$PATH ./cvmbench plot warm-latency --db "$db" --out "$tmp/plots/old.png" 2> "$tmp/err"
is "$?:$(sum "$tmp/plots/old.png")" "1:$o" "plot with a failing gnuplot: exit 1, the existing --out unchanged"
is "$(files "$tmp/plots")" "./old.png " "... and no temporary file left"

# --- DIR a regular file; merge --out a character device -----------------
echo "a file" > "$tmp/afile"
NAME=afile refused ./cvmbench report "$tmp/afile" --db "$db"
is "$?:$(wc -l < "$tmp/err")" "0:1" "report FILE: exit 2, one line naming it"
mknod "$tmp/cdev" c 1 3
NAME=cdev refused ./cvmbench merge --out "$tmp/cdev" "$db"
is "$?" 0 "merge --out a character device: exit 2 naming it"
ok ! -e "$tmp/cdev-journal" "... no -journal beside it"

# --- the normal path ------------------------------------------------------
./cvmbench plot warm-latency --db "$db" --out "$tmp/plots/old.png" 2> "$tmp/err"
is "$?:$(head -c 4 "$tmp/plots/old.png" | tail -c 3)" "0:PNG" "plot over an existing file replaces it with the figure"
is "$(files "$tmp/plots")" "./old.png " "... no temporary file left"
./cvmbench export --csv --db "$db" --out "$tmp/plots/e.csv" 2> "$tmp/err"
is "$?:$(head -1 "$tmp/plots/e-cells.csv" | cut -c1-3)" "0:id," "export --csv --out writes FILE-cells.csv"
./cvmbench export --json --db "$db" --out "$tmp/plots/e.json" 2> "$tmp/err"
$py -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/plots/e.json"
is "$?" 0 "export --json --out writes a JSON file"
./cvmbench merge --out "$tmp/plots/m.db" "$db" > /dev/null 2> "$tmp/err"
is "$?:$(sqlite3 "$tmp/plots/m.db" 'SELECT count(*) FROM run')" "0:1" "merge --out a new file makes it"
