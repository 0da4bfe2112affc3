#!/bin/bash
# tests/system/merge.t - `cvmbench merge --out M A B` (or -o M): on databases written
# by tests/system/compare-db.py (Python's sqlite3), checked with the sqlite3
# command-line tool, not with cvmbench: every table of M holds the sum of
# the inputs' rows; joined rows (invocation -> cell -> run, per-invocation
# metrics -> their invocation's cell, skips and errors -> their cell's run,
# container start phases and locks -> their start's cell's run)
# equal the union of the inputs'; no foreign key dangles; merging again, or
# a merged database into another, adds nothing, also after the run gained
# facts (a guest image, a tracefs it mounted), which are added to its run; an older schema is migrated,
# a newer one, another program's file, a corrupt file and the output given
# as an input are refused with exit 2, naming the file; inputs are never
# changed; an input with a table or column this cvmbench does not know (names
# made to inject SQL: tests/system/hostile-db.py) is refused, named, runs
# nothing and leaves the output as it was (and a new output is not left
# behind); an output named file:... is that file; compare on the merged database
# gives what it gives on the inputs.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=28
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mk() { $py tests/system/compare-db.py "$@"; }
sq() { sqlite3 -batch -noheader "$@"; }
TABLES="run environment cell cell_param instance invocation metric skip error runc_start runc_phase runc_lock"
counts() { local t; for t in $TABLES; do printf '%s=%s ' $t "$(sq "$1" "SELECT count(*) FROM $t")"; done; }
sum_counts() {
	local t a b
	for t in $TABLES; do
		a=$(sq "$1" "SELECT count(*) FROM $t"); b=$(sq "$2" "SELECT count(*) FROM $t")
		[ $t = environment ] && b=$((b + 3)) && a=$((a + 3))   # merge.* origin facts
		printf '%s=%s ' $t $((a + b))
	done
}
# rows joined up to their run, as text, sorted: what must survive a merge
JOINED="SELECT r.started_at, r.hostname, c.cell_key, c.workload, i.seq, i.latency_ns,
	(SELECT group_concat(m.name || '=' || m.value) FROM metric AS m WHERE m.invocation_id = i.id
	 AND m.cell_id = c.id)
	FROM invocation AS i JOIN cell AS c ON c.id = i.cell_id JOIN run AS r ON r.id = c.run_id
	UNION ALL SELECT r.started_at, 'skip', c.cell_key, s.probe, s.reason, NULL, NULL FROM skip AS s
	JOIN cell AS c ON c.id = s.cell_id JOIN run AS r ON r.id = s.run_id AND r.id = c.run_id
	UNION ALL SELECT r.started_at, 'error', c.cell_key, e.source, e.message, NULL, NULL FROM error AS e
	JOIN cell AS c ON c.id = e.cell_id JOIN run AS r ON r.id = e.run_id AND r.id = c.run_id
	UNION ALL SELECT r.started_at, 'runc', c.cell_key, p.phase, p.duration_ns, s.total_ns,
	(SELECT group_concat(l.lock || l.blocked_ns) FROM runc_lock AS l WHERE l.start_id = s.id)
	FROM runc_phase AS p JOIN runc_start AS s ON s.id = p.start_id JOIN cell AS c ON c.id = s.cell_id
	JOIN run AS r ON r.id = c.run_id
	UNION ALL SELECT r.started_at, 'env', e.key, e.value, NULL, NULL, NULL FROM environment AS e
	JOIN run AS r ON r.id = e.run_id WHERE e.key NOT LIKE 'merge.%'
	ORDER BY 1, 2, 3, 4, 5"

plan $N
if [ ! -x "$CVMBENCH" ] || [ ! -x $py ] || ! command -v sqlite3 > /dev/null; then
	if [ -n "${CI:-}" ]; then
		for ((i = 0; i < N; i++)); do _tap 1 "$CVMBENCH, $py and sqlite3 are needed (CI)"; done
		exit 0
	fi
	skip_rest $N "$CVMBENCH (make), $py and sqlite3 are needed"
	exit 0
fi

mk $tmp/a.db --mem 100 --exits hlt=5 --repeats 2
$py tests/system/craft-db.py $tmp/a.db runc rt   # container starts, their phases and locks
mk $tmp/b.db --cvm sev-snp --scale 1.25 --started 2026-12-01T09:00:00.123456Z --hostname cvm
cp $tmp/b.db $tmp/b2.db
sha=$(cat $tmp/a.db $tmp/b.db | sha256sum)
"$CVMBENCH" merge --out $tmp/m.db $tmp/a.db $tmp/b.db > $tmp/out
is "$?" 0 "merge of two databases exits 0"
is "$(counts $tmp/m.db)" "$(sum_counts $tmp/a.db $tmp/b.db)" \
   "every table holds the inputs' rows (and three origin facts per run)"
# sorted by sort(1) on both sides: SQLite's collation and sort(1)'s differ
is "$(sq $tmp/m.db "$JOINED" | sort | md5sum)" "$( (sq $tmp/a.db "$JOINED"; sq $tmp/b.db "$JOINED") | sort | md5sum)" \
   "joined rows (invocation, metric, skip, error, environment up to their run) are the union"
is "$(sq $tmp/m.db 'PRAGMA foreign_key_check' | wc -l)" 0 "no foreign key dangles"
is "$(sq $tmp/m.db "SELECT count(*) FROM metric AS m JOIN invocation AS i ON i.id = m.invocation_id WHERE i.cell_id != m.cell_id")" \
   0 "per-invocation metrics point at an invocation of their own cell"
is "$(sq $tmp/m.db "SELECT group_concat(value, ' ') FROM (SELECT value FROM environment WHERE key LIKE 'merge.source_%' ORDER BY run_id, key)")" \
   "$tmp/a.db vm 1 $tmp/b.db cvm 1" "each run's origin: file, host, run id"
is "$(cat $tmp/a.db $tmp/b.db | sha256sum)" "$sha" "the inputs are unchanged"

before=$(counts $tmp/m.db)
"$CVMBENCH" merge --out $tmp/m.db $tmp/a.db $tmp/b.db $tmp/b2.db > $tmp/out2
is "$? $(counts $tmp/m.db)" "0 $before" "merging again (and an identical copy of a run) adds nothing"
"$CVMBENCH" merge --out $tmp/m2.db $tmp/m.db > /dev/null && "$CVMBENCH" merge --out $tmp/m2.db $tmp/a.db > /dev/null
is "$(counts $tmp/m2.db)" "$before" "a merged database merges whole; its runs are not added twice"

# a run resumed since it was merged gains facts (a guest image its new cells
# booted, a tracefs it mounted): still the same run, its cells not added twice
cp $tmp/a.db $tmp/ag.db && cp $tmp/m.db $tmp/mg.db
sq $tmp/ag.db "INSERT INTO environment (run_id, key, value, source) VALUES
	(1, 'guest.image.def', 'sha256:1', 'test'), (1, 'tracefs.mounted_by_run', 'yes', 'test')"
"$CVMBENCH" merge --out $tmp/mg.db $tmp/ag.db > /dev/null
is "$? $(sq $tmp/mg.db "SELECT count(*) FROM run") $(sq $tmp/mg.db "SELECT count(*) FROM cell")" \
   "0 $(sq $tmp/m.db "SELECT count(*) FROM run") $(sq $tmp/m.db "SELECT count(*) FROM cell")" \
   "a run merged again after it gained facts: the same run, no cell twice"
is "$(sq $tmp/mg.db "SELECT group_concat(value, ' ') FROM (SELECT value FROM environment AS e JOIN run AS r
	ON r.id = e.run_id WHERE r.hostname = 'vm' AND key IN ('guest.image.def', 'tracefs.mounted_by_run') ORDER BY key)")" \
   "sha256:1 yes" "the facts it gained are added to its run"

mk $tmp/old.db --upto 2 --started 2026-01-01T00:00:00.000000Z
"$CVMBENCH" merge --out $tmp/m.db $tmp/old.db > /dev/null
is "$? $(sq $tmp/m.db 'SELECT count(*) FROM run') $(sq $tmp/old.db 'PRAGMA user_version')" "0 3 2" \
   "an older schema (2) is migrated in memory and merged; the file stays at 2"

cp $tmp/a.db $tmp/new.db && sq $tmp/new.db 'PRAGMA user_version = 999'
before=$(sha256sum < $tmp/m.db)
"$CVMBENCH" merge --out $tmp/m.db $tmp/new.db > /dev/null 2> $tmp/err
is "$? $(grep -c 'new.db was written by a newer cvmbench' $tmp/err) $(sha256sum < $tmp/m.db)" "2 1 $before" \
   "a newer schema is refused (exit 2, named) and the output is untouched"
sq $tmp/other.db 'CREATE TABLE t (x)'
"$CVMBENCH" merge --out $tmp/m.db $tmp/other.db > /dev/null 2> $tmp/err
is "$? $(grep -c other.db $tmp/err)" "2 1" "another program's SQLite file: exit 2, named"
head -c 8192 /dev/urandom > $tmp/corrupt.db
"$CVMBENCH" merge --out $tmp/m3.db $tmp/corrupt.db > /dev/null 2> $tmp/err
is "$? $(grep -c corrupt.db $tmp/err) $([ -e $tmp/m3.db ] && echo made)" "2 1 " \
   "a corrupt file: exit 2, named, and no output made"
"$CVMBENCH" merge --out $tmp/a.db $tmp/a.db $tmp/b.db > /dev/null 2> $tmp/err
is "$? $(grep -c 'is the output too' $tmp/err)" "2 1" "the output given as an input is refused"

# another machine's database with names made to run SQL if pasted into merge's
# statements (tests/system/hostile-db.py): refused, named, nothing of it run
cvm=$(readlink -f "$CVMBENCH")
mk $tmp/hb.db --started 2026-06-01T00:00:00.000000Z --hostname elsewhere   # a new run
before="$(counts $tmp/m.db) $(sha256sum < $tmp/m.db)"
hostile() { # MODE TABLE [PATH]: exit status, errors naming file and TABLE, PATH made, output
	cp $tmp/hb.db $tmp/h-$1.db && $py tests/system/hostile-db.py $tmp/h-$1.db $1 ${3:-} &&
	(cd $tmp && "$cvm" merge --out m.db h-$1.db > /dev/null 2> err-$1)
	echo "$? $(grep -c "h-$1.db: refused: its table \"$2" $tmp/err-$1)" \
	     "$([ -n "${3:-}" ] && (cd $tmp && [ -e "$3" ]) && echo made) $(sq $tmp/m.db 'PRAGMA integrity_check')" \
	     "$(counts $tmp/m.db) $(sha256sum < $tmp/m.db)"
}
is "$(hostile table run p)" "2 1  ok $before" \
   "a table named run\"SELECT..;COMMIT;ATTACH p..: refused (exit 2, named), no file p made, output unchanged"
is "$(hostile column skip $tmp/pwn)" "2 1  ok $before" \
   "a column named reason\")..;ATTACH '$tmp/pwn'..;' in skip: refused (exit 2, named), no file made, output unchanged"
is "$(hostile quote "it's")" "2 1  ok $before" "a table named it's: refused (exit 2, named), output unchanged"
is "$(hostile extra metric)$(grep -c 'column "note"' $tmp/err-extra)" "2 1  ok ${before}1" \
   "a column cvmbench does not know (metric.note): refused, table and column named"
"$CVMBENCH" merge --out $tmp/m5.db $tmp/h-quote.db $tmp/a.db > /dev/null 2>&1
is "$? $(ls $tmp | grep -c '^m5\.db')" "2 0" "a refused first input into a new output: exit 2, no output left behind"
(cd $tmp && "$cvm" merge --out file:u.db a.db > /dev/null 2>&1)
is "$? $(sq $tmp/./file:u.db 'SELECT count(*) FROM run') $(ls $tmp | grep -c '^u\.db')" "0 1 0" \
   "an output named file:u.db is that file, not SQLite's URI for u.db"

# ids are remapped whatever they are: b's run renumbered to 0 and its cells to
# -1, -2, ... (what a crafted or foreign database may hold) merge beside a's run 1
zero() {
	cp $tmp/b.db "$1"
	sq "$1" "PRAGMA foreign_keys = OFF; UPDATE run SET id = $2;
		UPDATE cell SET id = -id; UPDATE cell SET run_id = $2;
		$(for t in $TABLES; do
			[ $t = run ] || [ $t = cell ] || ! sq "$1" "SELECT 1 FROM pragma_table_info('$t') WHERE name = 'run_id'" | grep -q 1 ||
				printf 'UPDATE %s SET run_id = %s; ' $t $2
			[ $t = cell ] || ! sq "$1" "SELECT 1 FROM pragma_table_info('$t') WHERE name = 'cell_id'" | grep -q 1 ||
				printf 'UPDATE %s SET cell_id = -cell_id; ' $t
		done)"
}
zero $tmp/b0.db 0
"$CVMBENCH" merge --out $tmp/m0.db $tmp/a.db $tmp/b0.db > $tmp/out0 2>&1
is "$? $(counts $tmp/m0.db)" "0 $(sum_counts $tmp/a.db $tmp/b.db)" \
   "an input whose run id is 0 and cell ids negative merges with every row"
is "$(sq $tmp/m0.db "$JOINED" | sort | md5sum) $(sq $tmp/m0.db 'PRAGMA foreign_key_check' | wc -l)" \
   "$( (sq $tmp/a.db "$JOINED"; sq $tmp/b.db "$JOINED") | sort | md5sum) 0" \
   "and its rows join up to their run as the input's did, no key dangling"

# -o is --out's short form (the issue writes `merge a.db b.db -o all.db`)
"$CVMBENCH" merge $tmp/a.db $tmp/b.db -o $tmp/short.db > /dev/null
is "$? $(counts $tmp/short.db)" "0 $(sum_counts $tmp/a.db $tmp/b.db)" "merge A B -o M (options after the inputs) merges as --out does"
"$CVMBENCH" merge --help > $tmp/help
is "$(grep -c -- '^  -o FILE  *short for --out' $tmp/help)" 1 "merge --help names -o beside --out"

"$CVMBENCH" compare --db $tmp/a.db --db $tmp/b.db --json | grep -v '"db"\|databases' > $tmp/c1
"$CVMBENCH" compare --db $tmp/m2.db --json | grep -v '"db"\|databases\|"run"' > $tmp/c2
grep -v '"run"' $tmp/c1 > $tmp/c1b
ok "$(diff $tmp/c1b $tmp/c2 > /dev/null; echo $?)" -eq 0 "compare of the merged database equals compare of its inputs"

# the machine identity: the SHA-256 of its source's first line, computed here by sha256sum
src=$("$CVMBENCH" env --json | $py -c 'import json, sys; d = json.load(sys.stdin); print(d.get("machine.id_source", {}).get("value", ""))')
if [ -r "$src" ]; then
	is "$("$CVMBENCH" env --json | $py -c 'import json, sys; print(json.load(sys.stdin)["machine.id"]["value"])')" \
	   "$(printf '%s' "$(head -1 "$src")" | sha256sum | cut -c1-16)" "machine.id is the SHA-256 of $src (first 16 hex digits)"
else
	skip "no readable product_uuid or /etc/machine-id here"
fi
