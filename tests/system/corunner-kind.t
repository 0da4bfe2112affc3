#!/bin/bash
# tests/system/corunner-kind.t - the co-runner's kinds, sizes and placement:
# the buffer a `cache` or `memory` co-runner holds (its VmRSS, /proc) is the
# size the cell stores (cell_param corunner.size_bytes), and that size and its
# rule (corunner.size_rule) are what the documented rule gives for the LLC
# `cvmbench env` reports and the budget (min(MemTotal / 16, 256 MiB),
# /proc/meminfo), worked out here in awk: a cache the LLC's size, or the
# budget when the LLC is larger (machine B: CPUID says 508 MB); a memory
# buffer 2 x max(4 x LLC, 64 MiB), or the budget while its halves still
# exceed the LLC, or a skipped cell saying why. The same again on a topology
# with a small L3 (B's, tests/fixtures/machines/, its L3 set to 4 MiB, through
# HWLOC_XMLFILE), so both branches run on any machine. With corunner-pin = core
# its CPUs (Cpus_allowed_list) are core 0's as the kernel lists them; it is
# gone after the cell with an empty journal, and after kill -9 of the run and
# `cvmbench restore`; a cache the machine lacks is a skipped cell naming the
# co-runner.
# Timing: a co-runner faults its buffer in at the machine's pace (a busy PVM
# guest: ~250 MB/s); VmRSS is read once it has stopped growing (two readings
# 0.5 s apart), for at most 60 s.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap '$CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data

N=15
plan $N
$CVMBENCH env 2>/dev/null | grep -q '^topology.hwloc .*built without' &&
	skip_all $N "built without hwloc"
# skipped_cell KEYS LIKE TEXT: a one-cell run with a co-runner and KEYS (printf
# escapes) is skipped (exit 3) with one skip row whose reason is LIKE the pattern
skipped_cell() {
	local rc
	printf "[experiment sk]\nworkload = null\ninvocations = 2\nwarmup = 0\ncorunner = 1\n$1" > "$tmp/sk.ini"
	rm -f "$tmp/sk.db"
	$CVMBENCH run "$tmp/sk.ini" --db "$tmp/sk.db" --wait-lock 600 2>/dev/null; rc=$?
	is "$rc $(sqlite3 "$tmp/sk.db" "SELECT count(*) FROM skip WHERE reason LIKE '$2'")" "3 1" "$3"
}
# llc_kb: the LLC `cvmbench env` reports (the L3, else the L2), KiB; "" for none
llc_kb() {
	local l
	l=$($CVMBENCH env 2>/dev/null | awk '$1 == "topology.cache.l3" && $2 != "none" { print $2 }')
	[ -n "$l" ] || l=$($CVMBENCH env 2>/dev/null | awk '$1 == "topology.cache.l2" && $2 != "none" { print $2 }')
	echo "$l"
}
budget=$(awk '/^MemTotal:/ { b = $2 * 1024 / 16; m = 256 * 1048576; printf "%d\n", b < m ? b : m }' /proc/meminfo)
# expect KIND LLC_KB THREADS: "RULE BYTES" as the documented rule sizes the
# buffer of each thread, or "skip"
expect() {
	awk -v k="$1" -v l="${2:-0}" -v t="$3" -v b="$budget" 'BEGIN {
		M = 1048576; l *= 1024; each = int(b / t / 64) * 64
		if (k == "cache") {
			if (!l) { print "skip"; exit }
			if (l <= b) print "llc", int(l / t / 64) * 64; else print "budget", each
			exit
		}
		a = l ? l : 32 * M; w = 2 * (4 * a > 64 * M ? 4 * a : 64 * M)
		if (w <= int(b / t)) print (l ? "4x-llc" : "no-llc"), int(w / 64) * 64
		else if (each / 2 > a) print "budget", each
		else print "skip"
	}'
}
stored() { sqlite3 "$tmp/$1.db" "SELECT value FROM cell_param WHERE key = 'corunner.$2'"; }

ini() {
	cat > "$tmp/$1.ini" <<INI
[experiment $1]
; matmul calls of milliseconds: far longer than the test waits for (every run
; here is interrupted with Ctrl-C or killed), also on a fast machine
workload = matmul
size = test
corunner = 1
corunner-kind = $2
corunner-pin = ${3:-none}
invocations = 1000000
wait = block
warmup = 0
INI
}
# start a run of $1.ini; sets run (its pid) and co (the co-runner's pid: the
# child named cvmbench-corun, not a child forked to exec an instance)
start() {
	$CVMBENCH run "$tmp/$1.ini" --db "$tmp/$1.db" --wait-lock 600 2>"$tmp/$1.err" & run=$!
	co=
	for _ in $(seq 600); do
		co=$(ps -o pid=,comm= --ppid "$run" 2>/dev/null | awk '$2 == "cvmbench-corun" { print $1; exit }')
		[ -n "$co" ] && grep -q '^VmRSS' /proc/$co/status 2>/dev/null && break
		sleep 0.05
	done
}
# alive while it exists and is not a zombie (a killed run's child waits to be reaped)
running() {
	local st
	[ -n "$1" ] || { echo "never seen running"; return; }
	st=$(ps -o stat= -p "$1" 2>/dev/null)
	[ -n "$st" ] && [ "${st#Z}" = "$st" ] && echo alive || echo gone
}
# rss_kb PID: VmRSS once it stopped growing (at most 60 s)
rss_kb() {
	local a b=-1
	for _ in $(seq 120); do
		sleep 0.5
		a=$(awk '/^VmRSS/ { print $2 }' /proc/$1/status 2>/dev/null)
		[ -n "$a" ] && [ "$a" = "$b" ] && break
		b=$a
	done
	echo "${a:-0}"
}
# sized NAME KIND LLC_KB WHERE: the run NAME (ended) stored the rule and size
# the documented rule gives, and its VmRSS ($rss) holds that size
sized() {
	local want got
	want=$(expect "$2" "$3" 1)
	got="$(stored "$1" size_rule) $(stored "$1" size_bytes)"
	echo "# $4: LLC ${3:-none} KiB, budget $budget B: want '$want', stored '$got', VmRSS $rss kB"
	is "$got" "$want" "$4: a $2 co-runner's size and rule are the documented rule's (${want% *})"
	ok "$(awk -v r="$rss" -v s="${got#* }" 'BEGIN { s /= 1024; print (r >= 0.95 * s && r <= s + 16384) }')" \
		= 1 "$4: ... and it holds that size (VmRSS $rss kB, ${got#* } B)"
}

l3=$(llc_kb)
if [ -z "$l3" ]; then    # a machine capability: a skip (also under CI), the cell skipped
	skipped_cell 'corunner-kind = cache\n' 'corunner-kind = cache: hwloc knows no L2 or L3 cache here%' \
		"no L2/L3 known: a corunner-kind = cache cell is skipped, saying so"
	skip_rest $((N - 1)) "hwloc knows no L2 or L3 cache here"
	exit 0
fi

# --- this machine's topology (or the one HWLOC_XMLFILE gives) ---------------
ini cache cache core
start cache
rss=$(rss_kb "$co"); cpus=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/$co/status)
kill -INT "$run"; wait "$run"
sized cache cache "$l3" "here"
first=$(first_cpu)    # the tool's core 0: the first CPU of the cgroup's cpuset
is "$cpus" "$(cat /sys/devices/system/cpu/cpu$first/topology/thread_siblings_list)" \
	"corunner-pin = core: on the cpuset's first core's CPUs (cpu$first) as the kernel lists them"
is "$(running "$co")/$(wc -c < "$tmp/state/journal")" "gone/0" \
	"gone after the cell (Ctrl-C), the journal empty"

if [ "$(expect memory "$l3" 1)" = skip ]; then
	skipped_cell 'corunner-kind = memory\n' 'corunner-kind = memory: each half of a thread%s buffer would be %' \
		"here: a memory co-runner's budget cannot exceed the LLC ($l3 KiB): the cell is skipped, saying so"
	skip "here: no memory co-runner to measure (skipped)"
else
	ini memory memory
	start memory
	rss=$(rss_kb "$co")
	kill -INT "$run"; wait "$run"
	sized memory memory "$l3" "here"
fi

# --- B's topology with an L3 of 4 MiB: the rules' other branch ----------------
sed 's/type="L3Cache"\(.*\)cache_size="[0-9]*"/type="L3Cache"\1cache_size="4194304"/' \
	tests/fixtures/machines/B-pvm-no-cpuidle/topology.xml > "$tmp/small-l3.xml"
saved=$(declare -p HWLOC_XMLFILE HWLOC_THISSYSTEM 2>/dev/null)
export HWLOC_XMLFILE=$tmp/small-l3.xml HWLOC_THISSYSTEM=1
small=$(llc_kb)
is "$small" 4096 "a topology with a 4 MiB L3 (B's, edited; HWLOC_XMLFILE): cvmbench env reports it"
ini small-cache cache
start small-cache
rss=$(rss_kb "$co")
kill -INT "$run"; wait "$run"
sized small-cache cache "$small" "4 MiB L3"
ini small-memory memory
start small-memory
rss=$(rss_kb "$co")
kill -INT "$run"; wait "$run"
sized small-memory memory "$small" "4 MiB L3"
unset HWLOC_XMLFILE HWLOC_THISSYSTEM
eval "$saved"

# --- kill -9 of the run, restore ------------------------------------------------
ini kill cache
start kill
kill -9 "$run"; wait "$run" 2>/dev/null
$CVMBENCH restore --wait-lock 600 >"$tmp/restore.out" 2>&1; rc=$?
sed 's/^/# /' "$tmp/restore.out"
# restore's SIGKILL is sent, not waited for (the co-runner is not its child): a moment
for _ in $(seq 50); do [ "$(running "$co")" = gone ] && break; sleep 0.1; done
is "$rc/$(running "$co")" "0/gone" \
	"after kill -9 of the run and restore the co-runner is gone"
is "$(wc -c < "$tmp/state/journal")" 0 "and the journal is empty"

skipped_cell 'corunner-kind = cache\ncorunner-pin = llc:42\n' 'llc:42: this machine has % (co-runner)' \
	"a co-runner on a cache the machine lacks: the cell is skipped, saying so"
is "$(wc -c < "$tmp/state/journal")" 0 "a skipped co-runner leaves no journal entry"
