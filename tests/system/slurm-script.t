#!/bin/bash
# tests/system/slurm-script.t - the script and the sbatch calls of
# `cvmbench slurm`, without a Slurm (issue 17; slurm.t runs a real one):
# the script expands no bash array (an empty "${a[@]}" is an unbound
# variable under set -u in bash < 4.4, RHEL 7), and its task and merge parts
# run under bash with set -u, with and without --wait-lock: a shard's
# database, then merged.db of one run; with --submit, an sbatch found
# through a relative PATH entry is run by its absolute path (sbatch runs in
# the job directory), the merge job is given --oversubscribe (no whole node)
# after the array (afterok); with --balance DB each task's run splits by
# the cost in DB, and a DB without a run of the config or that the job
# writes is refused. The sbatch here is a stand-in written by this
# test that records its directory and arguments. Native cells change no
# host setting: a private host lock.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=9
plan $N
command -v sqlite3 >/dev/null || skip_all $N "no sqlite3"
[ -x "$CVMBENCH" ] || skip_all $N "no $CVMBENCH (make)"
CVMBENCH=$(realpath "$CVMBENCH")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
export CVMBENCH_TEST_HOST_LOCK=$tmp/host.lock
q() { sqlite3 -batch -noheader "$1" "$2"; }
cat > "$tmp/c.ini" <<'INI'
[defaults]
size = test
probes = latency
invocations = 10
warmup = 1
[experiment script]
workload = null
threads = 1, 2
INI
mkdir "$tmp/nobin"
ln -s "$(command -v sqlite3)" "$tmp/nobin/"

PATH=$tmp/nobin "$CVMBENCH" slurm "$tmp/c.ini" --shards 2 --dir "$tmp/a" >/dev/null 2>&1
PATH=$tmp/nobin "$CVMBENCH" slurm "$tmp/c.ini" --shards 2 --dir "$tmp/b" --wait-lock 5 >/dev/null 2>&1
arrays=$(cat "$tmp/a/job.sbatch" "$tmp/b/job.sbatch" | grep -oE '"?\$\{[A-Za-z_]+\[[@*]\]\}"?' | grep -v '^"\${dbs\[@\]}"$' | sort -u | tr '\n' ' ')
is "$arrays" "" "the script expands no possibly empty array (dbs has a shard at least)"

# the task and the merge, under bash with set -u (the script's own)
for v in a b; do
	(cd "$tmp/$v" && SLURM_ARRAY_TASK_ID=1 bash job.sbatch && SLURM_ARRAY_TASK_ID=2 bash job.sbatch &&
	 bash job.sbatch merge) >"$tmp/$v.out" 2>"$tmp/$v.err"
	is "$? $(q "$tmp/$v/shard-1-of-2.db" "SELECT value FROM environment WHERE key = 'run.shard'") $(q "$tmp/$v/merged.db" "SELECT count(*) || ' ' || status || ' ' || cells_ok FROM run")" \
		"0 1/2 1 complete 2" "script $v ($( [ $v = b ] && echo with || echo without) --wait-lock): both tasks and the merge run under set -u" ||
		sed 's/^/# /' "$tmp/$v.err"
done
# --balance DB (a name with a quote and a space): every task's run splits by
# the cells' cost in it; refused at once, naming it, when the database has no
# run of the config or is one the job writes
cp "$tmp/a/merged.db" "$tmp/it's a db.db"
PATH=$tmp/nobin "$CVMBENCH" slurm "$tmp/c.ini" --shards 2 --dir "$tmp/d" --balance "$tmp/it's a db.db" >/dev/null 2>"$tmp/d.err"
(cd "$tmp/d" && SLURM_ARRAY_TASK_ID=1 bash job.sbatch && SLURM_ARRAY_TASK_ID=2 bash job.sbatch &&
 bash job.sbatch merge) >"$tmp/d.out" 2>>"$tmp/d.err"
is "$? $(q "$tmp/d/merged.db" "SELECT count(*) || ' ' || status || ' ' || cells_ok FROM run") $(q "$tmp/d/shard-2-of-2.db" "SELECT command_line FROM run" | grep -cF -- "--balance $tmp/it's a db.db")" \
	"0 1 complete 2 1" "--balance: the tasks run with it (the name one word) and merge into one run" ||
	sed 's/^/# /' "$tmp/d.err"
sed 's/invocations = 10/invocations = 11/' "$tmp/c.ini" > "$tmp/o.ini"
PATH=$tmp/nobin "$CVMBENCH" slurm "$tmp/o.ini" --shards 2 --dir "$tmp/e" --balance "$tmp/it's a db.db" >/dev/null 2>"$tmp/err"
rc=$?
grep -qF "no run of $tmp/o.ini" "$tmp/err" || rc="$rc(message: $(head -c 200 "$tmp/err"))"
PATH=$tmp/nobin "$CVMBENCH" slurm "$tmp/c.ini" --shards 2 --dir "$tmp/d" --balance "$tmp/d/merged.db" >/dev/null 2>"$tmp/err"
rc="$rc $?"
grep -qF "is a database this job writes" "$tmp/err" || rc="$rc(message: $(head -c 200 "$tmp/err"))"
is "$rc" "2 2" "--balance without a run of the config, or of the job's own merged.db: exit 2, named"
grep -q -- "^wait_lock='--wait-lock 5'$" "$tmp/b/job.sbatch" && grep -q -- '--resume $wait_lock ||' "$tmp/b/job.sbatch"
is "$?" 0 "--wait-lock 5 reaches the task's run"

# --submit with a stand-in sbatch found through a relative PATH entry
mkdir -p "$tmp/work/bin"
cat > "$tmp/work/bin/sbatch" <<SH
#!/bin/sh
echo "\$(pwd) \$*" >> "$tmp/calls"
n=\$($(command -v wc) -l < "$tmp/calls")
echo "\$((100 + n))"
SH
chmod +x "$tmp/work/bin/sbatch"
(cd "$tmp/work" && PATH=bin:$tmp/nobin "$CVMBENCH" slurm "$tmp/c.ini" --shards 2 --dir "$tmp/c" --submit) \
	>"$tmp/out" 2>"$tmp/err"
is "$? $(grep '^# array job' "$tmp/out")" "0 # array job 101, merge job 102" \
	"sbatch found through PATH entry 'bin' is run from the job directory" || sed 's/^/# /' "$tmp/err"
is "$(sed -n 1p "$tmp/calls" 2>/dev/null)" "$tmp/c --parsable $tmp/c/job.sbatch" "the array: sbatch in the job directory"
is "$(sed -n 2p "$tmp/calls" 2>/dev/null)" "$tmp/c --parsable --array=0 --oversubscribe --dependency=afterok:101 $tmp/c/job.sbatch merge" \
	"the merge: after the array, not on a whole node (--oversubscribe)"
