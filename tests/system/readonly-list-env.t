#!/bin/bash
# tests/system/readonly-list-env.t - `cvmbench list` and `cvmbench env` change
# nothing on the machine: with tracefs unmounted they leave the mount table
# (/proc/self/mountinfo) as it was, and they still say whether tracefs could
# be mounted. A run whose probe needs tracefs mounts it, records that in the
# run's environment and unmounts it at the end. The unmounting happens in a
# private mount namespace (unshare -m), so the machine's own mounts are never
# touched. Needs root.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

plan 7
why=
[ "$(id -u)" = 0 ] || why="needs root (a private mount namespace)"
[ -z "$why" ] && ! command -v unshare > /dev/null && why="no unshare (util-linux)"
[ -z "$why" ] && [ ! -x ./cvmbench ] && why="cvmbench not built"
[ -z "$why" ] && ! grep -qw tracefs /proc/filesystems && why="the kernel has no tracefs"
if [ -n "$why" ]; then skip_rest 7 "$why"; exit 0; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# In a private namespace: unmount every tracefs (and debugfs, which would
# automount one), then list, env and a short idle run.
unshare -m --propagation private bash -s "$tmp" <<'NS'
tmp=$1
mounts() { awk '{ print $5, $(NF-2) }' /proc/self/mountinfo | sort; }
for m in $(awk '$(NF-2) == "tracefs" || $(NF-2) == "debugfs" { print $5 }' /proc/self/mountinfo | sort -r); do
	umount -l "$m" || echo "cannot unmount $m" > "$tmp/ns-error"
done
mounts > "$tmp/before"
./cvmbench list > "$tmp/list" 2>&1; echo $? > "$tmp/list.rc"
mounts > "$tmp/after-list"
./cvmbench env --json > "$tmp/env.json" 2>&1; echo $? > "$tmp/env.rc"
mounts > "$tmp/after-env"
cat > "$tmp/t.ini" <<'INI'
[experiment tracefs-mount]
workload = null
invocations = 3
warmup = 0
probes = latency, idle
INI
CVMBENCH_STATE_DIR=$tmp/state ./cvmbench run "$tmp/t.ini" --db "$tmp/r.db" > /dev/null 2> "$tmp/run.err"
echo $? > "$tmp/run.rc"
mounts > "$tmp/after-run"
NS

is "$(cat "$tmp/ns-error" 2>/dev/null)" "" "tracefs and debugfs unmounted in the private namespace"
is "$(cat "$tmp/list.rc")/$(diff "$tmp/before" "$tmp/after-list" > /dev/null && echo same)" 0/same \
	"cvmbench list exits 0 and leaves the mount table unchanged"
is "$(cat "$tmp/env.rc")/$(diff "$tmp/before" "$tmp/after-env" > /dev/null && echo same)" 0/same \
	"cvmbench env exits 0 and leaves the mount table unchanged"
val() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]]["value"])' "$tmp/env.json" "$1"; }
is "$(val tracefs.mounted)" no "env: tracefs.mounted is no"
is "$(val tracefs.mountable)" "yes (the kernel has tracefs; mounting needs root)" \
	"env: tracefs.mountable found without mounting"
diff "$tmp/before" "$tmp/after-run" > /dev/null && same=same || same=changed
is "$same" same "a run that mounted tracefs for its probe unmounted it at the end"
mounted=$(sqlite3 "$tmp/r.db" "SELECT value FROM environment WHERE key = 'tracefs.mounted_by_run'" 2>/dev/null)
is "$mounted" "yes, unmounted at the end of the run" "the run records that it mounted tracefs" ||
	sed 's/^/# /' "$tmp/run.err"
