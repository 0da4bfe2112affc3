#!/bin/bash
# tests/system/journal-long.t - the reproducer of issue 9 item 1: a run past
# 4096 journal entries (an experiment `fill` of 17 x 256 instances, one
# process entry each) and then an experiment `leak` (crun cold starts with
# favordynmods on: a cgroup2 remount, the hugetlb move, a rootfs). The run
# used to exit 0 with cgroup2 left remounted, hugetlb left mounted and a
# rootfs left in the state directory, and `restore` found "0 entries".
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/journal-lib.sh

N=6
plan $N
why=
[ "$(id -u)" = 0 ] || why="needs root"
[ -z "$why" ] && ! command -v crun >/dev/null && why="crun is not installed"
[ -z "$why" ] && ! grep -q ' - cgroup2 ' /proc/self/mountinfo && why="no cgroup2 mount"
if [ -n "$why" ]; then skip_rest $N "$why"; exit 0; fi

tmp=$(mktemp -d)
trap 'cleanup_restored "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
cat > "$tmp/l.ini" <<'INI'
[experiment fill]
workload = null
instances = 256
invocations = 1
warmup = 0
repeats = 17
[experiment leak]
workload = hello-world
backend = crun
mode = cold
favordynmods = on
invocations = 2
warmup = 0
INI
before=$(mounts)
./cvmbench run "$tmp/l.ini" --db "$tmp/r.db" 2>"$tmp/err"
is "$?" 0 "a run of $((17 * 256)) instances, then crun cold starts, exits 0" ||
	grep -v 'info: cell' "$tmp/err" | sed 's/^/# /'
now=$(mounts)
is "$now" "$before" "cgroup mounts and options as before (no favordynmods, no hugetlb mount)" ||
	diff <(echo "$before") <(echo "$now") | sed 's/^/# /'
is "$(state_left | wc -l)" 0 "no rootfs or bundle left in the state directory"
is "$(wc -c < "$CVMBENCH_STATE_DIR/journal")" 0 "the journal is empty"

# In a cgroup namespace of its own (a container), the kernel accepts a
# cgroup2 remount and applies no flag: the cell is a skip naming why, not a
# cell that says favordynmods = on and ran without it; the mounts as before.
if ! command -v unshare >/dev/null; then
	skip_rest 2 "no unshare (util-linux)"
else
	printf '[experiment ns]\nworkload = null\ninvocations = 1\nwarmup = 0\nbackend = crun\nmode = cold\nfavordynmods = on\n' > "$tmp/ns.ini"
	unshare -C ./cvmbench run "$tmp/ns.ini" --db "$tmp/ns.db" >/dev/null 2>"$tmp/nserr"
	is "$(sqlite3 "$tmp/ns.db" "SELECT status FROM cell")/$(grep -c 'did not take effect' "$tmp/nserr")" \
		"skipped/1" "favordynmods = on in a cgroup namespace of its own: a skip saying it did not take effect" ||
		sed 's/^/# /' "$tmp/nserr"
	is "$(mounts)" "$before" "and the cgroup mounts and options as before"
fi
