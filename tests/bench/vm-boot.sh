#!/bin/bash
# tests/bench/vm-boot.sh - how much slower the cvmbench guest comes up than a
# bare boot of the same kernel and QEMU (issue 26: the goal is 1.2x). Not part
# of `make check`. Alternates N pairs (default 5), bare first, all pinned to
# one CPU (CPU, default 1), and prints each pair, the medians, their ratio
# and the median of the pairs' own ratios (less moved by load that drifts).
#
#   bare      QEMU's spawn -> QEMU has exited after the guest powered off.
#             The window holds QEMU's start, firmware, the kernel's boot,
#             unpacking a busybox-only initramfs (busybox-static, /bin/sh and
#             an /init that runs `poweroff -f` at once), the poweroff and
#             QEMU's exit. Timed here with bash's $EPOCHREALTIME around a
#             synchronous QEMU run (includes exec'ing QEMU).
#   cvmbench  QEMU's spawn -> the agent's ready line on the host, as printed
#             by `cvmbench guest boot` ("phase ready S s", from vm_start():
#             the clock when QEMU is released to exec, after its fork). It holds the
#             same QEMU, firmware and kernel work, unpacking the guest image's
#             initramfs, /init (mounts, modules, finding the virtio-serial
#             port, the data disk if ARGS give one) and the agent's start up
#             to its ready line. The image build/cache check before the spawn
#             is not in it.
#
# Both give QEMU the argv shape of `cvmbench guest boot` (qemu-argv.c):
# -nodefaults -no-user-config -display none -no-reboot
# -machine q35 -accel tcg -smp 1 -m 256 -kernel -initrd -append
# "console=ttyS0 panic=-1", the serial console into a file, a
# virtio-serial-pci device with one port and a QMP socket (the bare one's
# port is a socket QEMU listens on itself; nobody connects).
#
#   tests/bench/vm-boot.sh [N [ARGS...]]   ARGS go to `cvmbench guest boot`
#   CPU=1 CVMBENCH=./cvmbench QEMU=qemu-system-x86_64
set -u
cd "$(dirname "$0")/../.."
cpu=${CPU:-1}
if [ -z "${VM_BOOT_PINNED:-}" ]; then
	command -v taskset >/dev/null || { echo "SKIP: taskset is not installed"; exit 0; }
	VM_BOOT_PINNED=1 exec taskset -c "$cpu" "$0" "$@"
fi
n=${1:-5}
shift $(($# ? 1 : 0))
CVMBENCH=${CVMBENCH:-./cvmbench}
qemu=${QEMU:-qemu-system-x86_64}
busybox=${BUSYBOX:-/bin/busybox}
command -v "$qemu" >/dev/null || { echo "SKIP: $qemu is not installed"; exit 0; }
[ -x "$CVMBENCH" ] || { echo "SKIP: $CVMBENCH is not built (make)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The built (or cached) image's kernel: "kernel   PATH" in `guest build`'s output.
image_kernel() {
	"$CVMBENCH" guest build 2>"$tmp/build.err" | awk '$1 == "kernel" { print $2 }'
}

# The bare initramfs: busybox, sh, and an /init that powers off at once.
bare_initramfs() {
	local s=$tmp/bare
	mkdir -p "$s/bin" "$s/dev" "$s/proc" "$s/sys"
	cp "$busybox" "$s/bin/busybox"
	ln -s busybox "$s/bin/sh"
	printf '#!/bin/sh\nexec /bin/busybox poweroff -f\n' >"$s/init"
	chmod 0755 "$s/init"
	(cd "$s" && find . -mindepth 1 | sort | "$busybox" cpio -o -H newc -R 0:0) \
		>"$tmp/bare.cpio" 2>/dev/null
}

# One bare boot: prints spawn -> exit in s; fails if QEMU did not exit cleanly.
bare_boot() {
	local t0 t1 rc
	rm -f "$tmp/con" "$tmp/agent.sock" "$tmp/qmp.sock"
	t0=$EPOCHREALTIME
	"$qemu" -nodefaults -no-user-config -display none -no-reboot -machine q35 \
		-accel tcg -smp 1 -m 256 -kernel "$kernel" -initrd "$tmp/bare.cpio" \
		-append "console=ttyS0 panic=-1" \
		-chardev "file,id=con0,path=$tmp/con" -serial chardev:con0 \
		-device virtio-serial-pci,id=vser0 \
		-chardev "socket,id=agent0,path=$tmp/agent.sock,server=on,wait=off" \
		-device virtserialport,bus=vser0.0,chardev=agent0,name=org.cvmbench.0 \
		-qmp "unix:$tmp/qmp.sock,server=on,wait=off" 2>"$tmp/qemu.err"
	rc=$? t1=$EPOCHREALTIME
	grep -q 'reboot: Power down' "$tmp/con" && [ $rc = 0 ] || {
		echo "bare boot failed (exit $rc): $(tail -3 "$tmp/con" "$tmp/qemu.err")" >&2
		return 1; }
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

# One cvmbench boot: prints spawn -> ready in s ("phase ready S s").
cvm_boot() {
	"$CVMBENCH" guest boot "$@" >"$tmp/cvm.out" 2>&1 || {
		echo "cvmbench guest boot failed: $(tail -5 "$tmp/cvm.out")" >&2; return 1; }
	awk '$1 == "phase" && $2 == "ready" { print $3 }' "$tmp/cvm.out"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m }'
}

kernel=$(image_kernel)
[ -n "$kernel" ] || { echo "SKIP: no guest image: $(tail -2 "$tmp/build.err")"; exit 0; }
bare_initramfs || { echo "SKIP: cannot build the bare initramfs with $busybox"; exit 0; }
echo "# $(date -u +%FT%TZ) $(uname -r), CPU $cpu, $("$qemu" --version | head -1)"
echo "# kernel $kernel; bare initramfs $(stat -c %s "$tmp/bare.cpio") B;" \
	"guest boot args: ${*:-none}"
printf '%-5s %10s %12s %7s\n' pair bare_s cvmbench_s ratio
for ((i = 1; i <= n; i++)); do
	b=$(bare_boot) || exit 1
	c=$(cvm_boot "$@") || exit 1
	echo "$b $c" >>"$tmp/pairs"
	awk -v i="$i" -v b="$b" -v c="$c" 'BEGIN { printf "%-5d %10.3f %12.3f %7.2f\n", i, b, c, c / b }'
done
mb=$(awk '{ print $1 }' "$tmp/pairs" | median)
mc=$(awk '{ print $2 }' "$tmp/pairs" | median)
mr=$(awk '{ print $2 / $1 }' "$tmp/pairs" | median)
awk -v b="$mb" -v c="$mc" -v r="$mr" -v n="$n" 'BEGIN { printf "median of %d: bare %.3f s, " \
	"cvmbench %.3f s, ratio %.2f (median of the pairs\047 ratios %.2f)\n", n, b, c, c / b, r }'
