#!/bin/bash
# zygote-kill.t - kill -9 of a run of backend zygote in the middle of a
# cell, then `cvmbench restore` (issue 33). The seed and one child are
# stopped (SIGSTOP) before the kill, so that they cannot leave on their own
# when their sockets and pipes close: only restore, through the journal, can
# end them. Checked against what the test saw itself: every pid of the seed
# and its children, read from /proc before the kill, is gone (or a zombie)
# after restore; restore reports ending the stopped ones; a second restore
# finds nothing left in the journal; the state, data and temporary (TMPDIR)
# directories hold exactly what they held before the run, and /tmp no new
# cvmfn entry.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/journal-lib.sh
N=10
plan $N
if ! command -v sqlite3 >/dev/null; then skip_rest $N "no sqlite3"; exit 0; fi
tmp=$(mktemp -d)
run=
cleanup() {
	[ -n "$run" ] && kill -9 "$run" 2>/dev/null
	"$CVMBENCH" restore >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
export CVMBENCH_DATA_DIR=$tmp/data CVMBENCH_STATE_DIR=$tmp/state
mkdir -p "$CVMBENCH_STATE_DIR"
"$CVMFN" prepare matmul >/dev/null
cat >"$tmp/k.ini" <<INI
[experiment kill]
workload = matmul
backend = zygote
seed-layer = runtime
size = test
threads = 1
instances = 2
invocations = 1000000
warmup = 0
INI
# the run's temporary files go to a TMPDIR of its own; /tmp itself is shared
# with other people's runs and plots, so only cvmfn's names are looked for there
run_tmp=$tmp/tmpdir
mkdir -p "$run_tmp"
listing() {   # what the run may leave: state, data and temporary directories, /tmp
	find "$CVMBENCH_STATE_DIR" "$CVMBENCH_DATA_DIR" "$run_tmp" -mindepth 1 ! -name journal | sort
	ls -a /tmp | grep -E '^cvmfn' || true
}
before=$(listing)

TMPDIR=$run_tmp "$CVMBENCH" -q run "$tmp/k.ini" --db "$tmp/r.db" 2>"$tmp/err" & run=$!
seed=
for ((i = 0; i < 18000; i++)); do   # up to 15 min: the host lock may be another's
	seed=$(pgrep -P "$run" -f "cvmfn seed matmul")
	[ -n "$seed" ] && [ "$(pgrep -P "$seed" | wc -l)" = 2 ] &&
		[ "$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM invocation" 2>/dev/null)" -ge 5 ] 2>/dev/null &&
		break
	[ -d "/proc/$run" ] || break
	sleep 0.05
done
kids=$(pgrep -P "${seed:-0}" | tr '\n' ' ')
first=${kids%% *}
ok "$(wc -w <<<"$kids")" -eq 2 "mid-cell: the seed ($seed) and its two children ($kids) alive, calls stored"
kill -STOP "$seed" "$first" 2>/dev/null
kill -9 "$run"; wait "$run" 2>/dev/null; run=
sleep 0.5
ok "$( (gone "$seed" && echo gone) || echo alive)" = alive \
	"after the kill the stopped seed is still there (only restore can end it)"

"$CVMBENCH" restore >"$tmp/restore" 2>&1
is "$?" 0 "cvmbench restore exits 0" || sed 's/^/# /' "$tmp/restore"
left=
for p in $seed $kids; do gone "$p" || left="$left $p"; done
is "${left:-none}" none "no seed or child left, by pid"
grep -q "ended leftover process $seed\$" "$tmp/restore"
is "$?" 0 "restore ended the stopped seed through the journal" || sed 's/^/# /' "$tmp/restore"
grep -q "ended leftover process $first\$" "$tmp/restore"
is "$?" 0 "... and the stopped child" || sed 's/^/# /' "$tmp/restore"
"$CVMBENCH" restore >"$tmp/restore2" 2>&1
is "$?:$(cat "$tmp/restore2")" "0:0 entries restored from $CVMBENCH_STATE_DIR/journal" \
	"a second restore finds nothing left in the journal" || sed 's/^/# /' "$tmp/restore2"
is "$(cat "$CVMBENCH_STATE_DIR/journal" 2>/dev/null | grep -c .)" 0 \
	"the journal file holds no entry (or is gone)" || sed 's/^/# /' "$CVMBENCH_STATE_DIR/journal"
is "$(listing)" "$before" "state, data and temporary directories and /tmp as before the run" ||
	diff <(echo "$before") <(listing) | sed 's/^/# /'
is "$(sqlite3 "$tmp/r.db" "SELECT status FROM run")" interrupted "the killed run is marked interrupted"
