#!/bin/bash
# tests/system/halt-poll.t - the halt-poll-ns dimension (bench/knobs/
# knob-halt-poll.c) with the real tool: a bad value is exit 2 naming
# file:line; a machine without the kvm module (a fake root through
# CVMBENCH_SYSROOT) lists the cells as not runnable, with the reason. Then
# on a fake root whose kvm halt_poll_ns is writable (a host lock of the
# test's own: it touches no host setting), and again on this host where
# /sys/module/kvm/parameters/halt_poll_ns is writable: a run sets the value
# for its cell, records what it changed in cell_param and puts the old
# value back at the end; kill -9 mid-cell leaves it changed and `cvmbench
# restore` puts it back (the journal-kill pattern of journal-kill.t). A
# host whose parameter is read-only (mode 0444, as on this machine's
# kernel) must list the cells as not runnable, saying so; the host part is
# a SKIP with the reason where it cannot run.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=17
plan $N
tmp=$(mktemp -d)
HP=/sys/module/kvm/parameters/halt_poll_ns
trap 'cleanup_restored "$tmp" "$tmp/state"' EXIT
export CVMBENCH_DATA_DIR=$tmp/data
mkdir -p "$tmp/cfg" "$tmp/fake/sys/module" "$tmp/state" "$tmp/fstate"

printf '[experiment bad]\nworkload = null\nhalt-poll-ns = 5us\n' > "$tmp/bad.ini"
CVMBENCH_STATE_DIR=$tmp/state ./cvmbench run "$tmp/bad.ini" --dry-run >/dev/null 2>"$tmp/err"
is "$?" 2 "halt-poll-ns = 5us: exit 2"
grep -q "bad.ini:3: bad value '5us' for halt-poll-ns" "$tmp/err"; is $? 0 "naming file:line" ||
	sed 's/^/# /' "$tmp/err"

printf '[experiment hp]\nworkload = null\nhalt-poll-ns = 0, 50000\n' > "$tmp/cfg/hp.ini"
CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_SYSROOT=$tmp/fake \
	./cvmbench list --configs "$tmp/cfg" > "$tmp/out" 2>&1
grep -q "hp.ini:hp .*halt-poll-ns = 0: the kvm module is not loaded" "$tmp/out"; is $? 0 \
	"no kvm module: the cells are not runnable, with the reason" || sed 's/^/# /' "$tmp/out"

# checks WHERE FILE: 7 checks of a run and a killed run; FILE is the
# parameter as this shell sees it (under the fake root, or $HP).
checks() {
	local where=$1 file=$2 before new run seen i db=$tmp/$1.db
	before=$(cat "$file")
	new=$((before == 77777 ? 77778 : 77777))
	printf '[experiment hp]\nworkload = null\ninvocations = 3\nwarmup = 0\nhalt-poll-ns = %s\n' \
		"$new" > "$tmp/one.ini"
	./cvmbench run "$tmp/one.ini" --db "$db" >/dev/null 2>"$tmp/err"
	is "$?" 0 "$where: a run with halt-poll-ns = $new exits 0" || sed 's/^/# /' "$tmp/err"
	is "$(sqlite3 "$db" "SELECT value FROM cell_param WHERE key = 'halt-poll-ns.applied'")" \
		"$new (was $before)" "$where: cell_param halt-poll-ns.applied says what it changed"
	is "$(cat "$file")" "$before" "$where: after the run, halt_poll_ns is $before again"
	# a cell far longer than the wait (400 calls ended between two polls under
	# load): it is killed as soon as the poll sees it running
	printf '[experiment hpk]\nworkload = hello-world\ninvocations = 200000\nwarmup = 0\nhalt-poll-ns = %s\n' \
		"$new" > "$tmp/k.ini"
	./cvmbench run "$tmp/k.ini" --db "$db" 2>"$tmp/err" & run=$!
	seen=1
	for ((i = 0; i < 600; i++)); do
		[ "$(cat "$file")" = "$new" ] && [ "$(sqlite3 "$db" "SELECT count(*) FROM invocation i
			JOIN cell c ON c.id = i.cell_id WHERE c.experiment = 'hpk'" 2>/dev/null)" \
			-ge 2 ] 2>/dev/null && { seen=0; break; }
		sleep 0.05
	done
	kill -9 $run; wait $run 2>/dev/null
	is "$seen/$(cat "$file")" "0/$new" "$where: killed mid-cell, halt_poll_ns left at $new"
	./cvmbench restore >"$tmp/restore" 2>&1
	is "$?" 0 "$where: cvmbench restore exits 0" || sed 's/^/# /' "$tmp/restore"
	is "$(cat "$file")" "$before" "$where: after restore, halt_poll_ns is $before, byte for byte"
	is "$(sqlite3 "$db" "SELECT status FROM run ORDER BY id DESC LIMIT 1")" "interrupted" \
		"$where: the killed run is marked interrupted"
}

command -v sqlite3 >/dev/null || skip_all $((N - 3)) "no sqlite3"
mkdir -p "$tmp/fake/sys/module/kvm/parameters"
echo 200000 > "$tmp/fake$HP"
# the fake root fakes /sys only: the cell's noise record reads the real /proc
ln -s /proc "$tmp/fake/proc"
CVMBENCH_STATE_DIR=$tmp/fstate CVMBENCH_SYSROOT=$tmp/fake \
	CVMBENCH_TEST_HOST_LOCK=$tmp/lock checks "fake root" "$tmp/fake$HP"

why=
[ "$(id -u)" = 0 ] || why="needs root"
[ -z "$why" ] && [ ! -e $HP ] && why="no $HP on this host"
# root may write what -w says; a kernel can make the parameter 0444
[ -z "$why" ] && [ $((0$(stat -c %a $HP) & 0222)) = 0 ] &&
	why="$HP is read-only here (mode $(stat -c %a $HP))"
# a read-only /sys (a container): access(2) says EROFS even to root
[ -z "$why" ] && [ ! -w $HP ] && why="$HP is not writable here (read-only file system)"
if [ -n "$why" ] && [ -e $HP ] && [ "$(id -u)" = 0 ]; then
	CVMBENCH_STATE_DIR=$tmp/state ./cvmbench list --configs "$tmp/cfg" > "$tmp/out" 2>&1
	grep -Eq "hp.ini:hp .*halt-poll-ns = 0: ($HP is read-only on this kernel|cannot write $HP: Read-only file system)" "$tmp/out"
	is $? 0 "this host: $why, and list says so" || sed 's/^/# /' "$tmp/out"
	skip_rest 6 "this host: $why"; exit 0
fi
if [ -n "$why" ]; then skip_rest 7 "this host: $why"; exit 0; fi
CVMBENCH_STATE_DIR=$tmp/state checks "this host" $HP
