#!/bin/bash
# tests/system/db-shape.t - a database lacking a table or column that its
# schema version implies (the migrations of results-schema/ applied up to
# its user_version) is refused at open with exit 2, naming the file and
# what it lacks: another program's file with tables named run, cell and
# invocation and user_version 1 (no cvmbench mark), and a cvmbench
# database with a table or a column dropped; a database an older cvmbench
# wrote (only migrations 1..N, no mark) still opens. A query that fails
# while a figure's data is read fails the command: no figure is written
# or claimed. Databases are made by tests/system/craft-db.py. No root.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=15
plan $N
command -v sqlite3 > /dev/null || skip_all $N "no sqlite3 (apt-get install sqlite3)"
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock   # native null cells: a private lock
craft() { $py tests/system/craft-db.py "$@"; }
msg() { grep -m1 error: "$tmp/err" | head -c 200; }
latest=$(ls results-schema/[0-9]*.sql | wc -l)

printf '[experiment n]\nworkload = null\nthreads = 1, 2\ninvocations = 3\nwarmup = 0\n' > "$tmp/n.ini"
$CVMBENCH run "$tmp/n.ini" --db "$tmp/base.db" > /dev/null 2>&1
is "$?" 0 "a run of two null cells"

# another program's file that looks like cvmbench's at a glance
craft "$tmp/other.db" foreign
$CVMBENCH show --db "$tmp/other.db" > /dev/null 2> "$tmp/err"; rc=$?
grep -q "$tmp/other.db.* lacks column run\.[a-z_]*" "$tmp/err"
is "$rc $?" "2 0" "another program's run/cell/invocation, user_version 1: show exits 2 naming the file and a column ($(msg))"
cp "$tmp/other.db" "$tmp/other.orig"
$CVMBENCH run "$tmp/n.ini" --db "$tmp/other.db" > /dev/null 2> "$tmp/err"; rc=$?
cmp -s "$tmp/other.db" "$tmp/other.orig"
is "$rc $? $(grep -c "$tmp/other.db.* lacks column" "$tmp/err")" "2 0 1" \
	"run on it: exit 2 naming the file, the file unchanged"

# a cvmbench database with a table dropped
cp "$tmp/base.db" "$tmp/notab.db" && craft "$tmp/notab.db" drop-table cell_param
$CVMBENCH show --db "$tmp/notab.db" > /dev/null 2> "$tmp/err"; rc=$?
grep -q "$tmp/notab.db.* lacks table cell_param" "$tmp/err"
is "$rc $?" "2 0" "a cvmbench database without table cell_param: exit 2 naming file and table ($(msg))"
$CVMBENCH export --json --db "$tmp/notab.db" > /dev/null 2> "$tmp/err"; rc=$?
is "$rc $(grep -c "notab.db.* lacks table cell_param" "$tmp/err")" "2 1" "export: the same"
$CVMBENCH merge --out "$tmp/m.db" "$tmp/notab.db" > /dev/null 2> "$tmp/err"; rc=$?
is "$rc $(grep -c "notab.db.* lacks table cell_param" "$tmp/err") $(ls "$tmp" | grep -c '^m\.db')" \
	"2 1 0" "merge of it: exit 2 naming file and table, no output left"

# ... and with a column dropped (by the sqlite3 command-line tool)
cp "$tmp/base.db" "$tmp/nocol.db"
sqlite3 "$tmp/nocol.db" "ALTER TABLE invocation DROP COLUMN digest_ns"
$CVMBENCH show --db "$tmp/nocol.db" > /dev/null 2> "$tmp/err"; rc=$?
grep -q "$tmp/nocol.db.* lacks column invocation\.digest_ns" "$tmp/err"
is "$rc $?" "2 0" "without column invocation.digest_ns: exit 2 naming file and table.column ($(msg))"
$CVMBENCH run "$tmp/n.ini" --db "$tmp/nocol.db" > /dev/null 2> "$tmp/err"
is "$? $(grep -c "invocation\.digest_ns" "$tmp/err")" "2 1" "run into it: exit 2, named, before any cell"

# plot warm-latency without cell_param: no figure claimed, none written
$CVMBENCH plot warm-latency --db "$tmp/notab.db" --out "$tmp/wl.png" > /dev/null 2> "$tmp/err"; rc=$?
is "$rc $(grep -c wrote "$tmp/err") $(ls "$tmp" | grep -c '^wl\.png')" "2 0 0" \
	"plot warm-latency without cell_param: exit 2, no figure claimed or written ($(msg))"

# a query that fails while a figure's data is read (sum() overflows)
cp "$tmp/base.db" "$tmp/rc.db" && craft "$tmp/rc.db" runc rt
$CVMBENCH plot runc-phases --db "$tmp/rc.db" --out "$tmp/ok.png" > /dev/null 2>&1
is "$? $(ls "$tmp" | grep -c '^ok\.png')" "0 1" "runc-phases draws from a crafted runc run"
sqlite3 "$tmp/rc.db" "UPDATE runc_phase SET duration_ns = 9223372036854775000"
$CVMBENCH plot runc-phases --db "$tmp/rc.db" --out "$tmp/rp.png" > /dev/null 2> "$tmp/err"; rc=$?
is "$rc $(grep -c wrote "$tmp/err") $(ls "$tmp" | grep -c '^rp\.png')" "1 0 0" \
	"a query failing (integer overflow) while its data is read: exit 1, no figure claimed or written"
grep -q "$tmp/rc.db: query failed.*integer overflow" "$tmp/err"
is "$?" 0 "and the error names the file ($(msg))"

# an older cvmbench's database: only the first migrations, no mark
bad=
for ((v = 1; v < latest; v++)); do
	craft "$tmp/old$v.db" schema $v
	$CVMBENCH show --db "$tmp/old$v.db" > "$tmp/out" 2> "$tmp/err" && grep -q complete "$tmp/out" ||
		bad="$bad $v:$(msg)"
done
is "$bad" "" "unmarked databases of every older schema (1..$((latest - 1))) open, show exits 0"
# every figure's query reads columns and tables of this build's schema: the
# report reads an upgraded copy in memory, the file stays as it was
bad=
for ((v = 1; v < latest; v++)); do
	cp "$tmp/old$v.db" "$tmp/before.db"
	$CVMBENCH report "$tmp/rep$v" --db "$tmp/old$v.db" > /dev/null 2> "$tmp/err" &&
		grep -q "schema $v (an older cvmbench's).*upgraded to schema $latest, the file is unchanged" "$tmp/err" &&
		cmp -s "$tmp/old$v.db" "$tmp/before.db" || bad="$bad $v:$(grep -v 'not drawn' "$tmp/err" | head -2)"
done
is "$bad" "" "a report on every older schema exits 0, says it read an upgraded copy, the file unchanged"
craft "$tmp/oldrun.db" schema 1
$CVMBENCH run "$tmp/n.ini" --db "$tmp/oldrun.db" > /dev/null 2> "$tmp/err"; rc=$?
is "$rc $(sqlite3 "$tmp/oldrun.db" 'PRAGMA user_version; SELECT count(*) FROM run' | tr '\n' ' ')" \
	"0 $latest 2 " "run into a schema-1 database: migrated and written ($(msg))"
