#!/bin/bash
# tests/system/rootfs-journal.t - a rootfs build killed with kill -9 is
# undone by `cvmbench restore`, and a failed build undoes itself. A fake
# mmdebstrap (tests/fixtures/rootfs/mmdebstrap, first in PATH) is started by
# `cvmbench rootfs build` and leaves what a killed root-mode mmdebstrap
# leaves: mounts in its tree (a tmpfs, another inside it, and a bind mount
# of a directory outside the build), a symlink out of it. Checked: the
# build directory and the fake's pid are in the journal before the kill;
# the fake dies with cvmbench (PR_SET_PDEATHSIG); restore unmounts every
# mount in that build directory and removes it, and nothing else: a file
# outside (reachable through the bind mount and the symlink), a sibling
# .build-* the test planted, and a mount in a sibling whose name starts
# with the build's all stay. Quick (no Debian package is fetched). Needs
# root (mounts) and apt-cache (the list is resolved first); SKIPs without.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=15
plan $N
[ "$(id -u)" = 0 ] || skip_all $N "needs root"
command -v apt-cache >/dev/null || skip_all $N "apt-cache is not installed"
tmp=$(mktemp -d)
[ -n "$tmp" ] && [ -d "$tmp" ] || { echo "Bail out! mktemp -d failed"; exit 1; }
# mounts at or below DIR, deepest first
mounts_under() {
	awk -v d="$1" '{ p = $5; gsub(/\\040/, " ", p); if (p == d || index(p, d "/") == 1) print length(p), p }' \
		/proc/self/mountinfo | sort -rn | cut -d' ' -f2-
}
cleanup() {
	CVMBENCH_STATE_DIR=$tmp/state $CVMBENCH restore >/dev/null 2>&1
	mounts_under "$tmp" | while read -r m; do umount -l "$m"; done
	rm -rf --one-file-system "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/configs/rootfs" "$tmp/outside" "$tmp/cache/rootfs/.build-other"
cp configs/rootfs/small.list "$tmp/configs/rootfs/"
echo keep >"$tmp/outside/keep"
echo keep >"$tmp/cache/rootfs/.build-other/keep"
export CVMBENCH_CONFIGS=$tmp/configs CVMBENCH_CACHE_DIR=$tmp/cache CVMBENCH_STATE_DIR=$tmp/state \
	CVMBENCH_TEST_HOST_LOCK=$tmp/lock FAKE_DIR=$tmp FAKE_OUTSIDE=$tmp/outside
export PATH=$PWD/tests/fixtures/rootfs:$PATH
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
# gone PID: no such process, or a zombie (killed, not reaped yet)
gone() { local s; s=$(ps -o stat= -p "$1" 2>/dev/null); [ -z "$s" ] || [ "${s:0:1}" = Z ]; }
wait_for() { local i; for i in $(seq 200); do [ -s "$1" ] && return 0; sleep 0.1; done; return 1; }

# --- killed: cvmbench and its mmdebstrap with kill -9, then restore
$CVMBENCH rootfs build small >"$tmp/build.out" 2>&1 &
cvm=$!
wait_for "$tmp/fake.pid"
is "$?" 0 "cvmbench rootfs build runs the mmdebstrap found first in PATH" || cat "$tmp/build.out"
fake=$(cat "$tmp/fake.pid" 2>/dev/null) build=$(cat "$tmp/build.dir" 2>/dev/null)
grep -qE "^proc [0-9]+ ${fake:-none} " "$tmp/state/journal"
is "$?" 0 "mmdebstrap's pid ($fake) is in the journal while it runs"
grep -qE "^obj [0-9]+ rootfs-build-dir $(hex "$build")\$" "$tmp/state/journal"
is "$?" 0 "so is its build directory ($build)"
exec 3>&2 2>/dev/null      # not bash's "Killed" note
kill -9 "$cvm"
wait "$cvm"
exec 2>&3 3>&-
for i in $(seq 40); do gone "$fake" && break; sleep 0.05; done
gone "$fake"
is "$?" 0 "kill -9 of cvmbench: mmdebstrap dies with it (PR_SET_PDEATHSIG), before any restore"
is "$(mounts_under "$build" | wc -l)" 3 "the killed build left its 3 mounts in its tree"

out=$($CVMBENCH restore 2>&1); rc=$?
is "$rc" 0 "cvmbench restore exits 0 ($out)"
is "$(mounts_under "$build" | wc -l)" 0 "no mount is left in the build directory"
is "$(mounts_under "$tmp/cache" | tr '\n' ' ')" "${build}x/mnt " \
	"the only mount left in the cache is the test's own in a sibling named like the build"
ok ! -e "$build" "the build's .build-* directory is removed"
is "$(cd "$tmp/cache/rootfs" && ls -d .build-* | sort | tr '\n' ' ')" \
	"$(printf '%s\n' .build-other "$(basename "$build")x" | sort | tr '\n' ' ')" \
	"only the .build-* directories the test made are left"
is "$(cat "$tmp/outside/keep" 2>/dev/null)/$(cat "$tmp/cache/rootfs/.build-other/keep" 2>/dev/null)" \
	"keep/keep" "files outside the build (bind-mounted and linked into it) and in a sibling stay"
is "$(wc -c <"$tmp/state/journal")" 0 "the journal has no open entry left"
umount "${build}x/mnt" && rm -rf "${build}x"

# --- failed: mmdebstrap exits 1 after mounting; the build removes its own directory
rm -f "$tmp/fake.pid" "$tmp/build.dir"
FAKE_MODE=fail $CVMBENCH rootfs build small >"$tmp/fail.out" 2>&1
rc=$? build=$(cat "$tmp/build.dir" 2>/dev/null)
grep -q "fake mmdebstrap: failing as asked" "$tmp/fail.out"
is "$rc/$?" "1/0" "a failed mmdebstrap: the build fails naming mmdebstrap's error"
is "$(mounts_under "$build" | wc -l)/$([ -e "$build" ] && echo there || echo gone)" "0/gone" \
	"the failed build unmounted what it left and removed its directory itself"
is "$(cat "$tmp/outside/keep" 2>/dev/null)/$(wc -c <"$tmp/state/journal")" "keep/0" \
	"the file outside stays, and the journal entries are closed"
umount "${build}x/mnt" 2>/dev/null
