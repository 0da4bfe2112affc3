#!/bin/bash
# tests/system/journal-paths.t - the reproducer of issue 9 item 2: with
# CVMBENCH_STATE_DIR=$D/s, $D a 549-character directory holding a file, a
# crun cold cell of 2 calls used to delete $D (the rootfs name came back
# from the journal cut to 549 characters). Now $D and its file stay, the
# state directory is created 0700, and nothing of the run is left in it.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/journal-lib.sh

N=5
plan $N
why=
[ "$(id -u)" = 0 ] || why="needs root"
[ -z "$why" ] && ! command -v crun >/dev/null && why="crun is not installed"
if [ -n "$why" ]; then skip_rest $N "$why"; exit 0; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
D=$tmp/
while [ ${#D} -lt 548 ]; do
	if [ $(((${#D} + 1) % 100)) = 0 ] && [ "${D: -1}" != / ]; then D=$D/; else D=${D}d; fi
done
D=${D}d
mkdir -p "$D" && echo "user data" > "$D/file"
export CVMBENCH_STATE_DIR=$D/s CVMBENCH_DATA_DIR=$tmp/data
printf '[experiment long-state]\nworkload = hello-world\nbackend = crun\nmode = cold\ninvocations = 2\nwarmup = 0\n' \
	> "$tmp/c.ini"
./cvmbench run "$tmp/c.ini" --db "$tmp/r.db" 2>"$tmp/err"
is "$?" 0 "a crun cold cell of 2 calls under a ${#D}-character directory runs" ||
	sed 's/^/# /' "$tmp/err"
is "$(cat "$D/file" 2>/dev/null)" "user data" "the directory and its file are still there"
is "$(stat -c %a "$D/s")" 700 "the state directory was created 0700"
is "$(state_left | wc -l)" 0 "nothing of the run is left in the state directory"
is "$(wc -c < "$D/s/journal")" 0 "the journal is empty"
