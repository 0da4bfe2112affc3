#!/bin/bash
# tests/system/idle-vmtypes.t - Table III and Fig. 6 per VM type
# (analysis/idle-tables.c, fig-idle-policy.c, fig-threads-sweep.c,
# idle-cells.c, idle-exits.c). A run written by compare-db.py and
# idle-vm-db.py (Python's sqlite3, not cvmbench) with cells of every VM type
# (native, container, regular, model, sev-snp, tdx) x idle policy (hlt, poll,
# haltpoll:200000, spin) x threads 1 and 2, with the guest's halt entries and,
# for regular and tdx, the host's kvm_exit rows (by reason with handling
# times; by class on two isa tables without); sev-snp's kvm_exit is a skip,
# model has none. The table's rows must hold what idle-vm-db.py computed from
# the numbers it wrote (a missing count is '-', never 0); the figures' data
# (kept by a gnuplot wrapper on PATH) has one block per VM type (idle-policy)
# and one line per (VM type, policy) (threads-sweep). A database of native
# cells only, from before the vmexit table, draws as before: one block, the
# labels and line titles without a VM type. The configs of Table III, Fig. 6
# and Fig. 5 in guests parse, and list names each cell it cannot run here.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=12
py=/usr/bin/python3
plan $N
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/system/plot-lib.sh
plot_needs $N

# gnuplot, keeping a copy of each figure's data file as $tmp/keep/NAME.dat
mkdir -p "$tmp/bin" "$tmp/keep"
cat > "$tmp/bin/gnuplot" <<SH
#!/bin/bash
for a; do case \$a in datafile=*) d=\${a#datafile=\\'}; d=\${d%%\\'*};; esac; done
cp "\$d" "$tmp/keep/\$(basename "\${@: -1}" .gp).dat"
exec $(command -v gnuplot) "\$@"
SH
chmod +x "$tmp/bin/gnuplot"
plot() {   # FIGURE DB: draw it; its data in $tmp/keep/FIGURE-GP.dat
	rm -f "$tmp/keep/"*
	PATH=$tmp/bin:$PATH "$CVMBENCH" plot "$1" --db "$2" --out "$tmp/$1.svg" \
		> /dev/null 2> "$tmp/plot.err"
}

db=$tmp/vm.db
$py tests/system/compare-db.py "$db" --workloads image --repeats 48 --n 5 &&
	$py tests/system/idle-vm-db.py "$db" "$tmp/want.json" ||
	{ echo "Bail out! crafting the database failed"; exit 1; }

"$CVMBENCH" show --db "$db" --table idle-policy --json > "$tmp/t.json" 2> "$tmp/err"
is "$?" 0 "show --table idle-policy exits 0 on every VM type x policy"
# "VM type policy threads" -> the row from its VM type column on
got=$($py -c 'import json, sys
t = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))
h = t["head"]
v, th = h.index("VM type"), h.index("threads")
rows = {"%s %s %s" % (r[v], r[v + 1], r[th]): r[v:v + 3] + r[v + 3:] for r in t["rows"]}
bad = [k for k in want if rows.get(k) != want[k]]
print("ok" if not bad and len(rows) == len(want) == len(t["rows"]) else
      "%d rows, %d wanted; wrong: %s" % (len(t["rows"]), len(want),
      "; ".join("%s: got %s want %s" % (k, rows.get(k), want[k]) for k in bad[:3])))
' "$tmp/t.json" "$tmp/want.json")
is "$got" ok "a row per VM type x policy x threads, with the crafted latency, halt entries, exits, HLT exits and HLT's shares"
got=$($py -c 'import json, sys
t = json.load(open(sys.argv[1])); h = t["head"]
print(" ".join(sorted({r[h.index("VM type")] for r in t["rows"]})))' "$tmp/t.json")
is "$got" "container model native regular sev-snp tdx" "the VM types: native, container, regular, model, sev-snp, tdx"
got=$($py -c 'import json, sys
t = json.load(open(sys.argv[1])); h = t["head"]
cols = [h.index(c) for c in ("VM exits", "HLT exits", "HLT % of exits", "HLT % of exit time")]
print(sorted({"%s:%s" % (r[h.index("VM type")], ",".join(r[c] for c in cols)) for r in t["rows"]
              if r[h.index("VM type")] in ("native", "container", "model", "sev-snp")}))
print(sorted({r[cols[3]] for r in t["rows"] if r[h.index("VM type")] == "tdx"}))' "$tmp/t.json")
is "$got" "['container:-,-,-,-', 'model:-,-,-,-', 'native:-,-,-,-', 'sev-snp:-,-,-,-']
['-']" "no exits counted (no VM, no rows, a kvm_exit skip) and no handling time are '-', never 0"

plot idle-policy "$db"
is "$?" 0 "plot idle-policy draws every VM type"
got=$($py -c 'import sys
blocks = open(sys.argv[1]).read().strip().split("\n\n\n")
out = []
for b in blocks:
    lines = [l for l in b.split("\n") if l.startswith("# VM type:")]
    rows = [l for l in b.split("\n") if l and not l.startswith("#")]
    types = {r.split("\"")[1].split(":")[0] for r in rows}
    out.append("%s/%d/%s" % (lines[0][11:], len(rows), ",".join(sorted(types))))
print(" ".join(out))' "$tmp/keep/idle-policy.dat")
is "$got" "native/8/native container/8/container regular/8/regular model/8/model sev-snp/8/sev-snp tdx/8/tdx" \
	"idle-policy data: one block per VM type in order, each with its 8 cells labelled by their type"

plot threads-sweep "$db"
got=$($py -c 'import sys
blocks = open(sys.argv[1]).read().strip().split("\n\n\n")
print(len(blocks), len({b.split("\n")[0].split("\"")[1] for b in blocks}),
      sorted({len(b.strip().split("\n")) - 1 for b in blocks}), blocks[10].split("\n")[0].split("\"")[1])' \
	"$tmp/keep/threads-sweep.dat")
is "$got" "24 24 [2] regular poll" \
	"threads-sweep data: 24 lines, one per (VM type, policy), each over threads 1 and 2"

# an old database: native cells only, before the vmexit table (schema 006)
old=$tmp/old.db
args=()
for i in 0 1 2 3; do args+=(--set "$i:idle=$([ $i -lt 2 ] && echo hlt || echo poll)"); done
$py tests/system/compare-db.py "$old" --workloads image --repeats 4 --n 5 --upto 6 "${args[@]}" &&
	$py - "$old" <<'PY' || { echo "Bail out! crafting the old database failed"; exit 1; }
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for i, (c,) in enumerate(db.execute("SELECT id FROM cell ORDER BY id").fetchall()):
    db.execute("UPDATE cell SET threads = ?, probes = 'latency, idle, cpu' WHERE id = ?",
               (1 + i % 2, c))
    db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
               "(?, 'idle', 'halt_entries_per_invocation', ?, 'count')", (c, 3 + i))
db.commit()
PY
got=$("$CVMBENCH" show --db "$old" --table idle-policy --json | $py -c 'import json, sys
t = json.load(sys.stdin); h = t["head"]
print(" ".join("%s:%s:%s:%s" % (r[h.index("VM type")], r[h.index("policy")],
               r[h.index("halt entries / call")], r[h.index("VM exits")]) for r in t["rows"]))')
is "$got" "native:hlt:3.0:- native:poll:5.0:- native:hlt:4.0:- native:poll:6.0:-" \
	"an old native-only database: its cells are native, no exits ('-'), as before"
plot idle-policy "$old"
got=$(grep -v '^#' "$tmp/keep/idle-policy.dat" | grep . | cut -d'"' -f2 | tr '\n' ,)
is "$got" "image/1t hlt,image/1t poll,image/2t hlt,image/2t poll," \
	"an old database's idle-policy figure: one block, labels without a VM type, as before"
plot threads-sweep "$old"
got=$(grep -o '^"[^"]*"' "$tmp/keep/threads-sweep.dat" | tr '\n' ,)
is "$got$(grep -c 'Threads sweep per idle policy' "$tmp/threads-sweep.svg")" '"hlt","poll",1' \
	"an old database's threads sweep: one line per policy, titled as before"

# the configs in guests: they parse, and each cell this host cannot run has its reason
mkdir "$tmp/cfg"
cp configs/idle-vm.ini configs/threads-sweep-vm.ini configs/vmexit-rate.ini "$tmp/cfg/"
got=""
for c in idle-vm threads-sweep-vm vmexit-rate; do
	got+="$("$CVMBENCH" run "$tmp/cfg/$c.ini" --dry-run 2>/dev/null | grep -c "^$c-") "
done
is "$got" "6 16 28 " "idle-vm (2 policies x 3 types), threads-sweep-vm (4 x 2 x 2) and vmexit-rate (7 x 4) parse"
got=$("$CVMBENCH" list --json --configs "$tmp/cfg" 2>/dev/null | $py -c 'import json, sys
for e in json.load(sys.stdin)["experiments"]:
    n = sum(r["cells"] for r in e["unsupported_reasons"])
    print(e["name"], e["cells"], "ok" if n == e["cells_unsupported"] and
          all(r["reason"] for r in e["unsupported_reasons"]) else "unexplained")')
is "$got" "idle-vm.ini:idle-vm 6 ok
threads-sweep-vm.ini:threads-sweep-vm 16 ok
vmexit-rate.ini:vmexit-rate 28 ok" "list: every cell of the three runs here or is a skip with its reason"
