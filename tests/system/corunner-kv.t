#!/bin/bash
# tests/system/corunner-kv.t - corunner-kind = kv (bench/knobs/corunner-kv.c):
# cvmbench's own redis-server on a loopback port, with its own directory,
# under redis-benchmark load. While a cell runs, the server answers our own
# redis-cli and counts the commands it processed (its INFO, independent of
# the benchmark's CSV); with corunner-pin = core the server runs on core 0's
# CPUs and the load on core 1's (/proc against the kernel's
# thread_siblings_list); the cell stores the requests/s achieved (> 0; which
# rounds count, those ended within the cell window, and the requests-over-time
# arithmetic are tested in tests/unit/corunner-kv.c) or, when no round ended
# even in the window widened by 30 s, a skip row saying so; a window too short
# for any round (two null calls) is widened;
# server, driver, benchmark and directory are gone after the cell and after
# kill -9 of the run and `cvmbench restore`, the journal empty; a redis-server
# running before the test (the system's) still runs after it; without redis
# in PATH the cell is skipped with the reason. Missing redis: SKIP (a
# failure under CI).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap '$CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data TMPDIR=$tmp

N=12
plan $N
for t in redis-server redis-benchmark redis-cli sqlite3; do
	command -v $t >/dev/null || skip_all $N "$t is not installed (Debian: redis-server, redis-tools)"
done
sys=/sys/devices/system/cpu
# running redis-servers (not zombies: a killed one waits for init to reap it)
servers() { ps -C redis-server -o pid=,stat= | awk '$2 !~ /^Z/ { print $1 }' | sort; }
before=$(servers)

ini() {
	cat > "$tmp/$1.ini" <<INI
[experiment $1]
workload = null
corunner = 4
corunner-kind = kv
corunner-pin = ${2:-none}
invocations = ${3:-400000}
wait = block
warmup = 0
INI
}
# the children of process $1 named $2
kids() { ps -o pid=,comm= --ppid "$1" 2>/dev/null | awk -v c="$2" '$2 == c { print $1 }'; }
# start a run of $1.ini; sets run, srv (redis-server), drv (the driver) and port
start() {
	$CVMBENCH run "$tmp/$1.ini" --db "$tmp/$1.db" --wait-lock 600 2>"$tmp/$1.err" & run=$!
	srv= drv= port=
	for _ in $(seq 400); do
		srv=$(kids "$run" redis-server | head -1)
		drv=$(kids "$run" cvmbench | head -1)
		[ -n "$srv" ] && [ -n "$drv" ] && [ -n "$(kids "$drv" redis-benchmark)" ] && break
		sleep 0.05
	done
	# redis-server sets its title to "redis-server 127.0.0.1:PORT"
	port=$(tr '\0' ' ' < /proc/$srv/cmdline 2>/dev/null | sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p')
}
gone() { local p; for p; do [ -d /proc/$p ] && [ "$(ps -o stat= -p $p)" != Z ] && { echo "$p runs"; return; }; done; echo gone; }

# the CPUs process $1 may run on, from /proc (empty once it has ended)
cpus_of() { awk '/^Cpus_allowed_list/ { print $2 }' /proc/$1/status 2>/dev/null; }
ini pin core
start pin
cpus_srv=$(cpus_of "$srv")
# a benchmark round lasts milliseconds: catch one and read its CPUs before it ends
bench= cpus_bench=
for _ in $(seq 200); do
	bench=$(kids "$drv" redis-benchmark | head -1)
	[ -n "$bench" ] && cpus_bench=$(cpus_of "$bench") && [ -n "$cpus_bench" ] && break
	sleep 0.01
done
sleep 1
cmds=$(redis-cli -h 127.0.0.1 -p "${port:-1}" info stats 2>/dev/null |
	awk -F: '/^total_commands_processed/ { print $2 + 0 }')
dir=$(ls -d "$tmp"/cvmbench-kv-* 2>/dev/null)
kill -INT "$run"; wait "$run"
echo "# port $port, server $srv on CPUs $cpus_srv, benchmark $bench on CPUs $cpus_bench"
ok "${port:-0}" -gt 0 "a redis-server of the cell's own on a loopback port ($port)"
ok "${cmds:-0}" -gt 1000 "it is under load: it processed $cmds commands (its own INFO, our redis-cli)"
core0=$(cat $sys/cpu0/topology/thread_siblings_list)
if [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
	expand() { local p; for p in ${1//,/ }; do seq "${p%-*}" "${p#*-}"; done; }
	first1=$(expand "$(cat $sys/online)" | grep -vxF -f <(expand "$core0") | head -1)
	is "$cpus_srv/$cpus_bench" "$core0/$(cat $sys/cpu$first1/topology/thread_siblings_list)" \
		"corunner-pin = core: the server on core 0, the load on core 1 (/proc)"
else
	skip "one CPU: no second core for the load"
fi
# kv_result DB: "rps RPS widened MS" when the cell stored requests/s, "skip:
# REASON" when it stored a skip row for the co-runner instead, both or neither
# as they are
kv_result() {
	local r w k
	r=$(sqlite3 "$1" "SELECT value FROM cell_param WHERE key = 'corunner.kv_requests_per_s'")
	w=$(sqlite3 "$1" "SELECT value FROM cell_param WHERE key = 'corunner.kv_widened_ms'")
	k=$(sqlite3 "$1" "SELECT reason FROM skip WHERE probe = 'corunner' AND reason LIKE '%the cell window%'")
	echo "${r:+rps $r widened $w}${k:+skip: $k}"
}
res=$(kv_result "$tmp/pin.db")
echo "# $res"
unmeasured="skip: corunner-kind = kv: no redis-benchmark round ended within the cell window, nor within 30 s after it (a round is 2000 SETs, then as many GETs)"
ok "$(awk -v r="$res" -v u="$unmeasured" 'BEGIN { print (r == u || r ~ /^rps [0-9.]+ widened [0-9]+$/ && (split(r, f, " ") && f[2] > 0)) }')" = 1 \
	"the cell stores the requests/s redis-benchmark achieved and how far its window was widened, or a skip row saying no round ended"
alone=$(sqlite3 "$tmp/pin.db" "SELECT value FROM cell_param WHERE key = 'corunner.kv_alone_requests_per_s'")
alone_skip=$(sqlite3 "$tmp/pin.db" "SELECT count(*) FROM skip WHERE probe = 'corunner' AND reason LIKE '%window alone%'")
ok "$(awk -v a="${alone:-0}" -v k="$alone_skip" 'BEGIN { print ((a > 0) != (k == 1)) ? 1 : 0 }')" = 1 \
	"the co-runner's load alone, before the instances: requests/s (${alone:-none}) or a skip row saying no round ended (${alone_skip}), one of the two"
# the benchmark round dies with its driver (PR_SET_PDEATHSIG): a moment after it
for _ in $(seq 50); do [ "$(gone $srv $drv $bench)" = gone ] && break; sleep 0.1; done
is "$(gone $srv $drv $bench)/$(wc -c < "$tmp/state/journal")/$([ -e "$dir" ] && echo "$dir" || echo none)" \
	"gone/0/none" "after the cell: server, driver, benchmark gone, journal empty, directory removed"

ini kill
start kill
bench=$(kids "$drv" redis-benchmark | head -1)
kill -9 "$run"; wait "$run" 2>/dev/null
$CVMBENCH restore --wait-lock 600 >"$tmp/restore.out" 2>&1; rc=$?
sed 's/^/# /' "$tmp/restore.out"
for _ in $(seq 50); do [ "$(gone $srv $drv $bench)" = gone ] && break; sleep 0.1; done
is "$rc/$(gone $srv $drv $bench)" "0/gone" "after kill -9 of the run and restore: all gone"
is "$(wc -c < "$tmp/state/journal")/$(ls -d "$tmp"/cvmbench-kv-* 2>/dev/null | wc -l)" "0/0" \
	"... the journal empty and the directory removed"
ok "$srv" != "" "(the killed run had started its server)"

# ours ran in directories under $tmp (their cwd is --dir); others' (another
# test on a shared machine) come and go as they like
ours=$(for p in $(servers); do readlink "/proc/$p/cwd" 2>/dev/null | grep -q "^$tmp/" && echo "$p"; done)
is "$(comm -23 <(echo "$before" | sed "/^$/d") <(servers) | tr '\n' ' ')/$ours" "/" \
	"the redis-servers that ran before the test (the system's) still run, none of ours is left"

ini short none 2
PATH=/nonexistent $CVMBENCH run "$tmp/short.ini" --db "$tmp/nopath.db" --wait-lock 600 2>/dev/null; rc=$?
is "$rc $(sqlite3 "$tmp/nopath.db" "SELECT reason FROM skip")" \
	"3 corunner-kind = kv: redis-server not found (Debian package redis-server)" \
	"no redis-server in PATH: the cell is skipped, naming the package"
$CVMBENCH run "$tmp/short.ini" --db "$tmp/short.db" --wait-lock 600 2>/dev/null
# a window of two null calls (well under a millisecond) holds no round's end
# (a round ending within it by chance: a failure here, once in thousands of runs)
res=$(kv_result "$tmp/short.db")
echo "# $res"
ok "$(awk -v r="$res" -v u="$unmeasured" 'BEGIN { print (r == u || (split(r, f, " ") == 4 && f[1] == "rps" && f[2] > 0 && f[4] > 0)) }')" = 1 \
	"a cell shorter than a benchmark round: its window widened to the first round's end (requests/s), or the skip row"
