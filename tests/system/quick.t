#!/bin/bash
# tests/system/quick.t - the main job, `cvmbench run configs/quick.ini`,
# checked with SQL (every cell measured or skipped with a reason, every
# measured cell summarised, the environment recorded), then the analysis
# commands on its database: show (text, JSON, unknown run),
# export (CSV row counts against SQL, JSON), plot warm-latency (PNG, SVG,
# no gnuplot, nothing to draw) and report (pages naming every cell key and
# every skip reason, escaped for their format). Needs no root.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=29
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
db=$tmp/r.db
q() { $py -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in r))' "$db" "$1"; }

plan $N
if [ ! -x ./cvmbench ] || [ ! -f configs/quick.ini ]; then
	skip_rest $N "./cvmbench or configs/quick.ini not there yet (run make)"
	exit 0
fi
if [ ! -x $py ]; then
	skip_rest $N "$py is needed to check JSON, CSV and the pages"
	exit 0
fi
./cvmbench run configs/quick.ini --db "$db" > "$tmp/run.out" 2>&1; rc=$?
[ "$rc" = 0 ] || [ "$rc" = 3 ]
is "$?" 0 "cvmbench run configs/quick.ini exits 0, or 3 for skipped cells (exit $rc)" ||
	sed 's/^/# /' "$tmp/run.out" | grep -E "error|warning" | head -5
if [ ! -s "$db" ]; then
	skip_rest $((N - 1)) "quick.ini wrote no database"
	exit 0
fi

# --- the run, by SQL ----------------------------------------------------
is "$(q "SELECT count(*) FROM cell WHERE status NOT IN ('ok', 'skipped')")" 0 \
	"every cell is ok or skipped"
is "$(q "SELECT count(*) FROM cell c WHERE status = 'skipped' AND NOT EXISTS
	(SELECT 1 FROM skip s WHERE s.cell_id = c.id AND length(s.reason) > 0)")" 0 \
	"every skipped cell has its reason"
is "$(q "SELECT count(*) FROM cell c WHERE status = 'ok' AND (SELECT count(*) FROM invocation i
	WHERE i.cell_id = c.id AND i.phase = 'measured' AND i.ok) != c.invocations")" 0 \
	"every ok cell has all its measured calls, each ok"
is "$(q "SELECT count(*) FROM cell c WHERE status = 'ok' AND probes LIKE '%latency%' AND
	NOT EXISTS (SELECT 1 FROM metric m WHERE m.cell_id = c.id AND m.name = 'round_trip_median')")" 0 \
	"every ok cell with the latency probe has its summary"
is "$(q "SELECT count(*) FROM environment WHERE key IN ('cpu.vendor', 'kernel.release',
	'hypervisor.present', 'cvm.type', 'cpuidle.driver', 'ksm.run', 'thp.enabled')")" 7 \
	"the environment of the run is recorded"

if command -v qemu-system-x86_64 > /dev/null; then
	is "$(q "SELECT group_concat(status) FROM cell WHERE experiment = 'quick-vm'")" ok \
		"the TCG cell quick-vm booted a guest and its calls ran: ok" ||
		q "SELECT message FROM error e JOIN cell c ON c.id = e.cell_id
			WHERE c.experiment = 'quick-vm'" | head -3 | sed 's/^/# /'
	is "$(q "SELECT count(*) FROM vm_boot b JOIN cell c ON c.id = b.cell_id
		WHERE c.experiment = 'quick-vm' AND b.phase IN ('qemu-spawn', 'ready')")" 2 \
		"... and stored its boot phases, from QEMU's spawn to ready"
elif [ -n "${CI:-}" ]; then
	_tap 1 "required under CI: qemu-system-x86_64 for the quick-vm cell"
	_tap 1 "required under CI: qemu-system-x86_64 for the quick-vm cell"
else
	skip_rest 2 "qemu-system-x86_64 is not installed: quick-vm is skipped"
fi

st=$(q "SELECT status || ': ' || cells_ok || ' ok' FROM run")
grep -q "info: run 1 $st[ ,]" "$tmp/run.out"
is "$?" 0 "the run's last line gives its status and counts as stored ($st)" ||
	tail -1 "$tmp/run.out" | sed 's/^/# /'

# --- show -------------------------------------------------------------
./cvmbench show --db "$db" > "$tmp/show" 2> "$tmp/err"
is "$?" 0 "show exits 0"
missing=$(q "SELECT cell_key FROM cell" | while read -r k; do
	grep -qF -- "$k" "$tmp/show" || echo "$k"; done)
is "$missing" "" "show lists every cell key"
./cvmbench show --db "$db" --json > "$tmp/show.json"
$py -m json.tool "$tmp/show.json" > /dev/null
is "$?" 0 "show --json is valid JSON"
is "$($py -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(len(d["runs"]), len(d["run"]["cells"]))' "$tmp/show.json")" \
	"$(q "SELECT (SELECT count(*) FROM run), (SELECT count(*) FROM cell)" | tr '|' ' ')" \
	"show --json has every run and cell"
./cvmbench show --db "$db" --run 999999 > /dev/null 2> "$tmp/err"
is "$?" 2 "show --run with an unknown id exits 2"
grep -q "no run 999999" "$tmp/err"
is "$?" 0 "... and says which run is unknown"

# --- export -----------------------------------------------------------
csv_rows() { $py -c 'import csv, sys
print(sum(1 for _ in csv.DictReader(open(sys.argv[1], newline=""))))' "$1"; }
./cvmbench export --csv --db "$db" > "$tmp/inv.csv"
is "$?" 0 "export --csv exits 0"
is "$(csv_rows "$tmp/inv.csv")" "$(q "SELECT count(*) FROM invocation")" \
	"CSV rows on stdout = SELECT count(*) FROM invocation"
./cvmbench export --csv --db "$db" --out "$tmp/x.csv" 2> /dev/null
is "$(csv_rows "$tmp/x-invocations.csv") $(csv_rows "$tmp/x-metrics.csv")" \
	"$(q "SELECT (SELECT count(*) FROM invocation), (SELECT count(*) FROM metric)" | tr '|' ' ')" \
	"--out X.csv writes X-invocations.csv and X-metrics.csv, all rows"
./cvmbench export --json --db "$db" > "$tmp/x.json"
$py -m json.tool "$tmp/x.json" > /dev/null
is "$?" 0 "export --json is valid JSON"
is "$($py -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(len(d["invocations"]), len(d["metrics"]))' "$tmp/x.json")" \
	"$(q "SELECT (SELECT count(*) FROM invocation), (SELECT count(*) FROM metric)" | tr '|' ' ')" \
	"export --json has every invocation and metric"

# --- plot -------------------------------------------------------------
if command -v gnuplot > /dev/null; then
	./cvmbench plot warm-latency --db "$db" --out "$tmp/wl.png" 2> "$tmp/err"
	is "$?" 0 "plot warm-latency exits 0"
	file "$tmp/wl.png" | grep -q "PNG image"
	is "$?" 0 "... and writes a PNG image"
	./cvmbench plot warm-latency --db "$db" --out "$tmp/wl.svg" 2> "$tmp/err"
	file "$tmp/wl.svg" | grep -q "SVG"
	is "$?" 0 "plot --out X.svg writes an SVG image"
else
	skip_rest 3 "gnuplot is not installed (apt-get install gnuplot-nox)"
fi
PATH=/nonexistent ./cvmbench plot warm-latency --db "$db" --out "$tmp/no.png" 2> "$tmp/err"
rc=$?
grep -q "gnuplot" "$tmp/err"
is "$rc:$?" "1:0" "plot without gnuplot exits 1 and names gnuplot"
cat > "$tmp/cold.ini" <<'INI'
[experiment cold-only]
workload = hello-world
mode = cold
invocations = 2
warmup = 0
INI
if ./cvmbench run "$tmp/cold.ini" --db "$tmp/cold.db" > /dev/null 2>&1; then
	./cvmbench plot warm-latency --db "$tmp/cold.db" --out "$tmp/c.png" 2> "$tmp/err"
	is "$?" 3 "plot of a run without warm starts exits 3 (nothing to draw)"
else
	skip "a cold-only run did not work here"
fi

# --- report -----------------------------------------------------------
./cvmbench report "$tmp/rep" --db "$db" 2> "$tmp/err"
rc=$?
if command -v gnuplot > /dev/null; then
	[ -s "$tmp/rep/index.html" ] && [ -s "$tmp/rep/warm-latency.png" ] &&
		[ -s "$tmp/rep/warm-latency.svg" ]
	is "$rc:$?" "0:0" "report exits 0, writes index.html and the figure as PNG and SVG"
else
	[ -s "$tmp/rep/index.html" ] && grep -q "gnuplot" "$tmp/rep/index.html"
	is "$rc:$?" "1:0" "report without gnuplot exits 1, index.html says why"
fi
[ -s "$tmp/rep/index.md" ]
is "$?" 0 "report writes index.md"
unlisted=$(./cvmbench plot --list | while read -r f _; do
	[ -s "$tmp/rep/$f.png" ] || grep -q "^| $f | ..*|$" "$tmp/rep/index.md" || echo "$f"; done)
is "$unlisted" "" "every figure is drawn or listed under Figures not drawn with its reason"
$py - "$db" "$tmp/rep" <<'PY'
import html, re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
run = db.execute("SELECT max(id) FROM run").fetchone()[0]
keys = [r[0] for r in db.execute("SELECT cell_key FROM cell WHERE run_id = ?", (run,))]
reasons = [r[0] for r in db.execute("SELECT reason FROM skip WHERE run_id = ?", (run,))]
page_html = open(sys.argv[2] + "/index.html").read()
page_md = open(sys.argv[2] + "/index.md").read()
md = lambda s: re.sub(r"([\\`*_\[\]<>|#])", r"\\\1", s.replace("\n", " "))
bad = [t for t in keys + reasons
       if html.escape(t, quote=True).replace("&#x27;", "&#39;") not in page_html
       or md(t) not in page_md]
for t in bad:
    print("# missing:", t)
print("# %d cell keys, %d skip reasons checked" % (len(keys), len(reasons)))
sys.exit(1 if bad else 0)
PY
is "$?" 0 "index.html and index.md name every cell key and skip reason, escaped"
