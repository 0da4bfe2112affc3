#!/bin/bash
# tests/system/qemu10-argv.t - the SEV-SNP and TDX command lines that
# `cvmbench qemu-argv` prints, run by a QEMU that knows sev-snp-guest: QEMU 10
# from bookworm-backports, unpacked by .ci/install-deps into /opt/cvmbench/qemu-10
# ($CVMBENCH_QEMU10 names another binary) and given to the cells through the
# config's `qemu =` key. Only VMDIR (a directory of the test, where a listener
# stands in for cvmbench's agent and instance sockets) and, for the TCG runs,
# `-accel kvm` -> `-accel tcg` are changed. Without /dev/kvm QEMU stops at the
# accelerator; under TCG it goes on to the RAM of the machine and refuses the
# guest_memfd a sev-snp-guest requires: the exact messages are the checks, and
# docs/backends/qemu.md ("The argv against QEMU 10") says what they prove.
# - sev-snp, accel kvm, no /dev/kvm: "Could not access KVM kernel module";
# - sev-snp, accel tcg: "cannot set up private guest memory for sev-snp-guest:
#   KVM required", and a typo in the SNP object or the machine's link to it is
#   caught before that (so the pass is no accident of the stop point);
# - the regular twin under TCG reaches the kernel loader (the fake bzImage);
# - tdx: QEMU 10.0 refuses the object ("does not accept value 'tdx-guest'") and
#   the tool says the cell does not run here: "QEMU 10.0 (...) has no tdx-guest
#   (needs >= 10.1)".
# SKIPs without python3 or QEMU 10 (failures under CI).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=13
plan $N
Q=${CVMBENCH_QEMU10:-/opt/cvmbench/qemu-10/usr/bin/qemu-system-x86_64}
why=
command -v python3 >/dev/null || why="no python3"
[ -z "$why" ] && [ ! -x "$Q" ] && why="no QEMU 10 at $Q (.ci/install-deps unpacks it)"
[ -n "$why" ] && skip_all $N "$why"
tmp=$(mktemp -d)
[ -n "$tmp" ] && [ -d "$tmp" ] || { echo "Bail out! mktemp -d failed"; exit 1; }
lpid=
trap '[ -n "$lpid" ] && kill "$lpid" 2>/dev/null; rm -rf "$tmp"' EXIT
export TMPDIR=$tmp CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data

ver=$("$Q" -version | sed -n 's/^QEMU emulator version \([0-9]*\.[0-9]*\).*/\1/p')
"$Q" -object help >"$tmp/objects"
ok "${ver%%.*}" -ge 10 "$Q is QEMU 10 or later ($ver)"
is "$(grep -cx '  sev-snp-guest' "$tmp/objects")" 1 "QEMU $ver lists sev-snp-guest"

# a fake bzImage (the boot protocol's "HdrS" at 0x202), an initrd, a disk, a firmware
head -c 4096 /dev/zero >"$tmp/bz"
printf 'HdrS' | dd of="$tmp/bz" bs=1 seek=514 conv=notrunc 2>/dev/null
echo initrd >"$tmp/initrd"
echo disk >"$tmp/disk.img"
head -c 65536 /dev/zero >"$tmp/OVMF.fd"
cat >"$tmp/a.ini" <<INI
[experiment a]
workload = hello-world
backend = qemu
accel = kvm
qemu = $Q
confidential = none, sev-snp, tdx
cpu = EPYC-v4
vcpus = 2
memory = 512
firmware = $tmp/OVMF.fd
guest-kernel = $tmp/bz
guest-initrd = $tmp/initrd
guest-image = $tmp/disk.img
INI
$CVMBENCH run "$tmp/a.ini" --dry-run >"$tmp/dry" 2>&1
key() { grep -o "a-[0-9a-f]\{8\}" "$tmp/dry" | sed -n "${1}p"; }
none=$(key 1) snp=$(key 2) tdx=$(key 3)
for c in none snp tdx; do
	$CVMBENCH qemu-argv "$tmp/a.ini" --only "${!c}" --lines >"$tmp/$c.lines" 2>"$tmp/$c.err"
done
is "$(head -1 "$tmp/snp.lines") $(grep -c sev-snp-guest "$tmp/snp.lines")" "$Q 1" \
	"qemu-argv of the sev-snp cell starts with the qemu key's binary" || cat "$tmp/snp.err"

# cvmbench listens on the agent and instance sockets; QEMU connects to them
mkdir "$tmp/vm"
python3 -c '
import socket, sys, threading, time
def serve(p):
    s = socket.socket(socket.AF_UNIX); s.bind(p); s.listen(64)
    while True:
        c, _ = s.accept(); c.close()
for p in sys.argv[1:]:
    threading.Thread(target=serve, args=(p,), daemon=True).start()
time.sleep(600)' "$tmp/vm/agent.sock" "$tmp/vm/i0.sock" &
lpid=$!
for i in $(seq 100); do [ -S "$tmp/vm/i0.sock" ] && [ -S "$tmp/vm/agent.sock" ] && break; sleep 0.1; done

# run CELL ACCEL [SED]: the cell's argv with VMDIR and the accelerator set (and SED
# applied), QEMU's stderr in $tmp/out, its exit code in $rc
run() {
	local -a a
	mapfile -t a < <(sed -e "s|VMDIR|$tmp/vm|" -e "s/^kvm\$/$2/" -e "${3:-}" "$tmp/$1.lines")
	timeout 60 "${a[@]}" >/dev/null 2>"$tmp/out"
	rc=$?
}
msg() { grep -v "warning: TCG doesn't support" "$tmp/out" | head -1; }

if [ -e /dev/kvm ]; then
	skip "sev-snp under kvm: /dev/kvm is here, QEMU's stop point is this host's KVM"
else
	run snp kvm
	is "$rc $(msg)" "1 qemu-system-x86_64: -accel kvm: Could not access KVM kernel module: No such file or directory" \
		"sev-snp, accel kvm, no /dev/kvm: the accelerator is the first thing refused"
fi
run snp tcg
is "$rc $(msg)" "1 qemu-system-x86_64: cannot set up private guest memory for sev-snp-guest: KVM required" \
	"sev-snp under tcg: the memfd RAM is set up for a sev-snp-guest's guest_memfd, then refused"
run snp tcg 's/kernel-hashes=on/kernel-hashes=maybe/'
is "$(msg)" "qemu-system-x86_64: -object sev-snp-guest,id=sev0,cbitpos=51,reduced-phys-bits=1,kernel-hashes=maybe: Parameter 'kernel-hashes' expects 'on' or 'off'" \
	"control: a bad sev-snp-guest property is refused before that point"
run snp tcg 's/confidential-guest-support=sev0/confidential-guest-support=sevX/'
is "$(msg)" "qemu-system-x86_64: Device 'sevX' not found" \
	"control: the machine's link to the SNP object is resolved before that point"
run snp tcg 's/share=true,prealloc=off/share=true,prealloc=off,bogus=1/'
is "$(msg)" "qemu-system-x86_64: -object memory-backend-memfd,id=ram1,size=512M,share=true,prealloc=off,bogus=1: Invalid parameter 'bogus'" \
	"control: a bad memory-backend-memfd option is refused before that point"
run none tcg
is "$rc $(msg)" "1 qemu: linux kernel too old to load a ram disk" \
	"the regular twin under tcg gets to the kernel loader (the fake bzImage)"

if grep -qx '  tdx-guest' "$tmp/objects"; then
	skip_rest 2 "QEMU $ver knows tdx-guest: the too-old checks are for 10.0"
	run tdx tcg
	ok "$(grep -c "Parameter 'qom-type'" "$tmp/out")" = 0 "QEMU $ver accepts -object tdx-guest"
	skip "QEMU $ver knows tdx-guest: no too-old check of the cvmbench side"
else
	run tdx kvm
	is "$rc $(msg)" "1 qemu-system-x86_64: -object tdx-guest,id=tdx0: Parameter 'qom-type' does not accept value 'tdx-guest'" \
		"tdx on QEMU $ver: the object is the first thing refused"
	run tdx tcg
	is "$rc $(msg)" "1 qemu-system-x86_64: -object tdx-guest,id=tdx0: Parameter 'qom-type' does not accept value 'tdx-guest'" \
		"tdx on QEMU $ver under tcg: the same"
	is "$(grep -c "has no tdx-guest (needs >= 10.1)" "$tmp/tdx.err") $(grep -c "QEMU $ver ($Q)" "$tmp/tdx.err")" "1 1" \
		"cvmbench: the tdx cell does not run here, naming QEMU $ver and 10.1" || cat "$tmp/tdx.err"
	is "$(grep -c 'no sev-snp-guest' "$tmp/snp.err")" 0 "cvmbench: no version complaint for the sev-snp cell"
fi
