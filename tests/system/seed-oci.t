#!/bin/bash
# seed-oci.t - runc and crun cells with a seed-layer (issue 33): one seed
# container per cell, each instance a fork inside it. Checked against counts
# the test makes itself: 4 cold calls give 4 seed_start rows, each with its
# fork, init and first call measured; a cell of 3 instances gives the
# seed_memory rows of 1, 2 and 3 ready children before the calls and of the
# 3 after them, every pid one the host's /proc knows (not a container's
# own number: no two cells' children share one); the same run with each
# child writing 4096 kB of fresh pages (CVMFN_ZYGOTE_TOUCH_KB, passed into
# the container) makes the children's Private_Dirty grow by those 4096 kB
# within two pages; 300 cold starts (more than the 256 children the backend
# can hold unreported) all store the pid the harness knew each instance by on
# this machine; and no container, cgroup or bundle is left after the run.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
PER=5
N=$((2 + 2 * PER + 4))
plan $N
[ "$(id -u)" = 0 ] || skip_all $N "needs root"
command -v sqlite3 >/dev/null || skip_all $N "no sqlite3"
rts=
for rt in runc crun; do command -v $rt >/dev/null && rts="$rts${rts:+, }$rt"; done
[ -n "$rts" ] || skip_all $N "neither runc nor crun is installed"
tmp=$(mktemp -d)
trap '"$CVMBENCH" restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export CVMBENCH_DATA_DIR=$tmp/data CVMBENCH_STATE_DIR=$tmp/state
"$CVMFN" prepare matmul >/dev/null

# what has no meaning with one container per cell: list says why, no run needed
mkdir -p "$tmp/cfgs"
printf '[experiment p]\nworkload = matmul\nbackend = runc\nseed-layer = warm\npin = core\n
[experiment q]\nworkload = matmul\nbackend = runc\nseed-layer = bare\ncgroup-pool = 4\n' >"$tmp/cfgs/p.ini"
is "$("$CVMBENCH" list --configs "$tmp/cfgs" 2>&1 | grep -c -e "p.ini:p .*with pin = core: the children fork in the seed's container" \
	-e "p.ini:q .*there is no start to take a pooled cgroup")" 2 \
	"seed-layer with pin or cgroup-pool: not supported, saying why"

cat >"$tmp/s.ini" <<INI
[defaults]
workload = matmul
backend = $rts
size = test
threads = 1
warmup = 0

[experiment cold]
seed-layer = runtime
mode = cold
invocations = 4

[experiment mem]
seed-layer = warm
instances = 3
invocations = 3
INI
"$CVMBENCH" -q run "$tmp/s.ini" --db "$tmp/a.db" 2>"$tmp/err" & runs=$!
wait $runs
is "$?" 0 "a run of seeded $rts cells" || sed 's/^/# /' "$tmp/err"
CVMFN_ZYGOTE_TOUCH_KB=4096 "$CVMBENCH" -q run "$tmp/s.ini" --db "$tmp/b.db" 2>"$tmp/err" &
runs="$runs $!"
wait $!
is "$?" 0 "the same run, each child writing 4096 kB more" || sed 's/^/# /' "$tmp/err"

# q DB RUNTIME EXPERIMENT SQL-AFTER-FROM: SQL on the rows of one cell (c.id)
cell() {
	echo "(SELECT c.id FROM cell c JOIN cell_param p ON p.cell_id = c.id AND
		p.key = 'backend' AND p.value = '$1' WHERE c.experiment = '$2')"
}
for rt in runc crun; do
	if ! command -v $rt >/dev/null; then skip_rest $PER "$rt is not installed"; continue; fi
	a=$tmp/a.db
	is "$(sqlite3 "$a" "SELECT count(*) FROM seed_start WHERE cell_id = $(cell $rt cold)
		AND layer = 'runtime' AND fork_ns > 0 AND init_ns > 0 AND first_call_ns > 0")" 4 \
		"$rt: 4 cold calls, 4 start splits from the seed container"
	is "$(sqlite3 "$a" "SELECT group_concat(children || '/' || called, ' ') FROM (SELECT
		children, called FROM seed_memory WHERE cell_id = $(cell $rt mem)
		ORDER BY called, children, pid)")" "1/0 2/0 2/0 3/1 3/1 3/1" \
		"$rt: memory rows of 1, 2 ready children before the third fork, 3 after the calls"
	is "$(sqlite3 "$a" "SELECT count(*) FROM seed_memory WHERE cell_id = $(cell $rt mem)
		AND pss_kb > 0 AND uss_kb > 0 AND private_dirty_kb > 0 AND seed_shared_kb >= 0
		AND seed_pss_kb > 0")" 6 "$rt: every memory row measured (PSS, USS, Private_Dirty, seed frames)"
	mean() {
		sqlite3 "$1" "SELECT round(avg(private_dirty_kb)) FROM seed_memory WHERE
			cell_id = $(cell $rt mem) AND called = 1"
	}
	da=$(mean "$tmp/a.db"); db=$(mean "$tmp/b.db"); da=${da%.0}; db=${db%.0}
	d=$(( ${db:-0} - ${da:-0} ))
	ok "$d" -ge 4088 "$rt: Private_Dirty grew by $d kB ($da -> $db) with 4096 kB written, at least 4088"
	ok "$d" -le 4104 "$rt: ... and at most 4104"
done
is "$(sqlite3 "$tmp/a.db" "SELECT count(DISTINCT pid) FROM seed_memory WHERE pid > 1")" \
	"$(sqlite3 "$tmp/a.db" "SELECT count(*) FROM (SELECT DISTINCT cell_id, pid FROM seed_memory)")" \
	"the children's pids are this machine's, not their containers' (no two cells share one)"
# more starts than children the backend can hold unreported: every start's
# pid still the one the instance had here (instance.pid), never a container's
rt=${rts%%,*}
printf '[experiment many]\nworkload = hello-world\nbackend = %s\nsize = test\nseed-layer = runtime\nmode = cold\ninvocations = 300\nwarmup = 0\n' \
	"$rt" >"$tmp/m.ini"
"$CVMBENCH" -q run "$tmp/m.ini" --db "$tmp/m.db" 2>"$tmp/err" & runs="$runs $!"
wait $!
is "$(sqlite3 "$tmp/m.db" "SELECT count(*), sum(s.pid IN (SELECT pid FROM instance))
	FROM seed_start s" | tr '|' ' ')" "300 300" \
	"$rt: 300 cold starts, each start's pid the instance's pid on this machine"
# the runs' containers are named cvmbench-PID-N, PID the run's
left=$( (runc list 2>/dev/null; crun list 2>/dev/null) | grep -F "$CVMBENCH_STATE_DIR"
	for r in $runs; do ls -d /sys/fs/cgroup/*/cvmbench-$r-* /sys/fs/cgroup/cvmbench-$r-*; done 2>/dev/null
	pgrep -f "^/cvmfn seed matmul .*--data-dir /data"   # a seed in a container
	ls "$CVMBENCH_STATE_DIR/oci" 2>/dev/null)
is "${left:-none}" none "no container, cgroup, seed or bundle left after the runs"
