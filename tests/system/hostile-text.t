#!/bin/bash
# tests/system/hostile-text.t - reading a database can never be turned against
# the reader (issue 25.2-4). A real run of two null cells, then its text made
# hostile (tests/system/craft-db.py text: a terminal title and screen clear,
# CR LF and a forged line, ``` and ~~~ fences, a table's |, link and HTML
# markup, C1, DEL and invalid UTF-8 in experiment and workload names, a cell
# key and setting, a skip, an error, an environment value, the command line
# and config path) and a confidential twin run to compare with. Then:
#  - show, show --run all, compare: no byte a terminal acts on (C0 but LF,
#    DEL, C1) and no invalid UTF-8 on stdout; the payload shown escaped, on
#    its line; no forged line;
#  - show --json, compare --json, export --json parse as strict UTF-8 JSON
#    and still carry the text (its control characters as data);
#  - report: index.md has the payload on one line each time and no fence or
#    heading underline of its own; index.md and index.html hold no raw
#    control byte (HTML: TAB LF CR only) and no invalid UTF-8.
# No root.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=18
py=/usr/bin/python3
plan $N
[ -x $py ] || skip_all $N "no $py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
# native cells change no host setting: a private host lock
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock
db=$tmp/h.db

# raw FILE ALLOWED: "controls/invalid": the characters of FILE below U+0020
# (but those in ALLOWED, e.g. $'\n'), DEL and C1, then the bytes that are not UTF-8
raw() {
	$py - "$1" "$2" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
t = b.decode("utf-8", "surrogateescape")
ctl = sum(1 for c in t if (ord(c) < 0x20 and c not in sys.argv[2]) or 0x7f <= ord(c) < 0xa0)
print("%d/%d" % (ctl, sum(1 for c in t if 0xdc80 <= ord(c) <= 0xdcff)))
PY
}
# json FILE [EXPR]: FILE parses as JSON from strict UTF-8; prints EXPR of it (d),
# or the error on one line
json() {
	$py - "$1" "${2:-isinstance(d, dict)}" <<'PY'
import json, sys
try:
    d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
except ValueError as e:
    sys.exit(print(ascii(e)[:200]))
print(eval(sys.argv[2]))
PY
}
# the payload as a terminal shows it (TEXT_TERM), as grep -F reads it
shown='pwned\x1b]0;title\x07\x1b[2J\r\nok 1 - forged\n```\n~~~\n| a | b |\n===\n[l](u) <b>x</b> # \u0085\x7f \xff\xe2\x82 \xc0\xaf end'

printf '[experiment h]\nworkload = null\nwait = spin, block\ninvocations = 5\nwarmup = 0\n' \
	> "$tmp/h.ini"
$CVMBENCH run "$tmp/h.ini" --db "$db" > /dev/null 2>&1
is "$?" 0 "a run of two null cells"
$py tests/system/craft-db.py "$db" pair cvm && $py tests/system/craft-db.py "$db" text
is "$?" 0 "a confidential twin run; the payload in the runs' text"

# --- terminal ------------------------------------------------------------------
$CVMBENCH show --db "$db" > "$tmp/show" 2> "$tmp/err"
is "$?/$(raw "$tmp/show" $'\n')" "0/0/0" "show: exit 0, no raw control byte, no invalid UTF-8"
is "$(grep -cF -- "$shown" "$tmp/show")/$(grep -c '^ok 1 - forged' "$tmp/show")" "4/0" \
	"show: the payload shown escaped on its line (command line, a cell's key and setting, skip, error), no forged line"
$CVMBENCH show --db "$db" --run all > "$tmp/all" 2>&1
is "$(raw "$tmp/all" $'\n')" "0/0" "show --run all (and its stderr): no raw control byte, no invalid UTF-8"
$CVMBENCH compare --db "$db" > "$tmp/cmp" 2> "$tmp/err"
is "$?/$(raw "$tmp/cmp" $'\n')" "0/0/0" "compare: exit 0 (a pair), no raw control byte, no invalid UTF-8"
is "$(grep -cF -- "$shown" "$tmp/cmp")/$(grep -c '^ok 1 - forged' "$tmp/cmp")" "2/0" \
	"compare: the workload shown escaped on the pairs' lines, no forged line"

# --- JSON ----------------------------------------------------------------------
$CVMBENCH show --db "$db" --json > "$tmp/show.json" 2> "$tmp/err"
is "$(json "$tmp/show.json")" True "show --json parses (strict UTF-8)"
is "$(json "$tmp/show.json" '([s["reason"] for s in d["run"]["skips"] if "pwned" in s["reason"]] ==
	["pwned\x1b]0;title\x07\x1b[2J\r\nok 1 - forged\n```\n~~~\n| a | b |\n===\n[l](u) <b>x</b> # '\
'\x85\x7f \ufffd\ufffd\ufffd \ufffd\ufffd end"])')" True \
	"show --json: the skip reason is the text, invalid bytes as U+FFFD, one each"
$CVMBENCH show --db "$db" --run all --json > "$tmp/all.json" 2> "$tmp/err"
is "$(json "$tmp/all.json" 'len(d["all_runs"])')" 2 "show --run all --json parses"
$CVMBENCH compare --db "$db" --json > "$tmp/cmp.json" 2> "$tmp/err"
is "$(json "$tmp/cmp.json" 'sum("forged" in p["workload"] for p in d["pairs"])')" 2 \
	"compare --json parses, the workload of its two pairs is the text"
$CVMBENCH export --json --db "$db" --out "$tmp/x.json" 2> "$tmp/err"
is "$?/$(json "$tmp/x.json" 'sum("\x1b]0;title" in c["experiment"] for c in d["cells"])')" 0/4 \
	"export --json parses; the experiment of the four cells is the text"

# --- report --------------------------------------------------------------------
$CVMBENCH report "$tmp/rep" --db "$db" > /dev/null 2> "$tmp/err"
is "$?/$(ls "$tmp/rep" | grep -c '^index\.\(md\|html\)$')" 0/2 "report writes index.md and index.html"
md=$tmp/rep/index.md
is "$(grep -ac pwned "$md")/$(grep -a pwned "$md" | grep -avc 'forged.*end')" "$(grep -ac pwned "$md")/0" \
	"index.md: the payload on one line each time ($(grep -ac pwned "$md") times)"
is "$(grep -acE '^(```|~~~|===|---)' "$md")" 2 \
	"index.md: no fence or heading underline but the configuration's fence pair"
is "$(raw "$md" $'\n')" "0/0" "index.md: no raw control byte, no invalid UTF-8"
is "$(raw "$tmp/rep/index.html" $'\t\n\r')" "0/0" \
	"index.html: no raw control byte but TAB LF CR, no C1, no invalid UTF-8"

# --- messages ------------------------------------------------------------------
# SQLite's own error names a schema object the database chose: it reaches
# stderr through cvmbench's log, which shows control bytes escaped
cp "$db" "$tmp/schema.db"
python3 - "$tmp/schema.db" <<'PY'
import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
d.execute("PRAGMA writable_schema = ON")
d.execute("INSERT INTO sqlite_master VALUES ('table', 'x\x1b]0;title\x07\x1b[2J', "
          "'x\x1b]0;title\x07', 0, 'CREATE TABLE \x1b[2J garbage')")
d.commit()
PY
$CVMBENCH show --db "$tmp/schema.db" > /dev/null 2> "$tmp/err"
rc=$?
is "$rc/$(grep -ac $'\x1b' "$tmp/err")/$(grep -ac 'x\\x1b\]0;title' "$tmp/err")" "2/0/1" \
	"a schema object named with escapes: refused (exit 2), its name on stderr escaped, not raw" ||
	sed -n '1,3p' "$tmp/err" | cat -v | sed 's/^/# /'
