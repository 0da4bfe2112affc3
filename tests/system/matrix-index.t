#!/bin/bash
# tests/system/matrix-index.t - cell.matrix_index (009-cell-matrix-index.sql),
# checked with sqlite3 against the line order of `cvmbench run CONFIG --dry-run`:
# an unsharded run stores each cell's line number (0-based); the shards 1/2
# and 2/2 store the whole matrix's index, and their merge holds every
# index of the unsharded run; show orders the merged cells by the stored
# index alone (the run's config text removed, so no expansion can help).
# An older database (the column dropped, user_version 8): show and report
# still list its cells in the dry-run order (the config expanded again),
# merge copies its cells with NULL, and `run --only` into an older
# unsharded run migrates it and stores the index of the cells it measures
# again, the order of show unchanged. Native cells change no host setting: a private host lock.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=11
plan $N
command -v sqlite3 >/dev/null || skip_all $N "no sqlite3"
[ -x "$CVMBENCH" ] || skip_all $N "no $CVMBENCH (make)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock
q() { sqlite3 -batch -noheader "$1" "$2"; }
KEY='(mx|other)-[0-9a-f]{8}'
cat > "$tmp/m.ini" <<'INI'
[defaults]
size = test
probes = latency
invocations = 10
warmup = 1
[experiment mx]
workload = null, hello-world
threads = 1, 2, 3
[experiment other]
workload = null
repeats = 2
INI
# the reference: "INDEX KEY" per line of --dry-run, numbered from 0
$CVMBENCH run "$tmp/m.ini" --dry-run 2>/dev/null | grep -oE "^$KEY" | awk '{ print NR - 1, $0 }' > "$tmp/ref"
pairs() { q "$1" "SELECT coalesce(matrix_index, 'NULL') || ' ' || cell_key FROM cell ORDER BY matrix_index, cell_key"; }
show_order() {
	$CVMBENCH show --db "$1" 2>/dev/null | awk '/^cells:/ { f = 1; next } /^  columns:/ { f = 0 } f' |
		grep -oE "^  $KEY" | sed 's/^  //' | tr '\n' ' '
}
report_order() {
	$CVMBENCH report "$tmp/rep-$2" --db "$1" >/dev/null 2>&1
	awk '/^## / { f = ($0 == "## Cells") } f' "$tmp/rep-$2/index.md" | grep -oE "^\| $KEY" | sed 's/^| //' | tr '\n' ' '
}
want_order=$(awk '{ printf "%s ", $2 }' "$tmp/ref")

is "$(wc -l < "$tmp/ref")" 8 "dry-run lists the 8 cells"

$CVMBENCH run "$tmp/m.ini" --db "$tmp/full.db" >/dev/null 2>"$tmp/err"
is "$? $(pairs "$tmp/full.db" | tr '\n' ,)" "0 $(tr '\n' , < "$tmp/ref")" \
	"a run stores each cell's line of --dry-run as matrix_index" || sed 's/^/# /' "$tmp/err"

bad=""
for i in 1 2; do
	$CVMBENCH run "$tmp/m.ini" --db "$tmp/s$i.db" --shard $i/2 >/dev/null 2>>"$tmp/err" || bad="$bad exit$i"
	[ "$(pairs "$tmp/s$i.db")" = "$(awk -v i=$i '$1 % 2 == i - 1' "$tmp/ref")" ] || bad="$bad shard$i"
done
is "$bad" "" "shards 1/2 and 2/2: each cell keeps its index in the whole matrix"

$CVMBENCH merge --out "$tmp/merged.db" "$tmp/s1.db" "$tmp/s2.db" >/dev/null 2>>"$tmp/err"
is "$? $(pairs "$tmp/merged.db" | tr '\n' ,)" "0 $(tr '\n' , < "$tmp/ref")" \
	"merge of the two shards holds every index of the unsharded run"
ok "$(q "$tmp/merged.db" "SELECT group_concat(cell_key, ' ') FROM (SELECT cell_key FROM cell ORDER BY id)") " != \
	"$want_order" "the merged cells' ids are shard after shard, not the matrix order"

cp "$tmp/merged.db" "$tmp/noconf.db"
q "$tmp/noconf.db" "UPDATE run SET config_text = NULL"
is "$(show_order "$tmp/noconf.db")" "$want_order" \
	"show orders the merged cells by the stored index alone (no config text to expand)"

# an older database: the merged one with the column dropped and user_version 8
# (and without the tables of every migration after 9, read from their files)
drop_newer=$(cat results-schema/01[0-9]-*.sql results-schema/0[2-9][0-9]-*.sql 2>/dev/null |
	sed -n 's/^CREATE TABLE \([a-z_0-9]*\).*/DROP TABLE \1;/p' | tr '\n' ' ')
cp "$tmp/merged.db" "$tmp/old.db"
q "$tmp/old.db" "ALTER TABLE cell DROP COLUMN matrix_index; $drop_newer PRAGMA user_version = 8"
is "$(q "$tmp/old.db" "SELECT count(*) FROM pragma_table_info('cell') WHERE name = 'matrix_index'") $(q "$tmp/old.db" 'PRAGMA user_version')" \
	"0 8" "(the older database has no matrix_index, schema 8)"
is "$(show_order "$tmp/old.db")|$(report_order "$tmp/old.db" old)" "$want_order|$want_order" \
	"an older database: show and report list its cells in the dry-run order (config expanded again)"

$CVMBENCH merge --out "$tmp/m-old.db" "$tmp/old.db" >/dev/null 2>>"$tmp/err"
is "$? $(q "$tmp/m-old.db" "SELECT count(*) FROM cell WHERE matrix_index IS NULL") $(show_order "$tmp/m-old.db")" \
	"0 8 $want_order" "merge of the older database: its cells copied with NULL, show still in order"

# --only into an older database of the unsharded run: migrated, the cells it
# measures again (newer rows, last by id) stored with their index
cp "$tmp/full.db" "$tmp/old-full.db"
q "$tmp/old-full.db" "ALTER TABLE cell DROP COLUMN matrix_index; $drop_newer PRAGMA user_version = 8"
k0=$(awk 'NR == 1 { print $2 }' "$tmp/ref")
k5=$(awk 'NR == 6 { print $2 }' "$tmp/ref")
$CVMBENCH run "$tmp/m.ini" --db "$tmp/old-full.db" --only "$k5" --only "$k0" >/dev/null 2>>"$tmp/err"
is "$? $(q "$tmp/old-full.db" 'PRAGMA user_version') $(q "$tmp/old-full.db" "SELECT group_concat(matrix_index || ' ' || cell_key, ',') FROM (SELECT * FROM cell WHERE matrix_index IS NOT NULL ORDER BY matrix_index)")" \
	"0 $(ls results-schema/*.sql | wc -l) 0 $k0,5 $k5" "run --only into an older database migrates it (to the newest schema) and stores the index of the cells it measures"
is "$(q "$tmp/old-full.db" "SELECT count(DISTINCT run_id) || ' ' || count(*) FROM cell")|$(show_order "$tmp/old-full.db")" \
	"1 10|$want_order" "show of that run (old rows NULL, the new ones indexed) still lists the dry-run order"
