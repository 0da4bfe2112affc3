#!/bin/bash
# tests/system/slurm.t - `cvmbench slurm` against a real Slurm (issue 17):
# Debian's slurm-wlm, a one-node cluster made by this test in a directory of
# its own (munged on its own socket and key, slurmctld and slurmd on
# loopback on free ports, every state, spool, pid and log file inside it),
# never the machine's daemons or /etc/slurm. The config's 8 native cells in
# 3 shards are submitted with --submit: the array's 3 tasks each write their
# database, the merge job (afterok, not on a whole node) merges them; the
# merged database holds the same cells (key, status, measured calls) as one
# unsharded run, in one run of the study that show, plot and report draw. Also:
# without sbatch in PATH the command says so and prints the script (exit 0;
# with --submit exit 1); a hostile --partition is refused. The daemons are
# stopped by their own pids and the directory removed at the end, also on
# failure. Needs root (slurmd runs the jobs as root); without slurm-wlm
# and munge: SKIP (CI: a failure).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=15
plan $N
[ "$(id -u)" = 0 ] || skip_all $N "needs root"
for t in slurmctld slurmd sbatch squeue scontrol sinfo munged sqlite3; do
	command -v $t >/dev/null || skip_all $N "no $t (apt-get install slurmctld slurmd slurm-client munge)"
done
[ -x "$CVMBENCH" ] || skip_all $N "no $CVMBENCH (make)"
CVMBENCH=$(realpath "$CVMBENCH")

tmp=$(mktemp -d /tmp/cvmbench-slurm.XXXXXX)
chmod 711 "$tmp"
pids=()
our_steps() {
	local d
	for d in /proc/[0-9]*; do
		[ "$(cat $d/comm 2>/dev/null)" = slurmstepd ] &&
			tr '\0' '\n' 2>/dev/null < $d/environ | grep -qxF "SLURM_CONF=$tmp/slurm.conf" &&
			echo ${d#/proc/}
	done
}
cleanup() {
	local p i
	# our job steps end before the daemons: slurmstepd processes that carry
	# this test's SLURM_CONF (slurmd's environment), by their pids
	for _ in $(seq 50); do
		[ -z "$(our_steps)" ] && break
		sleep 0.1
	done
	pids=($(our_steps) "${pids[@]}")
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		p=${pids[i]}
		kill "$p" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	for _ in $(seq 50); do [ -z "$(our_steps)" ] && break; sleep 0.1; done
	rm -rf "$tmp"
}
trap cleanup EXIT
export CVMBENCH_STATE_DIR=$tmp/cvmb-state CVMBENCH_DATA_DIR=$tmp/data
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock
q() { sqlite3 -batch -noheader "$1" "$2"; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# --- the cluster -------------------------------------------------------------
mkdir -m 700 "$tmp/munge" "$tmp/state" "$tmp/spool"
dd if=/dev/urandom of="$tmp/munge/key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge/key"
munged -F --force --socket="$tmp/munge/sock" --key-file="$tmp/munge/key" \
	--pid-file="$tmp/munge/pid" --log-file="$tmp/munge/log" --seed-file="$tmp/munge/seed" \
	2>"$tmp/munged.err" &
pids+=($!)
node=$(hostname -s)
cpus=$(nproc)
p1=$(free_port); p2=$(free_port)
while [ "$p2" = "$p1" ]; do p2=$(free_port); done
cat > "$tmp/slurm.conf" <<CONF
ClusterName=cvmbtest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$p1
SlurmdPort=$p2
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=cvmbtest Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
for _ in $(seq 50); do [ -S "$tmp/munge/sock" ] && break; sleep 0.1; done
slurmctld -D -c -f "$SLURM_CONF" 2>"$tmp/slurmctld.err" &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" 2>"$tmp/slurmd.err" &
pids+=($!)
state=
for _ in $(seq 150); do
	state=$(sinfo -h -o %T 2>/dev/null)
	[ "$state" = idle ] && break
	sleep 0.2
done
is "$state" idle "the one-node cluster is up (node $node idle; ports $p1, $p2)" || {
	tail -5 "$tmp/slurmctld.log" "$tmp/slurmd.log" "$tmp"/*.err 2>/dev/null | sed 's/^/# /'
	skip_rest $((N - 1)) "no cluster"; exit 0; }

# --- a config in 3 shards, submitted, merged --------------------------------
cat > "$tmp/c.ini" <<'INI'
[defaults]
size = test
probes = latency
invocations = 20
warmup = 1
[experiment slurm]
workload = null, hello-world
threads = 1, 2
repeats = 2
INI
cellset="SELECT group_concat(x, ' ') FROM (SELECT c.cell_key || ':' || c.status || ':' ||
	(SELECT count(*) FROM invocation i WHERE i.cell_id = c.id AND i.phase = 'measured') AS x
	FROM cell c ORDER BY 1)"
$CVMBENCH run "$tmp/c.ini" --db "$tmp/ref.db" 2>/dev/null
is "$(q "$tmp/ref.db" "SELECT status || ' ' || cells_ok FROM run")" "complete 8" "the unsharded run: 8 cells"

mkdir "$tmp/work"
(cd "$tmp/work" && $CVMBENCH slurm "$tmp/c.ini" --shards 3 --dir "$tmp/job dir" --submit) \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
ids=$(sed -n 's/^# array job \([0-9]*\), merge job \([0-9]*\)$/\1 \2/p' "$tmp/out")
is "$rc $(echo $ids | wc -w)" "0 2" "slurm --submit: the array and the merge job submitted" ||
	sed 's/^/# /' "$tmp/err"
set -- $ids
array=${1:-0} merge=${2:-0}
grep -q "^#SBATCH --array=1-3$" "$tmp/out" && grep -q "^#SBATCH --exclusive$" "$tmp/out"
is "$?" 0 "the script printed: an array of 3 tasks, each on a whole node"
for _ in $(seq 450); do
	[ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] && break
	sleep 0.2
done
js=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
deps=$(scontrol show job "$array" 2>/dev/null | grep -c "JobState=COMPLETED")
is "$deps $js" "3 COMPLETED" "the 3 array tasks and then the merge job completed" || {
	scontrol show job "$merge" | sed 's/^/# /'; tail -5 "$tmp/job dir"/slurm-*.out 2>/dev/null | sed 's/^/# /'; }
ls "$tmp/job dir"/shard-*-of-3.db > "$tmp/dbs" 2>/dev/null
is "$(wc -l < "$tmp/dbs")" 3 "each task wrote its own database"
is "$(for i in 1 2 3; do q "$tmp/job dir/shard-$i-of-3.db" "SELECT value FROM environment WHERE key = 'run.shard'"; done | tr '\n' ' ')" \
	"1/3 2/3 3/3 " "each database holds its shard's run"
is "$(q "$tmp/job dir/merged.db" "$cellset" 2>/dev/null)" "$(q "$tmp/ref.db" "$cellset")" \
	"merged.db: the unsharded run's cells (key, status, measured calls)"
is "$(q "$tmp/job dir/merged.db" "SELECT count(*) || ' ' || status || ' ' || cells_ok || ' ' ||
	(SELECT value FROM environment WHERE key = 'merge.shards') FROM run" 2>/dev/null)" \
	"1 complete 8 1,2,3 of 3" "merged.db: one complete run of the study, holding the 3 shards"
# show, plot and report draw the latest run: every shard's cells
$CVMBENCH show --db "$tmp/job dir/merged.db" > "$tmp/show.txt" 2>/dev/null
$CVMBENCH plot warm-latency --db "$tmp/job dir/merged.db" --out "$tmp/wl.svg" 2>/dev/null
$CVMBENCH report "$tmp/rep" --db "$tmp/job dir/merged.db" >/dev/null 2>&1
is "$(awk '/^cells:/ { f = 1; next } /^  columns:/ { f = 0 } f && /^  slurm-/' "$tmp/show.txt" | wc -l) $(grep -oE '>(null|hello-world)/[^<]*<' "$tmp/wl.svg" | sort -u | wc -l) $(awk '/^## / { f = ($0 == "## Cells") } f && /^\| slurm-/' "$tmp/rep/index.md" | wc -l)" \
	"8 8 8" "merged.db: show, plot and report draw all 8 cells of the 3 shards"
is "$(scontrol show job "$merge" 2>/dev/null | grep -oE 'OverSubscribe=[A-Z:]+' | head -1) $(scontrol show job "$array" 2>/dev/null | grep -oE 'OverSubscribe=[A-Z:]+' | sort -u | tr '\n' ' ')" \
	"OverSubscribe=YES OverSubscribe=NO " "the shards take whole nodes, the merge job does not"
ls "$tmp/job dir"/slurm-*.out >/dev/null 2>&1
is "$?" 0 "the tasks' logs are in the job directory"

# --- without Slurm; hostile values --------------------------------------------
mkdir "$tmp/bin"
ln -s "$(command -v sqlite3)" "$tmp/bin/"
PATH=$tmp/bin $CVMBENCH slurm "$tmp/c.ini" --shards 2 --dir "$tmp/nos" >"$tmp/out" 2>"$tmp/err"
rc=$?
grep -q "Slurm is not installed here" "$tmp/err" && grep -q "^#SBATCH --array=1-2$" "$tmp/out"
is "$rc $?" "0 0" "no sbatch in PATH: says so, prints the script (exit 0)"
PATH=$tmp/bin $CVMBENCH slurm "$tmp/c.ini" --shards 2 --dir "$tmp/nos" --submit >/dev/null 2>&1
is "$?" 1 "and with --submit exits 1"
$CVMBENCH slurm "$tmp/c.ini" --shards 2 --dir "$tmp/hostile" --partition 'a
#SBATCH --uid=0' >"$tmp/out" 2>"$tmp/err"
rc=$?
grep -q -- "--partition 'a" "$tmp/err"
is "$rc $? $(ls "$tmp/hostile" 2>/dev/null | wc -l)" "2 0 0" "a partition with a newline: exit 2, named, nothing written"
