#!/bin/bash
# tests/system/shard.t - `cvmbench run --shard I/N` (issue 17), checked with
# sqlite3: for N = 1, 2, 3 each shard's database is complete on its own
# (its run complete, its cells those of index I-1 modulo N, the shard named
# in the run's environment), the shards are disjoint, and `merge` of the N
# shard databases holds the same set of cells (key, status, measured calls)
# as one unsharded run; --dry-run --shard lists the shard's cells; a shard
# spec out of range or malformed is refused naming the value (exit 2, no
# database made); --resume of a shard continues that shard's run only; a
# shard with a guest image the others lack still folds, differing images
# stay apart, the fact named; the study ends with its last shard;
# merge.shard.I.cell_ids past 4 KB keeps the ranges added later; show
# lists the merged shards' cells in the unsharded run's order;
# --shard I/2 --balance DB (the split by the cells' cost in an earlier
# run): disjoint, together the matrix, merged the unsharded run's cells,
# 22 s and 22 s by crafted costs where modulo gives 40 s and 4 s; refused
# without --shard or without a run of the config (exit 2).
# Native cells change no host setting: a private host lock.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=40
plan $N
command -v sqlite3 >/dev/null || skip_all $N "no sqlite3"
[ -x "$CVMBENCH" ] || skip_all $N "no $CVMBENCH (make)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock
q() { sqlite3 -batch -noheader "$1" "$2"; }
show_cells() { awk '/^cells:/ { f = 1; next } /^  columns:/ { f = 0 } f && /^  (shard|other)-/' "$1" | wc -l; }
report_cells() { awk '/^## / { f = ($0 == "## Cells") } f && /^\| (shard|other)-/' "$1" | wc -l; }
cat > "$tmp/s.ini" <<'INI'
[defaults]
size = test
probes = latency
invocations = 20
warmup = 1
[experiment shard]
workload = null, hello-world
threads = 1, 2, 3
[experiment other]
workload = null
repeats = 2
INI
CELLS=8
cellset="SELECT group_concat(x, ' ') FROM (SELECT c.cell_key || ':' || c.status || ':' ||
	(SELECT count(*) FROM invocation i WHERE i.cell_id = c.id AND i.phase = 'measured') AS x
	FROM cell c ORDER BY 1)"

$CVMBENCH run "$tmp/s.ini" --db "$tmp/ref.db" 2>"$tmp/err"
is "$? $(q "$tmp/ref.db" "SELECT cells_ok FROM run")" "0 $CELLS" "the unsharded run: $CELLS cells ok" ||
	sed 's/^/# /' "$tmp/err"
$CVMBENCH run "$tmp/s.ini" --dry-run 2>/dev/null | grep -oE '^(shard|other)-[0-9a-f]{8}' > "$tmp/all.keys"

for n in 1 2 3; do
	dbs=()
	sizes=""
	bad=""
	for ((i = 1; i <= n; i++)); do
		db=$tmp/s$n-$i.db
		dbs+=("$db")
		$CVMBENCH run "$tmp/s.ini" --db "$db" --shard $i/$n 2>>"$tmp/err" || bad="$bad $i/$n:exit$?"
		want=$(awk -v i=$i -v n=$n '(NR - 1) % n == i - 1' "$tmp/all.keys" | sort | tr '\n' ' ')
		got=$(q "$db" "SELECT cell_key FROM cell ORDER BY cell_key" | tr '\n' ' ')
		[ "$got" = "$want" ] || bad="$bad $i/$n:cells"
		[ "$(q "$db" "SELECT status || ' ' || cells_total || ' ' || cells_ok FROM run")" = \
		  "complete $(echo $want | wc -w) $(echo $want | wc -w)" ] || bad="$bad $i/$n:run"
		[ "$(q "$db" "SELECT value FROM environment WHERE key = 'run.shard'")" = "$i/$n" ] ||
			bad="$bad $i/$n:env"
		dry=$($CVMBENCH run "$tmp/s.ini" --dry-run --shard $i/$n 2>/dev/null | grep -oE '^(shard|other)-[0-9a-f]{8}' | sort | tr '\n' ' ')
		[ "$dry" = "$want" ] || bad="$bad $i/$n:dry-run"
		sizes="$sizes$(echo $want | wc -w) "
	done
	is "$bad" "" "shards of $n: each database complete on its own with the cells I-1 mod $n (sizes $sizes)"
	is "$(for d in "${dbs[@]}"; do q "$d" "SELECT cell_key FROM cell"; done | sort | uniq -d | wc -l)" 0 \
		"shards of $n are disjoint"
	$CVMBENCH merge --out "$tmp/m$n.db" "${dbs[@]}" >/dev/null 2>"$tmp/err"
	is "$? $(q "$tmp/m$n.db" "SELECT count(*) || ' ' || status || ' ' || cells_total || ' ' || cells_ok ||
		' ' || (SELECT value FROM environment WHERE key = 'run.shard') FROM run")" "0 1 complete $CELLS $CELLS $(seq -s, 1 $n)/$n" \
		"merge of the $n shard databases: one run of the study, complete over the whole matrix" ||
		sed 's/^/# /' "$tmp/err"
	is "$(q "$tmp/m$n.db" "$cellset")" "$(q "$tmp/ref.db" "$cellset")" \
		"merge of $n shards: the unsharded run's set of cells (key, status, measured calls)"
	is "$(q "$tmp/m$n.db" "PRAGMA foreign_key_check" | wc -l)" 0 "merge of $n shards: no dangling key"
	# the readers, which draw the latest run, draw every shard's cells
	$CVMBENCH plot warm-latency --db "$tmp/m$n.db" --out "$tmp/m$n.svg" 2>/dev/null
	$CVMBENCH show --db "$tmp/m$n.db" > "$tmp/m$n.txt" 2>/dev/null
	$CVMBENCH report "$tmp/rep$n" --db "$tmp/m$n.db" >/dev/null 2>&1
	is "$(grep -oE '>(null|hello-world)/[^<]*<' "$tmp/m$n.svg" | sort -u | wc -l) $(show_cells "$tmp/m$n.txt") $(report_cells "$tmp/rep$n/index.md")" \
		"$CELLS $CELLS $CELLS" "merge of $n shards: plot, show and report draw all $CELLS cells"
done

# the merged study's cells listed in the matrix order, not shard after shard
order() { $CVMBENCH show --db "$1" --json 2>/dev/null | python3 -c 'import json,sys; print(" ".join(c["cell_key"] for c in json.load(sys.stdin)["run"]["cells"]))'; }
is "$(order "$tmp/m3.db")" "$(order "$tmp/ref.db")" "show of the merged 3 shards lists the cells in the unsharded run's order"

# --balance: shards split by the cells' wall time in an earlier run of the
# config (ref.db); each shard runs what its --dry-run lists, the shards are
# disjoint, together the matrix, and merged the unsharded run's cells
keys() { grep -oE '^(shard|other)-[0-9a-f]{8}' | sort | tr '\n' ' '; }
bad=""
for i in 1 2; do
	$CVMBENCH run "$tmp/s.ini" --db "$tmp/b$i.db" --shard $i/2 --balance "$tmp/ref.db" 2>>"$tmp/berr" ||
		bad="$bad $i/2:exit$?"
	dry=$($CVMBENCH run "$tmp/s.ini" --dry-run --shard $i/2 --balance "$tmp/ref.db" 2>/dev/null | keys)
	[ "$dry" = "$(q "$tmp/b$i.db" "SELECT cell_key FROM cell" | keys)" ] && [ -n "$dry" ] ||
		bad="$bad $i/2:dry-run"
done
is "$bad" "" "--shard I/2 --balance: each shard measures the cells its --dry-run lists" ||
	sed 's/^/# /' "$tmp/berr"
# (a key in both shards would be listed twice)
is "$( (q "$tmp/b1.db" "SELECT cell_key FROM cell"; q "$tmp/b2.db" "SELECT cell_key FROM cell") | keys)" \
	"$(keys < "$tmp/all.keys")" "--balance: the shards are disjoint and together the matrix"
$CVMBENCH merge --out "$tmp/mb.db" "$tmp/b1.db" "$tmp/b2.db" >/dev/null 2>"$tmp/err"
is "$? $(q "$tmp/mb.db" "$cellset")" "0 $(q "$tmp/ref.db" "$cellset")" \
	"--balance: merged, the unsharded run's set of cells" || sed 's/^/# /' "$tmp/err"
# costs crafted where modulo is bad: 10 s for the cells of even index, 1 s
# for the others (modulo: 40 s and 4 s); balanced, each shard gets 22 s
cp "$tmp/ref.db" "$tmp/cost.db"
q "$tmp/cost.db" "UPDATE cell SET started_at = '2026-01-01T00:00:00.000000Z', ended_at = CASE cell_key
	$(awk '{ printf "WHEN '\''%s'\'' THEN '\''2026-01-01T00:00:%02d.000000Z'\'' ", $1, NR % 2 ? 10 : 1 }' "$tmp/all.keys") END"
load() { $CVMBENCH run "$tmp/s.ini" --dry-run --shard $1/2 --balance "$tmp/cost.db" 2>/dev/null | keys |
	tr ' ' '\n' | awk 'NR == FNR { c[$1] = NR % 2 ? 10 : 1; next } $1 != "" { s += c[$1] } END { print s + 0 }' "$tmp/all.keys" -; }
mod() { awk -v i=$1 '(NR - 1) % 2 == i - 1 { s += NR % 2 ? 10 : 1 } END { print s }' "$tmp/all.keys"; }
is "$(load 1) $(load 2) (modulo $(mod 1) $(mod 2))" "22 22 (modulo 40 4)" \
	"--balance by crafted costs 10,1,10,1,...: shards of 22 s each where modulo gives 40 s and 4 s"
# refused: --balance without --shard; a database without a run of this config
sed 's/invocations = 20/invocations = 21/' "$tmp/s.ini" > "$tmp/o.ini"
$CVMBENCH run "$tmp/s.ini" --dry-run --balance "$tmp/ref.db" >/dev/null 2>"$tmp/err"
rc=$?
grep -q -- "--balance .* needs --shard" "$tmp/err" || rc="$rc(message)"
$CVMBENCH run "$tmp/o.ini" --dry-run --shard 1/2 --balance "$tmp/ref.db" >/dev/null 2>"$tmp/err"
rc="$rc $?"
grep -qF -- "--balance $tmp/ref.db: no run of $tmp/o.ini (the same config)" "$tmp/err" || rc="$rc(message)"
is "$rc" "2 2" "--balance without --shard, or with no run of the config in the database: exit 2, named"

# the provenance of each cell: the shard, its host, its source; re-merging adds nothing
is "$(q "$tmp/m3.db" "SELECT group_concat(key || '=' || value, ' ') FROM environment WHERE key GLOB 'merge.shard.2.*'
	AND key NOT GLOB '*.started_at' AND key NOT GLOB '*.cell_ids'")" \
	"merge.shard.2.source_file=$tmp/s3-2.db merge.shard.2.source_run=1 merge.shard.2.host=$(q "$tmp/s3-2.db" "SELECT hostname FROM run") merge.shard.2.status=complete merge.shard.2.cells=$(q "$tmp/s3-2.db" "SELECT cells_total || ' ' || cells_ok || ' 0 0' FROM run")" \
	"each shard's host, source, status and counts are facts of the study's run"
ids=$(q "$tmp/m3.db" "SELECT value FROM environment WHERE key = 'merge.shard.2.cell_ids'")
is "$(q "$tmp/m3.db" "SELECT group_concat(cell_key, ' ') FROM (SELECT cell_key FROM cell WHERE id BETWEEN ${ids%-*} AND ${ids#*-} ORDER BY 1)")" \
	"$(q "$tmp/s3-2.db" "SELECT group_concat(cell_key, ' ') FROM (SELECT cell_key FROM cell ORDER BY 1)")" \
	"merge.shard.2.cell_ids ($ids) are the cells of shard 2"
before=$(q "$tmp/m3.db" "SELECT count(*) FROM cell")/$(q "$tmp/m3.db" "SELECT count(*) FROM invocation")
$CVMBENCH merge --out "$tmp/m3.db" "$tmp/s3-2.db" "$tmp/s3-1.db" >/dev/null 2>&1
is "$? $(q "$tmp/m3.db" "SELECT count(*) FROM cell")/$(q "$tmp/m3.db" "SELECT count(*) FROM invocation")" "0 $before" \
	"merging the shards again adds nothing"

# a missing shard: named, the study partial; a duplicate shard and a shard
# of another machine stay runs of their own, named
$CVMBENCH merge --out "$tmp/miss.db" "$tmp/s3-1.db" "$tmp/s3-3.db" >/dev/null 2>"$tmp/err"
rc=$?
grep -q "holds shards 1,3 of 3; missing: 2/3" "$tmp/err"
is "$rc $? $(q "$tmp/miss.db" "SELECT count(*) || ' ' || status || ' ' || cells_ok FROM run")" \
	"0 0 1 partial $(( $(q "$tmp/s3-1.db" "SELECT cells_ok FROM run") + $(q "$tmp/s3-3.db" "SELECT cells_ok FROM run") ))" \
	"shard 2/3 missing: named, the study's run partial" || sed 's/^/# /' "$tmp/err"
$CVMBENCH run "$tmp/s.ini" --db "$tmp/dup.db" --shard 1/3 2>/dev/null
cp "$tmp/m3.db" "$tmp/m3dup.db"
$CVMBENCH merge --out "$tmp/m3dup.db" "$tmp/dup.db" >/dev/null 2>"$tmp/err"
rc=$?
grep -q "already holds another run of shard 1/3 (duplicate shard)" "$tmp/err"
is "$rc $? $(q "$tmp/m3dup.db" "SELECT group_concat(status || ':' || cells_total, ' ') FROM run")" \
	"0 0 complete:$CELLS complete:$(q "$tmp/dup.db" "SELECT cells_total FROM run")" \
	"a second run of shard 1/3: named a duplicate, kept as a run of its own" || sed 's/^/# /' "$tmp/err"
cp "$tmp/s3-2.db" "$tmp/other-host.db"
q "$tmp/other-host.db" "UPDATE environment SET value = 'Another CPU' WHERE key = 'cpu.brand'"
$CVMBENCH merge --out "$tmp/mo.db" "$tmp/s3-1.db" "$tmp/other-host.db" >/dev/null 2>"$tmp/err"
rc=$?
grep -q "a fact differs: cpu.brand '.*' vs 'Another CPU'" "$tmp/err"
is "$rc $? $(q "$tmp/mo.db" "SELECT count(*) FROM run")" "0 0 2" \
	"a shard measured on a differing machine: kept apart, the differing fact named" || sed 's/^/# /' "$tmp/err"

# per-run facts: a shard whose cells booted a guest image (guest.image.*), or
# that mounted tracefs, still folds; its image is a fact of the study's run;
# shards that booted differing images of one name stay apart, the fact named
cp "$tmp/s3-2.db" "$tmp/img2.db"
q "$tmp/img2.db" "INSERT INTO environment (run_id, key, value, source) VALUES
	(1, 'guest.image.def', 'sha256:1', 'test'), (1, 'tracefs.mounted_by_run', 'yes', 'test')"
$CVMBENCH merge --out "$tmp/mi.db" "$tmp/s3-1.db" "$tmp/img2.db" "$tmp/s3-3.db" >/dev/null 2>"$tmp/err"
is "$? $(q "$tmp/mi.db" "SELECT count(*) || ' ' || status || ' ' || cells_ok FROM run") $(q "$tmp/mi.db" \
	"SELECT value FROM environment WHERE key = 'guest.image.def'")" "0 1 complete $CELLS sha256:1" \
	"a shard with a guest image the others lack folds into the study; the image is the study's fact" ||
	sed 's/^/# /' "$tmp/err"
cp "$tmp/s3-3.db" "$tmp/img3.db"
q "$tmp/img3.db" "INSERT INTO environment (run_id, key, value, source) VALUES (1, 'guest.image.def', 'sha256:2', 'test')"
$CVMBENCH merge --out "$tmp/mi2.db" "$tmp/s3-1.db" "$tmp/img2.db" "$tmp/img3.db" >/dev/null 2>"$tmp/err"
rc=$?
grep -q "shard 3/3 does not join run 1: a fact differs: guest.image.def 'sha256:1' vs 'sha256:2'" "$tmp/err"
is "$rc $? $(q "$tmp/mi2.db" "SELECT count(*) FROM run")" "0 0 2" \
	"shards that booted differing guest images: kept apart, the fact named" || sed 's/^/# /' "$tmp/err"

# the study ends when its last shard ends
is "$(q "$tmp/m3.db" "SELECT ended_at FROM run")" \
	"$(for i in 1 2 3; do q "$tmp/s3-$i.db" "SELECT ended_at FROM run"; done | sort | tail -1)" \
	"the study's ended_at is its last shard's"
# merge.shard.I.cell_ids past 4 KB: a range added later is kept
cp "$tmp/m3.db" "$tmp/big.db"
long=$(seq -s, 100001 2 103000 | sed 's/,/-/g; s/\([0-9]*-[0-9]*\)-/\1,/g')
q "$tmp/big.db" "PRAGMA foreign_keys = ON; DELETE FROM cell WHERE id BETWEEN ${ids%-*} AND ${ids#*-};
	UPDATE environment SET value = '$long' WHERE key = 'merge.shard.2.cell_ids'"
$CVMBENCH merge --out "$tmp/big.db" "$tmp/s3-2.db" >/dev/null 2>"$tmp/err"
got=$(q "$tmp/big.db" "SELECT value FROM environment WHERE key = 'merge.shard.2.cell_ids'")
new=$(q "$tmp/big.db" "SELECT min(id) || '-' || max(id) FROM cell WHERE cell_key IN ($(q "$tmp/s3-2.db" "SELECT group_concat(quote(cell_key)) FROM cell"))")
is "${#long} $got" "${#long} $long,$new" "merge.shard.2.cell_ids longer than 4 KB (${#long} chars): the range added later ($new) is kept"

# out of range or malformed: exit 2, the value named, no database made
bad=""
for spec in 0/3 4/3 3/0 1/ /2 2 a/b 1/2x -1/2 "1/2 " 1/100001; do
	$CVMBENCH run "$tmp/s.ini" --db "$tmp/bad.db" --shard "$spec" 2>"$tmp/err"
	rc=$?
	grep -qF -- "--shard '$spec'" "$tmp/err" || rc="$rc(message: $(head -c 100 "$tmp/err"))"
	[ -e "$tmp/bad.db" ] && rc="$rc(database made)"
	[ "$rc" = 2 ] || bad="$bad [$spec]:$rc"
done
is "$bad" "" "--shard out of range or malformed: exit 2 naming the value, no database"

# --resume of a shard continues that shard's run, not another shard's
db=$tmp/both.db
$CVMBENCH run "$tmp/s.ini" --db "$db" --shard 1/2 2>/dev/null
$CVMBENCH run "$tmp/s.ini" --db "$db" --shard 2/2 2>/dev/null
q "$db" "UPDATE cell SET status = 'interrupted' WHERE id = (SELECT min(id) FROM cell WHERE run_id = 1);
	UPDATE run SET status = 'interrupted' WHERE id = 1"
$CVMBENCH run "$tmp/s.ini" --db "$db" --shard 1/2 --resume 2>"$tmp/err"
is "$? $(q "$db" "SELECT group_concat(id || ':' || status || ':' || cells_total, ' ') FROM run")" "0 1:complete:4 2:complete:4" \
	"--resume --shard 1/2 continues run 1 (shard 1/2), not the latest run" || sed 's/^/# /' "$tmp/err"
is "$(q "$db" "SELECT count(*) FROM cell WHERE run_id = 1") $(q "$db" "SELECT count(*) FROM cell WHERE run_id = 2")" "5 4" \
	"only its interrupted cell was run again"
$CVMBENCH run "$tmp/s.ini" --db "$db" --shard 1/3 --resume 2>"$tmp/err"
is "$? $(q "$db" "SELECT count(*) FROM run")" "0 3" "--resume of a shard the database has no run of: a new run"
key=$(q "$db" "SELECT cell_key FROM cell WHERE run_id = 2 LIMIT 1")
$CVMBENCH run "$tmp/s.ini" --db "$db" --shard 1/2 --only "$key" 2>"$tmp/err"
rc=$?
grep -q "cell $key is not in shard 1/2" "$tmp/err"
is "$rc $?" "2 0" "--only a cell of another shard: exit 2, named"
