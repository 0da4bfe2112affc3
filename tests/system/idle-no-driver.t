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

plan 15
why=
[ -x ./cvmbench ] || why="cvmbench not built"
command -v sqlite3 > /dev/null || why="no sqlite3"
if [ -n "$why" ]; then skip_rest 14 "$why"; exit 0; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CVMBENCH_SYSROOT_B=$PWD/tests/fixtures/machines/B-pvm-no-cpuidle/root
export CVMBENCH_SYSROOT=$CVMBENCH_SYSROOT_B
export CVMBENCH_STATE_DIR=$tmp/state
check_no_driver "$tmp" "test root"

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
