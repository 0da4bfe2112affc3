#!/bin/bash
# tests/system/idle-no-driver.t - the idle experiments where there is no
# cpuidle driver, on every machine: the tool's detection reads machine B's
# captured tree (tests/fixtures/machines/B-pvm-no-cpuidle, through
# CVMBENCH_SYSROOT) while the cells run here. poll cannot be chosen: its
# cell is skipped before it costs anything, with the reason `list` gives;
# hlt is measured as it is ("hlt, no cpuidle driver"); spin keeps the CPUs
# busy and is stored as spin; the idle probe without cpuidle states is a
# skip with its exact reason. Needs no root. As root, where tracefs is
# mounted: the same tree with the real tracefs in its mount table, so the
# idle probe's power:cpu_idle check (a sleeper pinned to each CPU) runs on
# this kernel and decides: entries from the events, or the skip with the
# counts per CPU.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/idle-nodrv-lib.sh

plan 17
why=
[ -x ./cvmbench ] || why="cvmbench not built"
command -v sqlite3 > /dev/null || why="no sqlite3"
if [ -n "$why" ]; then skip_rest 17 "$why"; exit 0; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CVMBENCH_SYSROOT_B=$PWD/tests/fixtures/machines/B-pvm-no-cpuidle/root
export CVMBENCH_SYSROOT=$CVMBENCH_SYSROOT_B
export CVMBENCH_STATE_DIR=$tmp/state
check_no_driver "$tmp" "test root"

# cells skipped for different reasons: list gives each reason with its
# count, the reasons run stores (poll and haltpoll fail differently here)
mkdir "$tmp/ip"
cp configs/idle-policy.ini "$tmp/ip/"
./cvmbench list --json --configs "$tmp/ip" > "$tmp/ip.json"
reasons() {
	python3 -c 'import json,sys
for e in json.load(open(sys.argv[1]))["experiments"]:
    if e["name"] == sys.argv[2]:
        for r in e.get("unsupported_reasons", []):
            print(r["cells"], r["reason"])' "$@" | sort
}
got=$(reasons "$tmp/ip.json" idle-policy.ini:idle-policy)
./cvmbench list --configs "$tmp/ip" > "$tmp/ip.txt"
text=$(grep -F 'idle-policy.ini:idle-policy ' "$tmp/ip.txt")
case "$got/$text" in
"1 idle = haltpoll:200000: "*"
1 idle = poll: "*"/"*"2 of 4 cells not here: idle = poll: "*"(1 cell); idle = haltpoll:200000: "*"(1 cell)") is ok ok "list: each distinct reason with its count (--json and text)" ;;
*) is "$got/$text" "1 haltpoll reason, 1 poll reason" "list: each distinct reason with its count (--json and text)" ;;
esac
mkdir "$tmp/ip2"
cat > "$tmp/ip2/r.ini" <<'INI'
[experiment r]
workload = hello-world
invocations = 2
warmup = 0
probes = latency
idle = hlt, poll, haltpoll:200000
threads = 1, 2
INI
./cvmbench list --json --configs "$tmp/ip2" > "$tmp/ip2.json"
./cvmbench run "$tmp/ip2/r.ini" --db "$tmp/ip2.db" 2> "$tmp/ip2.err"
got=$(reasons "$tmp/ip2.json" r.ini:r)
case "$got" in
"2 idle = haltpoll:200000: "*"
2 idle = poll: "*) ;;
*) got="not two reasons of 2 cells each: $got" ;;
esac
is "$got" \
	"$(sqlite3 "$tmp/ip2.db" "SELECT count(*), reason FROM skip WHERE probe IS NULL GROUP BY reason" | sed 's/|/ /' | sort)" \
	"list's reasons and counts are the ones run stores"

unset CVMBENCH_SYSROOT
trline=$(awk '$(NF-2) == "tracefs"' /proc/self/mountinfo | head -1)
if [ "$(id -u)" != 0 ]; then
	skip_rest 3 "needs root (power:cpu_idle in a tracefs instance)"
	exit 0
elif [ -z "$trline" ] || ./cvmbench list 2>/dev/null | grep -q 'built without libtracefs'; then
	skip_rest 3 "tracefs is not mounted here, or cvmbench is built without libtracefs"
	exit 0
fi
mkdir "$tmp/root"
cp -R "$CVMBENCH_SYSROOT_B/." "$tmp/root/"
echo "$trline" >> "$tmp/root/proc/self/mountinfo"
export CVMBENCH_SYSROOT=$tmp/root
cat > "$tmp/w.ini" <<'INI'
[experiment idle-wake]
workload = hello-world
invocations = 20
probes = latency, idle
idle = spin, hlt
INI
./cvmbench run "$tmp/w.ini" --db "$tmp/w.db" 2> "$tmp/w.err"
cell=$(sqlite3 "$tmp/w.db" "SELECT c.id FROM cell c JOIN cell_param p ON p.cell_id = c.id AND p.key = 'idle' WHERE p.value = 'hlt'")
spin=$(sqlite3 "$tmp/w.db" "SELECT c.id FROM cell c JOIN cell_param p ON p.cell_id = c.id AND p.key = 'idle' WHERE p.value = 'spin'")
is "$(sqlite3 "$tmp/w.db" "SELECT reason FROM skip WHERE cell_id = $spin AND probe = 'idle'")" \
	"idle entries: no cpuidle states (cpuidle driver 'none'), and idle = spin keeps every CPU busy, so whether power:cpu_idle fires on every CPU cannot be checked in this cell" \
	"spin first: the power:cpu_idle check is not made (nor kept) while every CPU is busy"

src=$(sqlite3 "$tmp/w.db" "SELECT value FROM cell_param WHERE cell_id = $cell AND key = 'idle.entries_source'")
skipwhy=$(sqlite3 "$tmp/w.db" "SELECT reason FROM skip WHERE cell_id = $cell AND probe = 'idle'")
is "$(sqlite3 "$tmp/w.db" "SELECT status FROM cell WHERE id = $cell")" ok "the hlt cell ran with the real tracefs"
pre="idle entries: no cpuidle states (cpuidle driver 'none'), and power:cpu_idle does not fire on every CPU: with a sleeper pinned to each CPU for 1000 ms it fired "
if [ -n "$src" ]; then
	is "$src/$(sqlite3 "$tmp/w.db" "SELECT count(*) FROM metric WHERE cell_id = $cell AND name = 'idle_entries' AND invocation_id IS NULL")" \
		"tracefs power:cpu_idle (no cpuidle driver; it fired on every CPU under a pinned sleeper)/1" \
		"power:cpu_idle fired on every CPU: it is the entries' source"
else
	case "$skipwhy" in
	"$pre"*) is ok ok "power:cpu_idle did not fire on every CPU: skip with the counts ($skipwhy)" ;;
	*) is "$skipwhy" "$pre..." "power:cpu_idle did not fire on every CPU: skip with the counts" ;;
	esac
fi
