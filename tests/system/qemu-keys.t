#!/bin/bash
# tests/system/qemu-keys.t - the qemu backend's keys for what a VM boots
# and where (qemu, firmware, guest-kernel, guest-initrd, guest-image, cpu)
# and `cvmbench qemu-argv`:
# - qemu-argv prints a cell's exact argv without running it, shell-quoted
#   (one command a shell splits back into the same words as --lines gives)
#   or one argument per line, also for sev-snp and tdx cells that cannot
#   run here (they say why); bad cells, configs and a CVM without a
#   firmware exit 2 naming the problem;
# - bad input in `run`: a missing QEMU binary and a missing firmware are
#   skips naming the value, a guest-kernel that is not a bzImage (or
#   missing) fails the cell naming the file, and the other cells go on;
# - a real TCG boot of the user's kernel and initrd (the built image's
#   files given through guest-kernel / guest-initrd) records the hash of
#   what was booted (cell_param qemu.guest_hash and the run's environment),
#   equal to sha256sum of the two files; accel = auto records which
#   accelerator it used and why (qemu.accel, qemu.accel_reason), in
#   agreement with whether /dev/kvm opens here, and the CPU model QEMU got
#   (qemu.cpu, qemu.cpu_reason).
# SKIPs without root, sqlite3, qemu-system-x86_64 (failures under CI).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=25
plan $N
why=
[ "$(id -u)" = 0 ] || why="needs root"
[ -z "$why" ] && ! command -v sqlite3 >/dev/null && why="no sqlite3"
[ -z "$why" ] && ! command -v qemu-system-x86_64 >/dev/null && why="qemu-system-x86_64 is not installed"
[ -n "$why" ] && skip_all $N "$why"
command -v mkfs.ext4 >/dev/null || PATH=$PATH:/usr/sbin:/sbin
tmp=$(mktemp -d)
[ -n "$tmp" ] && [ -d "$tmp" ] || { echo "Bail out! mktemp -d failed"; exit 1; }
trap '$CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export TMPDIR=$tmp CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data

# a fake bzImage (the boot protocol's "HdrS" at 0x202), an initrd, a disk, a firmware
head -c 4096 /dev/zero >"$tmp/bz"
printf 'HdrS' | dd of="$tmp/bz" bs=1 seek=514 conv=notrunc 2>/dev/null
echo initrd >"$tmp/initrd"
echo disk >"$tmp/disk img"
echo fw >"$tmp/OVMF.fd"
head -c 4096 /dev/zero >"$tmp/notbz"

# --- qemu-argv -------------------------------------------------------------------
cat >"$tmp/argv.ini" <<INI
[experiment a]
workload = hello-world
backend = qemu
accel = kvm
confidential = none, sev-snp, tdx
cpu = EPYC-v4
vcpus = 2
memory = 512
firmware = $tmp/OVMF.fd
guest-kernel = $tmp/bz
guest-initrd = $tmp/initrd
guest-image = $tmp/disk img
[experiment b]
workload = hello-world
backend = native
[experiment c]
workload = hello-world
backend = qemu
confidential = tdx
guest-kernel = $tmp/bz
guest-initrd = $tmp/initrd
guest-image = $tmp/disk img
INI
$CVMBENCH run "$tmp/argv.ini" --dry-run >"$tmp/dry" 2>&1
key() { grep -o "$1-[0-9a-f]\{8\}" "$tmp/dry" | sed -n "${2}p"; }
none=$(key a 1) snp=$(key a 2) tdx=$(key a 3) nat=$(key b 1) nofw=$(key c 1)
$CVMBENCH qemu-argv "$tmp/argv.ini" --only "$snp" >"$tmp/snp.sh" 2>"$tmp/snp.err"
is "$?" 0 "qemu-argv of a sev-snp cell exits 0 here, where it cannot run" || cat "$tmp/snp.err"
grep -q "^# runs here: no: confidential = sev-snp: this host lacks: " "$tmp/snp.sh"
is "$?" 0 "it says why the cell cannot run here"
$CVMBENCH qemu-argv "$tmp/argv.ini" --only "$snp" --lines >"$tmp/snp.lines" 2>"$tmp/snp.lerr"
is "$(grep -c '^#' "$tmp/snp.lines") $(grep -c '^# runs here' "$tmp/snp.lerr")" "0 1" \
	"--lines: only arguments on stdout, the comments on stderr"
grep -v '^#' "$tmp/snp.sh" >"$tmp/snp.cmd"
# the shell splits the quoted command into exactly the --lines words
bash -c 'set -f; eval "set -- $(cat "$1")"; printf "%s\n" "$@"' _ "$tmp/snp.cmd" >"$tmp/snp.words"
cmp -s "$tmp/snp.words" "$tmp/snp.lines"
is "$?" 0 "the shell-quoted command is the same words as --lines ($(wc -l <"$tmp/snp.lines") arguments)"
grep -qx -- "file=$tmp/disk img,format=raw,if=virtio,readonly=on" "$tmp/snp.lines"
is "$?" 0 "--lines: a path with a space is one argument, as given"
is "$(grep -cx -e "sev-snp-guest,id=sev0,cbitpos=51,reduced-phys-bits=1,kernel-hashes=on" \
	-e "memory-backend-memfd,id=ram1,size=512M,share=true,prealloc=off" \
	-e "q35,confidential-guest-support=sev0,memory-backend=ram1" -e "$tmp/OVMF.fd" \
	-e "EPYC-v4" "$tmp/snp.lines")" 5 "sev-snp: the SNP object, memfd RAM, machine options, -bios, EPYC-v4"
# what a run starts: VM 0's instance port and its index on the kernel command line
is "$(grep -cx -e "socket,id=inst0,path=VMDIR/i0.sock" \
	-e "virtserialport,bus=vser0.0,chardev=inst0,name=org.cvmbench.i0" \
	-e "console=ttyS0 panic=-1 accept_memory=eager cvmbench.vm=0" "$tmp/snp.lines")" 3 \
	"the instance port and cvmbench.vm=0 (after the guest's acceptance), as qemu_vms_boot() starts VM 0"
$CVMBENCH qemu-argv "$tmp/argv.ini" --only "$none" --lines >"$tmp/none.lines" 2>/dev/null
diff "$tmp/none.lines" "$tmp/snp.lines" | grep '^[<>]' >"$tmp/twin.diff"
is "$(tr '\n' ' ' <"$tmp/twin.diff")" \
"> -object > memory-backend-memfd,id=ram1,size=512M,share=true,prealloc=off > -object > sev-snp-guest,id=sev0,cbitpos=51,reduced-phys-bits=1,kernel-hashes=on < q35 > q35,confidential-guest-support=sev0,memory-backend=ram1 < console=ttyS0 panic=-1 cvmbench.vm=0 > console=ttyS0 panic=-1 accept_memory=eager cvmbench.vm=0 " \
	"the regular twin's argv differs from the sev-snp cell's only by the confidential parts (and accept_memory=eager: its kernel's version is unknown)"
$CVMBENCH qemu-argv "$tmp/argv.ini" --only "$tdx" --lines >"$tmp/tdx.lines" 2>/dev/null
is "$(grep -cx -e "tdx-guest,id=tdx0" -e "q35,kernel-irqchip=split,confidential-guest-support=tdx0,hpet=off" "$tmp/tdx.lines")" \
	2 "tdx: the tdx-guest object and its machine options"
$CVMBENCH qemu-argv "$tmp/argv.ini" --only "$nat" >"$tmp/o" 2>&1
is "$? $(grep -c 'backend = native, not qemu' "$tmp/o")" "2 1" "a native cell: exit 2, saying so"
$CVMBENCH qemu-argv "$tmp/argv.ini" --only a-00000000 >"$tmp/o" 2>&1
is "$? $(grep -c 'no cell a-00000000' "$tmp/o")" "2 1" "an unknown cell: exit 2, naming it"
$CVMBENCH qemu-argv "$tmp/argv.ini" --only "$nofw" >"$tmp/o" 2>&1
is "$? $(grep -c 'needs a firmware' "$tmp/o")" "2 1" "a tdx cell without a firmware: exit 2, naming it"
$CVMBENCH qemu-argv "$tmp/nope.ini" --only x >"$tmp/o" 2>&1
is "$? $(grep -c "qemu-argv: .*nope.ini" "$tmp/o")" "2 1" "a missing config: exit 2, naming it"

# --- env and list say what the host offers, the same way ----------------------------
$CVMBENCH env --json >"$tmp/env.json" 2>/dev/null
$CVMBENCH list --json >"$tmp/list.json" 2>/dev/null
agree=$(python3 - "$tmp/env.json" "$tmp/list.json" <<'PY'
import json, sys
env, lst = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
out = []
for t, k in (("sev-snp", "cvm.host.sev_snp"), ("tdx", "cvm.host.tdx")):
    e = env[k]["value"]
    l = [x for x in lst["confidential"] if x["name"] == t][0]
    same = e.startswith("yes") if l["supported"] else e == "no: " + l["reason"]
    out.append("%s:%s" % (t, "same" if same else "differs: %r / %r" % (e, l)))
print(" ".join(out))
PY
)
is "$agree" "sev-snp:same tdx:same" "cvmbench env (cvm.host.*) and list (confidential) say the same"

# --- bad input in run: skips and errors naming the value ----------------------------
cat >"$tmp/bad.ini" <<INI
[defaults]
workload = null
backend = qemu
accel = tcg
invocations = 1
warmup = 0
[experiment noqemu]
qemu = $tmp/no-such-qemu
[experiment nofw]
firmware = $tmp/no-such.fd
[experiment notbz]
guest-kernel = $tmp/notbz
guest-initrd = $tmp/initrd
guest-image = $tmp/disk img
[experiment nokernel]
guest-kernel = $tmp/no-such-kernel
guest-initrd = $tmp/initrd
guest-image = $tmp/disk img
[experiment halfuser]
guest-kernel = $tmp/bz
guest-image = $tmp/disk img
INI
$CVMBENCH run "$tmp/bad.ini" --db "$tmp/bad.db" >"$tmp/bad.out" 2>&1
is "$?" 1 "a run with failed cells exits 1 and goes through all of them" || tail "$tmp/bad.out"
sk() { sqlite3 "$tmp/bad.db" "select s.reason from skip s join cell c on c.id = s.cell_id where c.experiment = '$1'"; }
er() { sqlite3 "$tmp/bad.db" "select e.message from error e join cell c on c.id = e.cell_id where c.experiment = '$1'"; }
grep -q "qemu = $tmp/no-such-qemu: not found" <<<"$(sk noqemu)"
is "$?" 0 "a missing QEMU binary: a skip naming it ($(sk noqemu))"
grep -q "firmware = $tmp/no-such.fd: No such file" <<<"$(sk nofw)"
is "$?" 0 "a missing firmware: a skip naming it ($(sk nofw))"
grep -q "guest-kernel = $tmp/notbz: not a bzImage" <<<"$(er notbz)"
is "$?" 0 "a kernel that is not a bzImage: the cell fails naming it ($(er notbz | head -1))"
grep -q "guest-kernel = $tmp/no-such-kernel: No such file" <<<"$(er nokernel)"
is "$?" 0 "a missing kernel: the cell fails naming it"
grep -q "guest-kernel is given without guest-initrd" <<<"$(er halfuser)"
is "$?" 0 "guest-kernel without guest-initrd: the cell fails saying so"

# --- a real boot of the user's kernel and initrd; accel = auto recorded ----------------
if ! $CVMBENCH guest build >"$tmp/b" 2>&1; then
	if [ -z "${CI:-}" ] && grep -qiE "apt-get|apt-cache" "$tmp/b"; then
		skip_rest 5 "cannot fetch the kernel package: $(head -c 200 "$tmp/b")"
		exit 0
	fi
fi
kernel=$(awk '$1 == "kernel" { print $2 }' "$tmp/b")
initrd=$(awk '$1 == "initrd" { print $2 }' "$tmp/b")
built=$(grep -o 'guest image [0-9a-f]\{64\}' "$tmp/b" | cut -d' ' -f3)
cat >"$tmp/boot.ini" <<INI
[experiment user]
workload = hello-world
backend = qemu
accel = auto
invocations = 2
warmup = 0
guest-kernel = $kernel
guest-initrd = $initrd
INI
$CVMBENCH run "$tmp/boot.ini" --db "$tmp/boot.db" >"$tmp/boot.out" 2>&1
is "$?" 0 "a cell boots the user's kernel and initrd under accel = auto" || tail -20 "$tmp/boot.out"
p() { sqlite3 "$tmp/boot.db" "select value from cell_param where key = '$1'"; }
want=$(cat "$kernel" "$initrd" | sha256sum | cut -d' ' -f1)
is "$(p qemu.guest_hash) $(p qemu.guest_source) $built" "$want user $want" \
	"cell_param qemu.guest_hash is sha256sum of kernel and initrd (= the built image's hash), source user"
is "$(sqlite3 "$tmp/boot.db" "select count(*) from environment where key = 'guest.image.$want' and value like 'user kernel=$kernel %'")" \
	1 "the run's environment holds the booted guest's hash"
acc=$(p qemu.accel) reason=$(p qemu.accel_reason)
if [ -e /dev/kvm ] && { exec 9<>/dev/kvm; } 2>/dev/null; then
	exec 9>&-
	case "$acc:$reason" in
	"kvm:auto: kvm, /dev/kvm opens and the guest booted under KVM" | \
	"tcg:auto: tcg, QEMU under KVM ended before the guest's first console byte ("*) r=0 ;;
	# a nested KVM that opens but boots no Linux guest (machine A): silent, then TCG
	"tcg:auto: tcg, under KVM the guest printed nothing on its console within 20 s ("*) r=0 ;;
	*) r=1 ;;
	esac
else
	case "$acc:$reason" in "tcg:auto: tcg, /dev/kvm: "*) r=0 ;; *) r=1 ;; esac
fi
is "$r" 0 "qemu.accel = $acc, because: $reason"
# the model: the -cpu of the argv QEMU ran (qemu.cpu), or QEMU's own default under TCG
cpu=$(p qemu.cpu) cwhy=$(p qemu.cpu_reason)
case "$acc:$cpu:$cwhy" in
"tcg:qemu64:no -cpu under TCG: QEMU's default model" | "kvm:host:cpu = auto under KVM: host, and KVM took it" | \
"kvm:host,-arch-capabilities:cpu = auto under KVM: the first model KVM took; "* | \
"kvm:qemu64:cpu = auto under KVM: the first model KVM took; "*) r=0 ;;
*) r=1 ;;
esac
is "$r" 0 "qemu.cpu = $cpu under $acc, because: $cwhy"
