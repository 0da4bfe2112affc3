#!/bin/bash
# tests/system/shard.t - `cvmbench run --shard I/N` (issue 17), checked with
# sqlite3: for N = 1, 2, 3 each shard's database is complete on its own
# (its run complete, its cells those of index I-1 modulo N, the shard named
# in the run's environment), the shards are disjoint, and `merge` of the N
# shard databases holds the same set of cells (key, status, measured calls)
# as one unsharded run; --dry-run --shard lists the shard's cells; a shard
# spec out of range or malformed is refused naming the value (exit 2, no
# database made); --resume of a shard continues that shard's run only.
# Native cells change no host setting: a private host lock.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=21
plan $N
command -v sqlite3 >/dev/null || skip_all $N "no sqlite3"
[ -x "$CVMBENCH" ] || skip_all $N "no $CVMBENCH (make)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock
q() { sqlite3 -batch -noheader "$1" "$2"; }
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
	is "$? $(q "$tmp/m$n.db" "SELECT count(*) FROM run")" "0 $n" "merge of the $n shard databases: $n runs" ||
		sed 's/^/# /' "$tmp/err"
	is "$(q "$tmp/m$n.db" "$cellset")" "$(q "$tmp/ref.db" "$cellset")" \
		"merge of $n shards: the unsharded run's set of cells (key, status, measured calls)"
	is "$(q "$tmp/m$n.db" "PRAGMA foreign_key_check" | wc -l)" 0 "merge of $n shards: no dangling key"
done

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
