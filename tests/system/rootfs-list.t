#!/bin/bash
# tests/system/rootfs-list.t - the rootfs cache's decisions without a build
# (quick; the build itself is rootfs.t, in check-long): a list's inputs key
# follows the list (a changed list is "would build" under another key, the
# same list the same key); a half-built .build-* directory holding a
# manifest with the right inputs is no cache hit; a bad package line is
# exit 2 naming FILE:LINE; an unknown list and a bad name are exit 2 (a
# bad name in a config names its line); a qemu cell with the key and your
# own guest kernel is refused;
# `cvmbench list` says which lists are built here. Needs apt-cache (the
# candidate versions); SKIPs without it.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=12
plan $N
command -v apt-cache >/dev/null || skip_all $N "apt-cache is not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/configs/rootfs"
cp configs/rootfs/small.list "$tmp/configs/rootfs/"
export CVMBENCH_CONFIGS=$tmp/configs CVMBENCH_CACHE_DIR=$tmp/cache

key() { sed -n 's/.*(inputs \([0-9a-f]*\)).*/\1/p'; }
out=$($CVMBENCH rootfs build --check small 2>&1); rc=$?
is "$rc" 3 "an empty cache: --check says a build would run (exit 3): $out"
k1=$(key <<<"$out")
ok "${#k1}" = 64 "the inputs key is a SHA-256 ($k1)"
is "$($CVMBENCH rootfs build --check small 2>&1 | key)" "$k1" "the same list gives the same key"

echo "# one more line" >>"$tmp/configs/rootfs/small.list"
k2=$($CVMBENCH rootfs build --check small 2>&1 | key)
ok "$k2" != "$k1" "a changed list changes the key: it is rebuilt, not reused ($k2)"

# a killed build: its directory and manifest exist, but it was never renamed into place
mkdir -p "$tmp/cache/rootfs/.build-killed/root"
printf '{ "inputs": "%s", "hash": "%064d" }\n' "$k2" 0 >"$tmp/cache/rootfs/.build-killed/manifest.json"
$CVMBENCH rootfs build --check small >/dev/null 2>&1
is "$?" 3 "a half-built .build-* directory is no cache hit"

printf 'python3-minimal\nNot_A_Package\n' >"$tmp/configs/rootfs/bad.list"
out=$($CVMBENCH rootfs build bad 2>&1); rc=$?
is "$rc" 2 "a bad package name: exit 2"
grep -q "bad.list:2: not a Debian package name: 'Not_A_Package'" <<<"$out"
is "$?" 0 "the message names the file, the line and the value ($out)"
printf 'no-such-package-cvmbench\n' >"$tmp/configs/rootfs/ghost.list"
out=$($CVMBENCH rootfs build ghost 2>&1)
grep -q "package 'no-such-package-cvmbench' has no candidate version" <<<"$out"
is "$?" 0 "a package apt does not know is refused before any build ($out)"
$CVMBENCH rootfs build 'Bad/Name' >/dev/null 2>&1
is "$?" 2 "a rootfs name with '/' is refused (exit 2)"

# the key: a bad name is a config error naming file:line; with your own guest
# kernel and initrd (whose init would not switch) a qemu cell is refused
printf '[experiment x]\nworkload = hello-world\nbackend = runc\nrootfs = Bad_Name\n' >"$tmp/bad.ini"
out=$($CVMBENCH run "$tmp/bad.ini" --dry-run 2>&1)
grep -q "bad.ini:4: bad value 'Bad_Name' for rootfs" <<<"$out"
is "$?" 0 "rootfs = Bad_Name: a config error at file:line ($out)"
printf '[experiment x]\nworkload = hello-world\nbackend = qemu\nrootfs = small\nguest-kernel = /k\nguest-initrd = /i\n' >"$tmp/own.ini"
cell=$($CVMBENCH run "$tmp/own.ini" --dry-run 2>/dev/null | grep -o 'x-[0-9a-f]*' | head -1)
out=$($CVMBENCH qemu-argv "$tmp/own.ini" --only "$cell" 2>&1)
grep -q "rootfs = small needs the built guest image" <<<"$out"
is "$?/$($CVMBENCH qemu-argv "$tmp/own.ini" --only "$cell" >/dev/null 2>&1; echo $?)" "0/2" \
	"rootfs with your own guest-kernel and guest-initrd: refused, exit 2 ($out)"

is "$($CVMBENCH list 2>/dev/null | awk '$1 == "small" { $1 = ""; print }' | sed 's/^ //')" \
	"not built here (make rootfs-small)" "cvmbench list: small is not built in this cache"
