#!/bin/bash
# tests/system/plot-series.t - a cell's series is the confidential type it
# got and its KSM setting (analysis/cell-series.h, docs/analysis.md). A run
# written by tests/system/compare-db.py (the tool's schema, no VM) with
# qemu cells regular, model, sev-snp and tdx (the guest's own cvm.type
# noted as guest.cvm.type), each with KSM on and off and a PSS of its own:
# memory-scaling and memory-overhead draw eight lines / seven overheads,
# each named and valued as its own; memory-mixed has sev-snp and tdx bars;
# the memory table and compare name each cell's type and KSM. A guest
# vantage run in a SEV-SNP machine (cvm.type) is sev-snp. An old database
# (no guest.cvm.type, no cvm.type) draws as before, from `confidential`.
# The same checks fail on a database whose CVM cells fell into the
# regular series (as before this change), so they can fail.
# Host memory is the cell's memory cgroup figure (memcg_usage_kb) where it
# has one, else its PSS (memory-cells.h): a sev-snp cell with a cgroup
# figure far above its PSS is drawn and tabled at the cgroup figure, the
# cells without one at PSS; the table names each row's source and keeps
# PSS as its own column, and shows flag_memcg_pss_disagree; a figure that
# mixes the two says so (its title and the report's caption), one that
# does not names its source on the axis. The same checks fail on the
# database without the cgroup figure (PSS drawn), so they can fail.
# Memory acceptance (guest-accept): a database with eager and lazy model
# and sev-snp cells draws "model eager", "model lazy", "sev-snp eager",
# "sev-snp lazy" as lines of their own with their own values, tables them
# so, and compare pairs both points with the one regular twin; the same
# cells without the key (an old database) draw one "model" and one
# "sev-snp" line of two cells each, so the check can fail.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=19
py=/usr/bin/python3
plan $N
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/system/plot-lib.sh
plot_needs $N

# cell I: confidential, ksm, what the guest said, PSS kB
cells=(none:on:none:100000 none:off:none:200000 model:off:none:300000 model:on:none:310000
	sev-snp:off:sev-snp:400000 sev-snp:on:sev-snp:410000 tdx:off:tdx:500000 tdx:on:tdx:510000)
mkdb() {   # DB [no-notes] [compare-db.py options]
	local i args=() db=$1 notes=${2:-}
	shift; [ $# -gt 0 ] && shift
	for i in "${!cells[@]}"; do
		IFS=: read -r conf ksm got kb <<< "${cells[$i]}"
		args+=(--set "$i:confidential=$conf" --set "$i:ksm=$ksm" --hostmem "$i:$kb")
		[ -z "$notes" ] && args+=(--set "$i:guest.cvm.type=$got")
	done
	$py tests/system/compare-db.py "$db" --workloads pyaes --repeats ${#cells[@]} --n 20 \
		--cell backend=qemu --cell vms=2 --cell instances=2 "${args[@]}" "$@"
}
# series_check DB: "ok", or what is wrong with the series the figures draw
series_check() {
	local db=$1 bad="" name pct
	"$CVMBENCH" plot memory-scaling --db "$db" --out "$tmp/s.svg" >/dev/null 2>&1 || bad+=" scaling-rc"
	for name in "ksm on" "ksm off" "model" "model, ksm on" "sev-snp" "sev-snp, ksm on" \
		"tdx" "tdx, ksm on"; do
		grep -q ">$name<" "$tmp/s.svg" || bad+=" no-line[$name]"
	done
	[ "$(grep -c '>N=1<' "$tmp/s.svg"):$(grep -c '>N=2<' "$tmp/s.svg")" = 8:0 ] || bad+=" scaling-N"
	"$CVMBENCH" plot memory-overhead --db "$db" --out "$tmp/o.svg" >/dev/null 2>&1 || bad+=" overhead-rc"
	for pct in +100.0 +200.0 +210.0 +300.0 +310.0 +400.0 +410.0; do
		grep -q ">$pct %, N=1/1<" "$tmp/o.svg" || bad+=" overhead[$pct]"
	done
	grep -q '>sev-snp, ksm on against ksm on<' "$tmp/o.svg" || bad+=" overhead-name"
	"$CVMBENCH" plot memory-mixed --db "$db" --out "$tmp/b.svg" >/dev/null 2>&1 || bad+=" bars-rc"
	grep -q '>sev-snp<' "$tmp/b.svg" && grep -q '>tdx<' "$tmp/b.svg" || bad+=" bars-names"
	[ "$(grep -c '>N=1<' "$tmp/b.svg"):$(grep -c '>N=2<' "$tmp/b.svg")" = 2:3 ] || bad+=" bars-N"
	echo "${bad:-ok}"
}
table() {   # DB: "cell ksm confidential" of each row of the memory table
	"$CVMBENCH" show --db "$1" --table memory --json | $py -c 'import json, sys
print(" ".join("%s:%s:%s" % (r[0], r[2], r[3]) for r in json.load(sys.stdin)["rows"]))'
}

mkdb "$tmp/new.db"
is "$(series_check "$tmp/new.db")" ok \
	"regular, model, sev-snp, tdx x KSM on/off: each its own series, named and valued as its own"
want=""
for i in "${!cells[@]}"; do
	IFS=: read -r conf ksm got kb <<< "${cells[$i]}"
	want+="${want:+ }t-pyaes-$i:$ksm:$conf"
done
is "$(table "$tmp/new.db")" "$want" "the memory table: each cell's KSM and the type it got"
"$CVMBENCH" compare --db "$tmp/new.db" --json > "$tmp/c.json"
is "$($py -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(sorted((p["side"], p["ksm"], p["series"], p["cells"][0]["cell_key"]) for p in d["pairs"]))' "$tmp/c.json")" \
	"[('model', 'off', 'model', 't-pyaes-2'), ('model', 'on', 'model, ksm on', 't-pyaes-3'), ('sev-snp', 'off', 'sev-snp', 't-pyaes-4'), ('sev-snp', 'on', 'sev-snp, ksm on', 't-pyaes-5'), ('tdx', 'off', 'tdx', 't-pyaes-6'), ('tdx', 'on', 'tdx, ksm on', 't-pyaes-7')]" \
	"compare: each CVM or model cell paired as its type and KSM setting"
"$CVMBENCH" compare --db "$tmp/new.db" > "$tmp/c.txt"
is "$(awk '$1 == "pyaes" {print $4 "/" $5}' "$tmp/c.txt" | sort | tr '\n' ' ')" \
	"model/off model/on sev-snp/off sev-snp/on tdx/off tdx/on " "compare's table: SIDE and KSM columns"

# what was obtained wins: the guest said none to a cell that asked tdx
cp "$tmp/new.db" "$tmp/got.db"
sqlite3 "$tmp/got.db" "UPDATE cell_param SET value = 'none' WHERE key = 'guest.cvm.type' AND
	cell_id = (SELECT id FROM cell WHERE cell_key = 't-pyaes-7')"
is "$(table "$tmp/got.db" | tr ' ' '\n' | grep t-pyaes-7)" "t-pyaes-7:on:none" \
	"a cell that asked tdx and whose guest reports none is drawn as what it got"
# guest vantage: native cells inside a SEV-SNP machine (the run's cvm.type)
$py tests/system/compare-db.py "$tmp/gv.db" --workloads pyaes --cvm sev-snp --n 5 \
	--set 0:ksm=on --hostmem 0:1000
is "$(table "$tmp/gv.db")" "t-pyaes-0:on:sev-snp" "a native cell in a SEV-SNP machine: sev-snp"

# an old database: no guest.cvm.type notes, no cvm.type fact: regular and model as before
cells=("${cells[@]:0:4}")
mkdb "$tmp/old.db" no-notes
sqlite3 "$tmp/old.db" "DELETE FROM environment WHERE key = 'cvm.type'"
"$CVMBENCH" plot memory-scaling --db "$tmp/old.db" --out "$tmp/old.svg" >/dev/null 2>&1
# each name twice in the SVG: the key entry and its hover title
is "$?:$(for n in 'ksm on' 'ksm off' 'model' 'model, ksm on'; do grep -c ">$n<" "$tmp/old.svg"; done | tr '\n' ' ')$(grep -c '>N=1<' "$tmp/old.svg")" \
	"0:2 2 2 2 4" "an old database: the lines ksm on, ksm off, model, model, ksm on as before"
is "$(table "$tmp/old.db")" "t-pyaes-0:on:none t-pyaes-1:off:none t-pyaes-2:off:model t-pyaes-3:on:model" \
	"an old database: the memory table from confidential"

# host memory: cell 5 (sev-snp, ksm on; PSS 410000 kB) has a cgroup figure of 900000 kB
cells=(none:on:none:100000 none:off:none:200000 model:off:none:300000 model:on:none:310000
	sev-snp:off:sev-snp:400000 sev-snp:on:sev-snp:410000 tdx:off:tdx:500000 tdx:on:tdx:510000)
memcg5=(--metric 5:memcg_usage_kb=900000 --metric 5:pss_vs_memcg_pct=-54.4
	--metric 5:flag_memcg_pss_disagree=1)
mkdb "$tmp/cg.db" "" "${memcg5[@]}"
# memcg_check DB: "ok", or what is wrong with the host memory drawn and tabled
memcg_check() {
	local db=$1 bad=""
	"$CVMBENCH" plot memory-overhead --db "$db" --out "$tmp/mo.svg" >/dev/null 2>&1 || bad+=" overhead-rc"
	# 100 x (900000 - 100000) / 100000: the cgroup figure against ksm on's PSS
	grep -q '>+800.0 %, N=1/1<' "$tmp/mo.svg" || bad+=" overhead-memcg"
	grep -q '>+400.0 %, N=1/1<' "$tmp/mo.svg" || bad+=" overhead-pss"
	"$CVMBENCH" plot memory-scaling --db "$db" --out "$tmp/ms.svg" >/dev/null 2>&1 || bad+=" scaling-rc"
	# 900000 kB = 879 MiB: the y axis reaches 900 (PSS alone: 510000 kB, 500)
	grep -q '> 900<' "$tmp/ms.svg" || bad+=" scaling-axis"
	grep -q 'Host memory mixes two sources: 1 cell drawn from its memory cgroup, 7 from summed PSS' \
		"$tmp/ms.svg" || bad+=" scaling-note"
	grep -q 'host memory, memory cgroups, else summed PSS (MiB)' "$tmp/ms.svg" || bad+=" scaling-axis-name"
	"$CVMBENCH" show --db "$db" --table memory --json > "$tmp/mt.json" 2>/dev/null
	[ "$($py -c 'import json, sys; t = json.load(open(sys.argv[1])); h = t["head"]
r = {x[0]: dict(zip(h, x)) for x in t["rows"]}
print(" ".join("%s:%s:%s:%s:%s" % (k, r[k]["host MiB"], r[k]["source"], r[k]["PSS MiB"],
	r[k]["PSS agrees with cgroup"]) for k in ("t-pyaes-4", "t-pyaes-5")))' "$tmp/mt.json" 2>/dev/null)" = \
		"t-pyaes-4:390.6:pss:390.6:- t-pyaes-5:878.9:memcg:400.4:NO" ] || bad+=" table"
	echo "${bad:-ok}"
}
is "$(memcg_check "$tmp/cg.db")" ok \
	"a cell with a cgroup figure is drawn and tabled at it, the others at PSS, the mix noted"
"$CVMBENCH" show --db "$tmp/cg.db" > "$tmp/show.txt" 2>&1
grep -q "t-pyaes-5 probe hostmem flag_memcg_pss_disagree: summed PSS and the VMs' memory cgroups differ by more than 10 % (PSS -54.4 % of the cgroup figure" "$tmp/show.txt"
is "$?" 0 "show: flag_memcg_pss_disagree listed with its meaning and the difference"
"$CVMBENCH" report "$tmp/rep" --db "$tmp/cg.db" >/dev/null 2>&1
grep -q 'Host memory mixes two sources: 1 cell drawn from its memory cgroup, 7 from summed PSS' \
	"$tmp/rep/index.md" && grep -q 'flag\\_memcg\\_pss\\_disagree | summed PSS and the VMs' "$tmp/rep/index.md" &&
	grep -q '| PSS saving vs ksm off MiB | converged |' "$tmp/rep/index.md"
is "$?" 0 "the report: the mix noted under the memory figures, the flag in its flags, every column of the memory table"
# every cell with its cgroup figure: no note, the axis names the cgroups
args=()
for i in "${!cells[@]}"; do
	IFS=: read -r conf ksm got kb <<< "${cells[$i]}"
	args+=(--metric "$i:memcg_usage_kb=$((kb + 1024))")
done
mkdb "$tmp/all.db" "" "${args[@]}"
"$CVMBENCH" plot memory-mixed --db "$tmp/all.db" --out "$tmp/all.svg" >/dev/null 2>&1
is "$?:$(grep -c 'mixes two sources' "$tmp/all.svg"):$(grep -c 'host memory, memory cgroups (MiB)' "$tmp/all.svg")" \
	"0:0:1" "every cell with a cgroup figure: the axis says memory cgroups, no note of a mix"
"$CVMBENCH" show --db "$tmp/all.db" --table memory --json | $py -c 'import json, sys
t = json.load(sys.stdin); print(sorted(set(r[t["head"].index("source")] for r in t["rows"])))' > "$tmp/src"
is "$(cat "$tmp/src")" "['memcg']" "every cell with a cgroup figure: each row's source memcg"
# the checks can fail: the same cells without the cgroup figure draw PSS
r=$(memcg_check "$tmp/new.db")
case "$r" in
*overhead-memcg*scaling-axis*scaling-note*table*) _tap 0 "the host memory checks catch PSS drawn for a cgroup cell ($r)" ;;
*) _tap 1 "the host memory checks catch PSS drawn for a cgroup cell ($r)" ;;
esac

# memory acceptance: cell I = confidential:guest-accept:PSS kB, all ksm off
acc=(none:-:100000 model:eager:300000 model:lazy:120000 sev-snp:eager:400000
	sev-snp:lazy:150000)
mkacc() {   # DB [no-accept]
	local i args=()
	for i in "${!acc[@]}"; do
		IFS=: read -r conf accept kb <<< "${acc[$i]}"
		args+=(--set "$i:confidential=$conf" --set "$i:ksm=off" --hostmem "$i:$kb")
		[ "$conf" != none ] && args+=(--set "$i:guest.cvm.type=${conf/model/none}")
		[ "$accept" != - ] && [ -z "${2:-}" ] && args+=(--set "$i:guest-accept=$accept")
	done
	$py tests/system/compare-db.py "$1" --workloads pyaes --repeats ${#acc[@]} --n 20 \
		--cell backend=qemu "${args[@]}"
}
accept_check() {   # DB: "ok", or what is wrong with the acceptance series
	local bad="" name
	"$CVMBENCH" plot memory-scaling --db "$1" --out "$tmp/a.svg" >/dev/null 2>&1 || bad+=" rc"
	for name in "ksm off" "model eager" "model lazy" "sev-snp eager" "sev-snp lazy"; do
		grep -q ">$name<" "$tmp/a.svg" || bad+=" no-line[$name]"
	done
	[ "$(grep -c '>N=1<' "$tmp/a.svg"):$(grep -c '>N=2<' "$tmp/a.svg")" = 5:0 ] || bad+=" N"
	echo "${bad:-ok}"
}
mkacc "$tmp/acc.db"
is "$(accept_check "$tmp/acc.db")" ok \
	"eager and lazy model and sev-snp cells: a line each (model eager, model lazy, ...)"
is "$("$CVMBENCH" show --db "$tmp/acc.db" --table memory --json | $py -c 'import json, sys
t = json.load(sys.stdin); h = t["head"]
print(" ".join("%s:%s" % (r[h.index("confidential")], r[h.index("host MiB")]) for r in t["rows"]))')" \
	"none:97.7 model eager:293.0 model lazy:117.2 sev-snp eager:390.6 sev-snp lazy:146.5" \
	"the memory table names each cell's acceptance point, with its own host memory"
"$CVMBENCH" compare --db "$tmp/acc.db" --json > "$tmp/ac.json"
is "$($py -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(sorted((p["side"], p["kind"], p["series"], p["base_cells"][0]["cell_key"], p["cells"][0]["cell_key"]) for p in d["pairs"]))' "$tmp/ac.json")" \
	"[('model', 'model overhead', 'model', 't-pyaes-0', 't-pyaes-1'), ('model lazy', 'model overhead', 'model lazy', 't-pyaes-0', 't-pyaes-2'), ('sev-snp', 'CVM overhead', 'sev-snp', 't-pyaes-0', 't-pyaes-3'), ('sev-snp lazy', 'CVM overhead', 'sev-snp lazy', 't-pyaes-0', 't-pyaes-4')]" \
	"compare: both acceptance points paired with the one regular twin, the lazy one its own side"
mkacc "$tmp/acc-old.db" no-accept
r=$(accept_check "$tmp/acc-old.db")
case "$r" in
*'no-line[model eager]'*'no-line[sev-snp lazy]'*' N') _tap 0 "without guest-accept the same cells draw one line per type, so the check can fail ($r)" ;;
*) _tap 1 "without guest-accept the same cells draw one line per type, so the check can fail ($r)" ;;
esac

# the checks can fail: CVM cells in the regular series (what a regular guest gives)
cells=(none:on:none:100000 none:off:none:200000 model:off:none:300000 model:on:none:310000
	sev-snp:off:none:400000 sev-snp:on:none:410000 tdx:off:none:500000 tdx:on:none:510000)
mkdb "$tmp/mixed.db"
r=$(series_check "$tmp/mixed.db")
case "$r" in
*'no-line[sev-snp]'*'scaling-N'*) _tap 0 "the checks catch CVM cells drawn in the regular series ($r)" ;;
*) _tap 1 "the checks catch CVM cells drawn in the regular series ($r)" ;;
esac
