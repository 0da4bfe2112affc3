#!/bin/bash
# tests/system/rootfs.t - the small Debian rootfs (configs/rootfs/small.list)
# built with mmdebstrap into the test cache, then reused: the second build
# is a cache hit with the same hash; the manifest's packages are the
# tree's own dpkg database (dpkg-query, read independently) and the listed
# package's version is apt's candidate; a runc cell (and a crun cell where
# crun is installed) and a TCG qemu cell run
# hello-world from it (rootfs = small) and record its name and hash; the
# guest's agent reports an overlay root running Debian 12; the cells wrote
# nothing into the cached tree; the container's root is that tree (runc
# makes a missing mount point in it); the VM's scratch-disk is a writable
# ext4 disk on /scratch (the guest says so), removed after the cell. In check-long: the first build takes
# minutes (docs/performance.md). Needs root, mmdebstrap, runc and QEMU;
# SKIPs naming what is missing (a failure under CI).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/guest-lib.sh

N=18
guest_test_begin $N mmdebstrap runc dpkg-query || exit 0
db=$tmp/r.db
q() { sqlite3 "$db" "$@"; }

out=$($CVMBENCH rootfs build small 2>"$tmp/build.err"); rc=$?
is "$rc" 0 "rootfs build small: exit 0 ($(tail -c 300 "$tmp/build.err"))"
hash=$(awk '$3 == "small" { print $4 }' <<<"$out")
tree=$(awk '$1 == "tree" { print $2 }' <<<"$out")
man=$(awk '$1 == "manifest" { print $2 }' <<<"$out")
ok "${#hash}" = 64 "its hash is a SHA-256 ($hash)"
out2=$($CVMBENCH rootfs build small 2>&1)
is "$(head -1 <<<"$out2")" "cached rootfs small $hash" "the second build is a cache hit, same hash"

mj() { python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$man" "$1"; }
want=$(dpkg-query --admindir="$tree/var/lib/dpkg" -W -f '${Package} ${Version}\n' | sort | md5sum)
is "$(mj '"\n".join(p["package"] + " " + p["version"] for p in m["packages"])' | sort | md5sum)" "$want" \
	"the manifest lists the tree's installed packages and versions (dpkg-query)"
cand=$(apt-cache policy python3-minimal | sed -n 's/ *Candidate: //p')
is "$(mj '[p["version"] for p in m["listed"] if p["package"] == "python3-minimal"][0]')" "$cand" \
	"python3-minimal resolved to apt's candidate ($cand)"
is "$(chroot "$tree" python3 -B -c 'print(6 * 7)' 2>&1)" 42 "python3 runs in the tree"
ok "$(mj 'm["bytes"]')" -gt 50000000 "the manifest has the tree's size ($(mj 'm["bytes"]') bytes)"

touch "$tmp/stamp"
oci=runc; cells=2
command -v crun >/dev/null && oci="runc, crun" && cells=3
cat >"$tmp/r.ini" <<INI
[defaults]
workload = hello-world
invocations = 3
warmup = 1
rootfs = small
[experiment in-runc]
backend = $oci
[experiment in-vm]
backend = qemu
accel = tcg
workload = crud-api
scratch-disk = 64
INI
$CVMBENCH run "$tmp/r.ini" --db "$db" --data-dir "$tmp/data" >"$tmp/run.out" 2>&1
is "$?" 0 "$oci cells and a TCG cell on rootfs = small: exit 0 ($(grep -m1 -i error "$tmp/run.out"))"
is "$(q "SELECT count(*) FROM cell WHERE status = 'ok'")" $cells "every cell ok"
is "$(q "SELECT count(DISTINCT value) || ' ' || min(value) FROM cell_param WHERE key = 'rootfs.hash'")" "1 $hash" \
	"every cell records the rootfs's hash"
is "$(q "SELECT count(*) FROM cell_param WHERE key = 'rootfs.name' AND value = 'small'")" $cells \
	"every cell records the rootfs's name"
is "$(q "SELECT value FROM cell_param WHERE key = 'guest.root.fs'")" overlay \
	"the guest's root is the overlay over the rootfs disk"
is "$(q "SELECT value FROM cell_param WHERE key = 'guest.root.os'")" "Debian GNU/Linux 12 (bookworm)" \
	"the guest's agent ran on the Debian rootfs"
is "$(find "$tree" -xdev -newer "$tmp/stamp" | head -3)" "" "the cached tree was not written by the cells"
is "$(q "SELECT value FROM cell_param WHERE key = 'guest.scratch.fs'")" ext4 \
	"scratch-disk = 64: the guest's /scratch is the ext4 scratch disk (crud-api wrote there)"
grep -q "writable ext4 disk" <<<"$(q "SELECT value FROM cell_param WHERE key = 'qemu.scratch'")"
is "$?" 0 "the cell notes its scratch is a disk, not guest RAM"
is "$(ls "$CVMBENCH_STATE_DIR" | grep -c '^qemu-scratch-')" 0 "the scratch disk's image is removed after the cell"

# The container's root is that tree: in a copy of the cache (hard links) whose
# tree lacks the /cvmfn mount point, runc makes it there (before it remounts
# the root read-only), so the cell's container stood on that tree.
key=$($CVMBENCH rootfs build --check small | sed -n 's/.*(inputs \([0-9a-f]*\)).*/\1/p')
c2=$tmp/cache2
mkdir -p "$c2/rootfs/by-input"
cp -al "$(dirname "$tree")" "$c2/rootfs/"
ln -s "../$hash" "$c2/rootfs/by-input/$key"
rm "$c2/rootfs/$hash/root/cvmfn"
sed -n '1,7p' "$tmp/r.ini" >"$tmp/c.ini"
CVMBENCH_CACHE_DIR=$c2 $CVMBENCH run "$tmp/c.ini" --db "$tmp/c.db" --data-dir "$tmp/data" >"$tmp/c.out" 2>&1
is "$?/$(test -f "$c2/rootfs/$hash/root/cvmfn" && echo made)" "0/made" \
	"a runc cell on a copy without /cvmfn: runc made the mount point in that tree"
