#!/bin/bash
# tests/system/reading.t - what a new user reads (issue 16): `show` tells the
# cells of a run apart by the settings that vary, explains its columns and
# statuses, takes --run all, and says why a --table is empty (exit 3, a skip);
# export writes the cells once and the invocations refer to them; read-only
# commands leave no -wal / -shm beside the database; run --dry-run, list
# --keys, env, help and the usages say what the docs promise. No root.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=32
plan $N
command -v sqlite3 > /dev/null || skip_all $N "no sqlite3 (apt-get install sqlite3)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
# native cells change no host setting: a private host lock, so a concurrent
# run elsewhere on the machine does not make this one wait or fail
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock
db=$tmp/r.db

cat > "$tmp/s.ini" <<'INI'
[experiment s]
workload = null
threads = 1, 2
wait = spin, block
repeats = 2
invocations = 5
warmup = 0
INI

# --- run --dry-run -----------------------------------------------------
$CVMBENCH run "$tmp/s.ini" --dry-run > "$tmp/dry" 2> /dev/null
is "$(grep -c '^s-[0-9a-f]\{8\} ' "$tmp/dry")" 8 "dry-run: one line per cell (2 threads x 2 waits x 2 repeats)"
grep -q '^s-[0-9a-f]\{8\} threads=1 wait=spin repeat=0$' "$tmp/dry"
is "$?" 0 "... with the key and only the settings that vary (threads, wait, repeat)"
$CVMBENCH run "$tmp/s.ini" --dry-run --verbose > "$tmp/dryv" 2> /dev/null
is "$(grep -c '^size = test$' "$tmp/dryv")/$(grep -c '^size = test$' "$tmp/dry")" 8/0 \
	"--verbose adds every key of every cell"

printf '[experiment a]\nworkload = null\nrepeat = 2\n' > "$tmp/r.ini"
$CVMBENCH run "$tmp/r.ini" --dry-run > /dev/null 2> "$tmp/err"
is "$?/$(grep -c "r.ini:3: key 'repeat' .*write repeats = N" "$tmp/err")" 2/1 \
	"repeat = 2 in a config: exit 2, naming the line and the key to write (repeats)"

# --- show ----------------------------------------------------------------
$CVMBENCH run "$tmp/s.ini" --db "$db" > /dev/null 2>&1
is "$?" 0 "a run of 8 null cells"
# a second run (of another config: --only would re-run the cell into run 1)
printf '[experiment o]\nworkload = null\ninvocations = 5\nwarmup = 0\n' > "$tmp/o.ini"
$CVMBENCH run "$tmp/o.ini" --db "$db" > /dev/null 2>&1
is "$(ls "$tmp" | grep -c -- '-wal$\|-shm$')" 0 "no -wal or -shm after the runs"
$CVMBENCH show --db "$db" --run 1 > "$tmp/show" 2> "$tmp/err"
is "$?" 0 "show exits 0"
is "$(ls "$tmp" | grep -c -- '-wal$\|-shm$')" 0 "show leaves no -wal or -shm beside the database"
head=$(grep -A1 '^cells:' "$tmp/show" | tail -1)
is "$(echo "$head" | awk '{ print $2, $3, $4, $5 }')" "repeat threads wait STATUS" \
	"the columns after KEY are the settings that vary (repeat, threads, wait)"
echo "$head" | grep -qw "size\|workload\|backend"
is "$?" 1 "... and no setting that is the same in every cell"
# each cell's row shows its own values, as cell_param holds them
want=$(sqlite3 "$db" "SELECT c.cell_key || ' ' || r.value || ' ' || t.value || ' ' || w.value
	FROM cell c JOIN cell_param r ON r.cell_id = c.id AND r.key = 'repeat'
	JOIN cell_param t ON t.cell_id = c.id AND t.key = 'threads'
	JOIN cell_param w ON w.cell_id = c.id AND w.key = 'wait' WHERE c.run_id = 1 ORDER BY c.id")
# the table's rows only: it ends at "skips:" (a busy machine's flag_noisy is
# listed under flags with the cell's key too, and is not a row of the table)
got=$(awk '/^cells:/ { on = 1; getline; next } /^skips:/ { on = 0 } on && /^  s-/ { print $1, $2, $3, $4 }' "$tmp/show")
is "$got" "$want" "every row's values are the cell's (cell_param)"
grep -A1 '^run 1 (complete: 8 ok, [a-z]*): ' "$tmp/show" | tail -1 |
	grep -q '^  (complete: every cell measured with every probe; \(guest\|host\): cvmbench ran '
is "$?" 0 "the run's status and vantage are explained under its line"
grep -q '^  status: ok measured; skipped' "$tmp/show"
is "$?" 0 "the statuses are explained under the table"
grep -q 'P99_MS: given from 100 calls on' "$tmp/show" && grep -q 'MEDIAN_MS \[95% CI\] COVERAGE' "$tmp/show"
is "$?" 0 "p99 and the interval with its coverage are explained"
$CVMBENCH show --db "$db" --run all > "$tmp/all" 2>&1
is "$?/$(grep -c '^run [12] (' "$tmp/all")" 0/2 "show --run all details both runs"
$CVMBENCH show --db "$db" --run all --table idle > /dev/null 2> "$tmp/err"
is "$?/$(grep -c -- "--run all with --table idle is not supported: give a run id" "$tmp/err")" 2/1 \
	"show --run all --table idle: exit 2, said unsupported (the tables are one run's)"
$CVMBENCH show --db "$db" --table memory > /dev/null 2> "$tmp/err"
is "$?" 3 "show --table memory without memory rows exits 3"
grep -q "skipped table memory: run 2 has no cell that measured it (no cell ran the hostmem" "$tmp/err" &&
	! grep -q "error" "$tmp/err"
is "$?" 0 "... with a skip that says why, not an error" || sed 's/^/# /' "$tmp/err"

# --- export --------------------------------------------------------------
$CVMBENCH export --help > "$tmp/help"
is "$(grep -o 'FILE-[a-z-]*\.csv' "$tmp/help" | sort | tr '\n' ' ')" \
	"FILE-cells.csv FILE-invocations.csv FILE-metrics.csv FILE-runc-phases.csv " \
	"export --help names all the CSV files"
$CVMBENCH export --csv --db "$db" --out "$tmp/x" 2> /dev/null
cells=$(python3 -c 'import csv, sys; print(len(list(csv.DictReader(open(sys.argv[1])))))' "$tmp/x-cells.csv")
is "$cells" "$(sqlite3 "$db" 'SELECT count(*) FROM cell')" "x-cells.csv has one row per cell"
python3 - "$tmp/x-cells.csv" "$tmp/x-invocations.csv" > "$tmp/py" <<'PY'
import csv, sys
cells = {r["id"] for r in csv.DictReader(open(sys.argv[1]))}
inv = list(csv.DictReader(open(sys.argv[2])))
print("spec" in inv[0] or "cell_spec" in inv[0], all(r["cell_id"] in cells for r in inv))
PY
is "$(cat "$tmp/py")" "False True" "invocations carry no spec and each names a cell of x-cells.csv"
is "$(head -1 "$tmp/x-cells.csv" | tr ',' '\n' | grep -c '^repeat$')" 1 \
	"the cells file calls the repeat number repeat, as show and dry-run do"
is "$(ls "$tmp" | grep -c -- '-wal$\|-shm$')" 0 "export leaves no -wal or -shm"
# as build.t: git answers only in a checkout it trusts (not a tarball; as root
# in another user's clone, "dubious ownership")
if git rev-parse --git-dir >/dev/null 2>&1; then
	is "$(git check-ignore results-cells.csv a-invocations.csv a-metrics.csv a-runc-phases.csv | wc -l)" 4 \
		".gitignore covers the exported CSV names"
elif [ -n "${CI:-}" ]; then
	_tap 1 ".gitignore check: not a git checkout git will read (CI runs on a clone)"
else
	skip ".gitignore check: not a git checkout git will read ($(git rev-parse --git-dir 2>&1 | head -1))"
fi

# --- help and usages ---------------------------------------------------------
is "$($CVMBENCH help run | head -1)" "$($CVMBENCH run --help | head -1)" \
	"cvmbench help run prints run's help"
$CVMBENCH restore --help | grep -q 'CVMBENCH_STATE_DIR'
is "$?" 0 "restore --help names \$CVMBENCH_STATE_DIR"
$CVMBENCH list --help | head -1 | grep -q -- '--configs DIR'
is "$?" 0 "list's usage has --configs"
$CVMBENCH list --keys > "$tmp/keys"
is "$(head -1 "$tmp/keys" | awk '{ print $1, $2, $3, $4, $5 }')" "KEY TYPE DEFAULT DIM ALLOWED" \
	"list --keys: a TYPE and an ALLOWED column"
is "$(awk '$1 == "repeat" { print $2 }' "$tmp/keys")/$(grep -c '^DIM yes:' "$tmp/keys")" int/1 \
	"... the repeat key is listed and DIM explained"
is "$(awk '$1 == "wait" { print $5 }' "$tmp/keys")" "spin|block|hybrid[:US]" \
	"... allowed values written as a|b|c for names too"

# --- env ----------------------------------------------------------------------
$CVMBENCH env > "$tmp/env"; $CVMBENCH env --json > "$tmp/env.json"
whole=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["kernel.cmdline"]["value"])' "$tmp/env.json")
col=$(awk '/^kernel.cmdline / { print index($0, $2); exit }' "$tmp/env")
shown=$(awk -v c="$col" '/^kernel.cmdline / { on = 1; s = substr($0, c); sub(/  \(\/proc\/cmdline\)$/, "", s); sub(/ +$/, "", s); printf "%s", s; next }
	on && substr($0, 1, c - 1) ~ /^ *$/ { printf " %s", substr($0, c); next } { on = 0 }' "$tmp/env")
longest=$(awk -v c="$col" '/^kernel.cmdline / { on = 1; s = substr($0, c); sub(/  \(\/proc\/cmdline\)$/, "", s); sub(/ +$/, "", s); m = length(s); next }
	on && substr($0, 1, c - 1) ~ /^ *$/ { if (length($0) - c + 1 > m) m = length($0) - c + 1; next } { on = 0 } END { print m + 0 }' "$tmp/env")
# a token longer than 72 columns stays whole on a line of its own
word=$(awk '{ for (i = 1; i <= NF; i++) if (length($i) > m) m = length($i) } END { print m + 0 }' <<<"$whole")
wrap=$(( word > 72 ? word : 72 ))
if [ -z "$whole" ]; then    # an empty /proc/cmdline: a blank value, its source beside it
	grep -Eq '^kernel\.cmdline +\(/proc/cmdline\)$' "$tmp/env"
	is "$?" 0 "env: an empty kernel.cmdline is shown blank with its source"
else
	is "$shown/$([ "$longest" -le $wrap ] && echo fits)" "$whole/fits" \
		"env: kernel.cmdline wrapped at $wrap columns (longest $longest), its lines join to the stored value"
fi
checks=$(python3 -c 'import json, sys; print(sum(k.startswith("cvm.evidence.") for k in json.load(open(sys.argv[1]))))' "$tmp/env.json")
is "$(grep -c '^cvm\.evidence ' "$tmp/env")/$(grep -c '^cvm\.evidence\.' "$tmp/env")" "0/$checks" \
	"env: the evidence once, one check a line (no summary line repeating them)"
