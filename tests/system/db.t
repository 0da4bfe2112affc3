#!/bin/bash
# tests/system/db.t - what cvmbench does with a database it should not
# write, or cannot: an empty --db, another program's SQLite file, a newer
# schema (refused with the file left byte for byte as it was), a WAL
# database on a read-only mount, an immutable file, and a run refused
# because another run holds the journal (no database file left behind).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
imm=
trap '[ -n "$imm" ] && chattr -i "$imm"; rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data

plan 17

cat > "$tmp/n.ini" <<'INI'
[experiment n]
workload = null
size = test
invocations = 2
warmup = 0
INI
run() { $CVMBENCH run "$tmp/n.ini" "$@" 2>"$tmp/err"; }
msg() { grep -m1 error: "$tmp/err" | head -c 160; }

# 12. --db '' is SQLite's private temporary database: everything discarded.
cvmb=$(realpath "$CVMBENCH")
(cd "$tmp" && "$cvmb" run n.ini --db '' 2>err); rc=$?
is "$rc $(ls "$tmp" | grep -vc '^n.ini$\|^err$\|^state$\|^data$')" "2 0" "run --db '': exit 2, no file written"
grep -q "database" "$tmp/err"; ok $? = 0 "and the message says why ($(msg))"
$CVMBENCH show --db '' >/dev/null 2>&1; is "$?" 2 "show --db '': exit 2"
$CVMBENCH show --db "$tmp" >/dev/null 2>"$tmp/err"; rc=$?
grep -q "is a directory" "$tmp/err"; ok "$rc.$?" = 2.0 "show --db DIR: exit 2, 'is a directory'"

# 13. Another program's database is not taken over.
sqlite3 "$tmp/other.db" "CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('mine');"
cp "$tmp/other.db" "$tmp/other.orig"
run --db "$tmp/other.db"; rc=$?
cmp -s "$tmp/other.db" "$tmp/other.orig"; same=$?
is "$rc $same" "2 0" "another program's SQLite file (user_version 0): exit 2, file unchanged"
grep -q "not a cvmbench database" "$tmp/err"; ok $? = 0 "and the message says so ($(msg))"
sqlite3 "$tmp/app.db" "PRAGMA application_id = 1234; PRAGMA user_version = 1; CREATE TABLE run (x);"
cp "$tmp/app.db" "$tmp/app.orig"
run --db "$tmp/app.db"; rc=$?
cmp -s "$tmp/app.db" "$tmp/app.orig"; is "$rc $?" "2 0" "a file with another application_id: exit 2, unchanged"
run --db "$tmp/new.db"; rc=$?
is "$rc $(sqlite3 "$tmp/new.db" "PRAGMA application_id")" "0 $((0x63766d62))" \
	"a new database is marked with PRAGMA application_id 'cvmb'"
sqlite3 "$tmp/new.db" "PRAGMA application_id = 0"
run --db "$tmp/new.db"; rc=$?
is "$rc $(sqlite3 "$tmp/new.db" "PRAGMA application_id; SELECT count(*) FROM run" | tr '\n' ' ')" \
	"0 $((0x63766d62)) 2 " "an unmarked cvmbench database (older build) is accepted and marked"

# 14. A newer schema is refused before anything is changed (no WAL switch).
sqlite3 "$tmp/newer.db" "PRAGMA application_id = $((0x63766d62)); PRAGMA user_version = 999; CREATE TABLE run (x);"
cp "$tmp/newer.db" "$tmp/newer.orig"
run --db "$tmp/newer.db"; rc=$?
cmp -s "$tmp/newer.db" "$tmp/newer.orig"; same=$?
grep -q "newer cvmbench" "$tmp/err"; newer=$?
is "$rc $newer $same $(sqlite3 "$tmp/newer.db" "PRAGMA journal_mode")" "2 0 0 delete" \
	"newer schema: exit 2 saying so, file byte for byte unchanged, still in rollback-journal mode"

# 15. A WAL database on a read-only mount, without its -shm.
mkdir "$tmp/ro" "$tmp/mnt"
cp "$tmp/new.db" "$tmp/ro/r.db"
ro() { unshare -m --propagation private bash -c 'mount --bind "$1" "$2" &&
	mount -o remount,bind,ro "$2" && shift 2 && "$@"' _ "$tmp/ro" "$tmp/mnt" "$@"; }
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	skip_rest 3 "needs root and unshare -m (a private read-only bind mount)"
else
	is "$(sqlite3 "$tmp/ro/r.db" "PRAGMA journal_mode")" wal "the copy is a WAL database"
	out=$(ro $CVMBENCH show --db "$tmp/mnt/r.db" 2>"$tmp/err"); rc=$?
	echo "$out" | grep -q complete; ok "$rc.$?" = 0.0 "show reads it on a read-only mount ($(msg))"
	# with a write-ahead log that holds rows: immutable would skip them
	sqlite3 "$tmp/ro/r.db" "PRAGMA wal_autocheckpoint = 0; UPDATE run SET hostname = 'x';" >/dev/null \
		".shell cp $tmp/ro/r.db-wal $tmp/keep-wal"
	cp "$tmp/keep-wal" "$tmp/ro/r.db-wal"
	ro $CVMBENCH show --db "$tmp/mnt/r.db" >/dev/null 2>"$tmp/err"; rc=$?
	grep -q "r.db-wal" "$tmp/err"; ok "$rc.$?" = 2.0 "with an unreadable -wal: exit 2 naming it ($(msg))"
fi

# 16. An immutable database: exit 2 (a database error), nothing measured.
cp "$tmp/new.db" "$tmp/imm.db"
if chattr +i "$tmp/imm.db" 2>/dev/null; then
	imm=$tmp/imm.db
	run --db "$tmp/imm.db"; rc=$?
	is "$rc" 2 "chattr +i database: exit 2 ($(msg))"
	grep -q "read-only\|immutable" "$tmp/err"; ok $? = 0 "and the message says it cannot be written"
	chattr -i "$tmp/imm.db"; imm=
else
	skip_rest 2 "chattr +i is not supported here (not root, or the file system)"
fi

# 17. A run refused because another run holds the journal creates nothing.
printf '[experiment long]\nworkload = null\ninvocations = 1000000\n' > "$tmp/long.ini"
$CVMBENCH run "$tmp/long.ini" --db "$tmp/long.db" 2>/dev/null &
pid=$!
for i in $(seq 100); do
	[ "$(sqlite3 "$tmp/long.db" "SELECT count(*) FROM invocation" 2>/dev/null)" -gt 0 ] 2>/dev/null && break
	sleep 0.1
done
CVMBENCH_TEST_WAIT_LOCK= run --db "$tmp/second.db"; rc=$?   # refused, not queued (tap.sh makes runs wait)
kill -INT $pid; wait $pid
ok "$rc" != 0 "a second run while the first holds the journal is refused ($(msg))"
[ -e "$tmp/second.db" ]; ok $? = 1 "and leaves no database file behind"
