#!/bin/bash
# tests/system/report-page.t - the report page as a reader sees it: a small
# real run (two warm cells of the null function, one cold cell, one runc
# cell that is skipped for asking 1024 CPUs) reported, then rendered in
# headless Chromium (Debian's chromium):
#  - a screenshot of the first screen (1280x1024) is written, is that size
#    and is not blank (a white page compresses to a few kB), and Chromium
#    logged no failed load or script error for the page;
#  - a test-only wrapper page (in the test's directory, the report itself
#    has no script) loads the report in a 1280x1024 frame and reads where
#    things are: the summary and the first figure's image start within
#    the first screen (the figure with at least 200 px of it on it), every
#    image loaded, every link to an anchor of the page has its target,
#    the report holds no script and no external resource, and the page
#    is no wider than the screen;
#  - the summary names the skip's reason and the cells ok / skipped;
#  - a flag any probe raises on a cell (a metric flag_*, here one no code
#    knows) is counted in the summary and shown in the cell's row and
#    under Fidelity flags, with no change to the report.
# Under CI a missing chromium fails; elsewhere the test says SKIP.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=11
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
W=1280 H=1024

plan $N
if [ ! -x ./cvmbench ] || [ ! -x $py ]; then
	skip_rest $N "./cvmbench (make) and $py are needed"
	exit 0
fi
for tool in chromium gnuplot; do
	command -v $tool > /dev/null && continue
	[ -n "${CI:-}" ] && { echo "Bail out! $tool is missing under CI (.ci/install-deps)"; exit 1; }
	skip_rest $N "$tool is not installed (apt-get install chromium gnuplot-nox)"
	exit 0
done
# Chromium with nothing of its own: no network, no profile but ours.
chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile" --window-size=$W,$H "$@"
}

cat > "$tmp/small.ini" <<'INI'
[experiment warm]
workload = null
threads = 1, 2
invocations = 10
warmup = 1

[experiment cold]
workload = hello-world
mode = cold
invocations = 3
warmup = 0

[experiment cannot]
workload = hello-world
backend = runc
mode = cold
cpus = 1024
invocations = 1
warmup = 0
INI
./cvmbench run "$tmp/small.ini" --db "$tmp/r.db" --wait-lock 300 > "$tmp/run.out" 2>&1
rc=$?
./cvmbench report "$tmp/rep" --db "$tmp/r.db" > "$tmp/rep.out" 2>&1
is "$rc:$?" "3:0" "a small run with a skipped cell (exit 3) and its report (exit 0)" ||
	sed 's/^/# /' "$tmp/run.out" "$tmp/rep.out" | tail -5

grep -q "skip.*cells\|<td>skip</td>" "$tmp/rep/index.html" &&
	grep -q "2 ok" "$tmp/rep/index.html" && grep -q "1024" "$tmp/rep/index.html"
is "$?" 0 "the summary has the cells ok per experiment and the skip's reason"

chrome --enable-logging=stderr --screenshot="$tmp/shot.png" "file://$tmp/rep/index.html" \
	> "$tmp/shot.out" 2>&1
rc=$?
size=$($py -c 'import struct, sys
d = open(sys.argv[1], "rb").read(24)
print("%dx%d" % struct.unpack(">II", d[16:24]))' "$tmp/shot.png" 2> /dev/null)
is "$rc:$size" "0:${W}x$H" "chromium renders the report and writes a ${W}x$H screenshot"
bytes=$(stat -c %s "$tmp/shot.png" 2> /dev/null || echo 0)
ok "$bytes" -gt 30000 "... that is not blank ($bytes bytes)"
bad=$(grep -E "Failed to load resource|Uncaught|net::ERR_|Not allowed to load" "$tmp/shot.out")
is "$bad" "" "... and logged no failed load or script error"

# The wrapper: same directory tree, so the frame's document is readable.
cat > "$tmp/check.html" <<'HTML'
<!DOCTYPE html>
<html><body style="margin:0">
<iframe id="f" src="rep/index.html" style="width:1280px;height:1024px;border:0"></iframe>
<pre id="out">not loaded</pre>
<script>
document.getElementById('f').onload = function () {
	var d = this.contentDocument, r = [], i, bad = 0, dead = 0, ext = 0;
	var top = function (e) { return e ? Math.round(e.getBoundingClientRect().top) : -1; };
	r.push('summary ' + top(d.getElementById('summary')));
	r.push('figure ' + top(d.querySelector('figure img')));
	for (i = 0; i < d.images.length; i++)
		bad += !(d.images[i].complete && d.images[i].naturalWidth > 0);
	r.push('images ' + d.images.length + ' broken ' + bad);
	d.querySelectorAll('a[href^="#"]').forEach(function (a) {
		dead += !d.getElementById(a.getAttribute('href').slice(1));
	});
	d.querySelectorAll('[src],[href]').forEach(function (e) {
		ext += /^[a-z]+:/i.test(e.getAttribute('src') || e.getAttribute('href'));
	});
	r.push('dead ' + dead + ' external ' + ext + ' scripts ' + d.scripts.length);
	r.push('width ' + d.documentElement.scrollWidth);
	document.getElementById('out').textContent = r.join(' ');
};
</script>
</body></html>
HTML
chrome --allow-file-access-from-files --virtual-time-budget=10000 --dump-dom \
	"file://$tmp/check.html" > "$tmp/dom.html" 2> "$tmp/dom.err"
res=$(sed -n 's/.*<pre id="out">\([^<]*\)<\/pre>.*/\1/p' "$tmp/dom.html")
echo "# $res"
set -- $res
[ "${1:-}" = summary ] && [ "${2:-x}" -ge 0 ] && [ "$2" -lt $H ]
is "$?" 0 "the summary starts within the first screen (at ${2:-?} px of $H)"
[ "${3:-}" = figure ] && [ "${4:-x}" -ge 0 ] && [ "$4" -le $((H - 200)) ]
is "$?" 0 "the first figure starts within the first screen, 200 px of it on it (at ${4:-?} px)"
is "${5:-}:${7:-}:${8:-}" "images:broken:0" "every image of the page loaded (${6:-?} images)"
is "${9:-}:${10:-}:${11:-}:${12:-}:${13:-}:${14:-}" "dead:0:external:0:scripts:0" \
	"every contents link has its anchor; no external resource, no script"
[ "${15:-}" = width ] && [ "${16:-x}" -le $W ]
is "$?" 0 "nothing makes the page wider than the screen (${16:-?} px of $W; wide tables scroll alone)"

# the flags the run raised itself (flag_noisy on a busy machine): the made-up
# one is counted on top of them
before=$(sed -n 's/.*>\([0-9]*\) fidelity flags\{0,1\} raised on cells.*/\1/p' "$tmp/rep/index.html" | head -1)
before=${before:-0}
$py -c 'import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
d.execute("INSERT INTO metric (cell_id, probe, name, value, unit) SELECT min(id), "
          "\x27null\x27, \x27flag_made_up_noise\x27, 1, \x27\x27 FROM cell")
d.commit()' "$tmp/r.db"
./cvmbench report "$tmp/rep2" --db "$tmp/r.db" > /dev/null 2>&1
n=$(grep -c "flag_made_up_noise" "$tmp/rep2/index.html")
want="$((before + 1)) fidelity flag"; [ "$before" -eq 0 ] && want="1 fidelity flag raised"
grep -q "$want" "$tmp/rep2/index.html"
is "$?:$n" "0:2" "a flag no code knows: counted in the summary ($before raised by the run, now $((before + 1))), in its cell's row and under Fidelity flags"
