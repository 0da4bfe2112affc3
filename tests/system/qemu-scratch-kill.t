#!/bin/bash
# tests/system/qemu-scratch-kill.t - the undo of a qemu cell's scratch disk
# (scratch-disk = MiB, bench/backends/qemu/scratch-disk.c) after kill -9:
# cvmbench is killed while the cell's VM holds its image (a fake QEMU that
# only sleeps: no guest boots, so the cell waits for it), then `cvmbench
# restore` removes that image and nothing else: files the test planted in
# the state directory beside it, one named like a scratch image, stay.
# Also checked before the kill: the image is in the journal, is as big as
# asked and carries the scratch label. Quick (~2 s). Needs root and
# mkfs.ext4; SKIPs without.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=8
plan $N
[ "$(id -u)" = 0 ] || skip_all $N "needs root"
command -v mkfs.ext4 >/dev/null || PATH=$PATH:/usr/sbin:/sbin
command -v mkfs.ext4 >/dev/null || skip_all $N "mkfs.ext4 is not installed (e2fsprogs)"
tmp=$(mktemp -d)
[ -n "$tmp" ] && [ -d "$tmp" ] || { echo "Bail out! mktemp -d failed"; exit 1; }
trap 'cleanup_restored "$tmp"' EXIT
export TMPDIR=$tmp CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data \
	CVMBENCH_TEST_HOST_LOCK=$tmp/lock
mkdir -p "$tmp/state" && chmod 700 "$tmp/state"
echo keep >"$tmp/state/qemu-scratch-1-0.img"     # named like one, not this run's
echo keep >"$tmp/state/planted"

# a fake bzImage (the boot protocol's "HdrS" at 0x202), an initrd; a QEMU that sleeps
head -c 4096 /dev/zero >"$tmp/bz"
printf 'HdrS' | dd of="$tmp/bz" bs=1 seek=514 conv=notrunc 2>/dev/null
echo initrd >"$tmp/initrd"
printf '#!/bin/sh\necho $$ >"%s/qemu.pid"\nexec sleep 60\n' "$tmp" >"$tmp/fake-qemu"
chmod +x "$tmp/fake-qemu"
cat >"$tmp/s.ini" <<INI
[experiment s]
workload = hello-world
backend = qemu
accel = tcg
qemu = $tmp/fake-qemu
guest-kernel = $tmp/bz
guest-initrd = $tmp/initrd
scratch-disk = 8
INI
$CVMBENCH run "$tmp/s.ini" --db "$tmp/r.db" >"$tmp/run.out" 2>&1 &
cvm=$!
for i in $(seq 300); do [ -s "$tmp/qemu.pid" ] && break; sleep 0.1; done
img=$(ls "$tmp/state"/qemu-scratch-"$cvm"-*.img 2>/dev/null)
[ -s "$tmp/qemu.pid" ]
is "$?" 0 "the cell starts its VM (the fake QEMU)" || sed 's/^/# /' "$tmp/run.out"
is "$(stat -c %s "$img" 2>/dev/null)/$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Filesystem volume name: *//p')" \
	"8388608/cvmbench-scratch" "the VM's scratch image is there: 8 MiB, ext4 labelled cvmbench-scratch ($img)"
hex=$(printf '%s' "$img" | od -An -tx1 | tr -d ' \n')
grep -qE "^obj [0-9]+ qemu-scratch-disk $hex\$" "$tmp/state/journal"
is "$?" 0 "the image is journalled (kind qemu-scratch-disk)"

exec 3>&2 2>/dev/null      # not bash's "Killed" note
kill -9 "$cvm"
wait "$cvm"
exec 2>&3 3>&-
[ -n "$img" ] && [ -e "$img" ]
is "$?" 0 "kill -9 of cvmbench leaves the image"
out=$($CVMBENCH restore 2>&1); rc=$?
is "$rc" 0 "cvmbench restore exits 0 ($out)"
[ -n "$img" ] && [ ! -e "$img" ]
is "$?" 0 "restore removes the scratch image"
is "$(ls "$tmp/state" | tr '\n' ' ')" "journal planted qemu-scratch-1-0.img " \
	"and nothing else in the state directory (the planted files stay)"
is "$(cat "$tmp/state/planted" "$tmp/state/qemu-scratch-1-0.img")" "keep
keep" "the planted files are untouched"
