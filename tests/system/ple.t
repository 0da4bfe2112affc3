#!/bin/bash
# tests/system/ple.t - the ple key (bench/knobs/knob-ple.c, kvm-module.c)
# with the real tool. On this host: where neither kvm_intel nor kvm_amd is
# loaded, a run with ple = off stores the cell as skipped with the reason
# and ple = default measured; a native cell (no KVM guest) is skipped saying
# so. On a fake root (CVMBENCH_SYSROOT, a host lock
# of the test's own: it touches no host setting) with kvm_intel loaded,
# ple_gap 128, refcnt 0, /dev/kvm present, and a fake modprobe first in PATH (it logs its argv
# and edits the fake tree; rmmod likewise; `modprobe -r` also resets kvm's
# halt_poll_ns, as unloading kvm with it would), a qemu cell with accel = kvm
# (the only cells PLE concerns) and a fake QEMU (`qemu` key: it ends at
# once, or hangs until killed; so no guest boots, and the cell fails after
# the knob applied): a run reloads it with ple_gap=0 for the cell
# and with 128 after, and says so in cell_param; a run killed with -9
# mid-cell leaves ple_gap 0 and `cvmbench restore` reloads 128; refcnt 1
# (in use): the cell is skipped with the reason and modprobe never runs;
# a native cell: skipped (no KVM guest), modprobe never runs.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=15
plan $N
tmp=$(mktemp -d)
trap 'cleanup_restored "$tmp" "$tmp/state"' EXIT
export CVMBENCH_DATA_DIR=$tmp/data
mkdir -p "$tmp/state" "$tmp/fstate" "$tmp/bin" "$tmp/fake/sys/module/kvm_intel/parameters"
command -v sqlite3 >/dev/null || skip_all $N "no sqlite3"
q() { sqlite3 "$1" "$2"; }

# --- this host ---------------------------------------------------------------
printf '[experiment p]\nworkload = null\ninvocations = 2\nwarmup = 0\nple = default, off\n' \
	> "$tmp/p.ini"
if [ -e /sys/module/kvm_intel ] || [ -e /sys/module/kvm_amd ]; then
	skip_rest 2 "a KVM vendor module is loaded here: a ple = off run would reload it"
else
	CVMBENCH_STATE_DIR=$tmp/state ./cvmbench run "$tmp/p.ini" --db "$tmp/host.db" \
		>/dev/null 2>"$tmp/err"
	is "$?" 3 "this host: a run with ple = default, off exits 3 (a cell skipped)" || sed 's/^/# /' "$tmp/err"
	is "$(q "$tmp/host.db" "SELECT count(*) FROM skip s JOIN cell_param p ON p.cell_id =
		s.cell_id AND p.key = 'ple' AND p.value = 'off' WHERE s.reason LIKE
		'ple = off: the cell runs no KVM guest (backend native)'")" \
		1 "this host: the native ple = off cell is skipped: it runs no KVM guest"
fi

# --- a fake root with a fake modprobe ---------------------------------------
# modprobe and rmmod (one script, told apart by its file name). Like the
# real one, `modprobe -r` also unloads kvm, now unused: kvm comes back with
# its defaults (halt_poll_ns 200000); `rmmod` removes the one module only.
cat > "$tmp/bin/modprobe" <<'SH'
#!/bin/sh
m=$CVMBENCH_SYSROOT/sys/module; me=${0##*/}
echo "$me $*" >> "$CVMBENCH_SYSROOT/../log"
[ "$me" = rmmod ] && set -- -r "$1"
if [ "$1" = -r ]; then
	[ "$(cat "$m/$2/refcnt")" = 0 ] || { echo "$me: FATAL: Module $2 is in use." >&2; exit 1; }
	rm -r "$m/$2"
	[ "$me" = modprobe ] && echo 200000 > "$m/kvm/parameters/halt_poll_ns"
	exit 0
fi
mkdir -p "$m/$1/parameters" && echo 0 > "$m/$1/refcnt" && echo "${2#*=}" > "$m/$1/parameters/${2%%=*}"
SH
chmod +x "$tmp/bin/modprobe"
# QEMU: ends at once saying so, or (file qemu-hang) stays until killed
cat > "$tmp/bin/fake-qemu" <<SH
#!/bin/sh
[ -e "$tmp/qemu-hang" ] && { : > "$tmp/qemu-started"; exec sleep 600; }
echo "fake-qemu: no guest here" >&2
exit 1
SH
chmod +x "$tmp/bin/fake-qemu"
printf 'HdrS' | dd of="$tmp/bz" bs=1 seek=514 conv=notrunc 2>/dev/null
: > "$tmp/initrd"; : > "$tmp/disk"
kvm_cell() {   # a qemu cell under KVM that boots nothing: the fake QEMU
	printf '[experiment %s]\nworkload = %s\ninvocations = %s\nwarmup = 0\nple = off\n' "$1" "$2" "$3"
	printf 'backend = qemu\naccel = kvm\nqemu = %s\n' "$tmp/bin/fake-qemu"
	printf 'guest-kernel = %s\nguest-initrd = %s\nguest-image = %s\n' "$tmp/bz" "$tmp/initrd" "$tmp/disk"
}
cp "$tmp/bin/modprobe" "$tmp/bin/rmmod"
mkdir -p "$tmp/fake/sys/module/kvm/parameters"
HPN=$tmp/fake/sys/module/kvm/parameters/halt_poll_ns
ln -s /proc "$tmp/fake/proc"   # the fake root fakes /sys only: the noise record reads /proc
echo present > "$tmp/fake/dev-kvm"
GAP=$tmp/fake/sys/module/kvm_intel/parameters/ple_gap
fresh() { echo 128 > "$GAP"; echo 0 > "$HPN"; echo "$1" > "$tmp/fake/sys/module/kvm_intel/refcnt"; : > "$tmp/log"; }
export CVMBENCH_STATE_DIR=$tmp/fstate CVMBENCH_SYSROOT=$tmp/fake CVMBENCH_TEST_HOST_LOCK=$tmp/lock
export PATH=$tmp/bin:$PATH

fresh 0
kvm_cell o null 2 > "$tmp/o.ini"
./cvmbench run "$tmp/o.ini" --db "$tmp/f.db" >/dev/null 2>"$tmp/err"
is "$?:$(cat "$GAP")" "1:128" "fake root: a ple = off run (its QEMU ends: the cell fails) exits 1, ple_gap 128 after it" ||
	sed 's/^/# /' "$tmp/err"
is "$(tr '\n' '|' < "$tmp/log")" "rmmod kvm_intel|modprobe kvm_intel ple_gap=0|rmmod kvm_intel|modprobe kvm_intel ple_gap=128|" \
	"rmmod + modprobe reloaded kvm_intel with ple_gap=0, then with 128"
is "$(cat "$HPN")" 0 "kvm stayed loaded: its halt_poll_ns (set at run time) still 0"
is "$(q "$tmp/f.db" "SELECT value FROM cell_param WHERE key = 'ple.actual'")" \
	"kvm_intel ple_gap = 0" "cell_param ple.actual: the value during the cell"
is "$(q "$tmp/f.db" "SELECT value FROM cell_param WHERE key = 'ple.applied'")" \
	"off (kvm_intel reloaded with ple_gap=0, was 128)" "cell_param ple.applied says what it did"

fresh 0
kvm_cell k null 2 > "$tmp/k.ini"
touch "$tmp/qemu-hang"
./cvmbench run "$tmp/k.ini" --db "$tmp/f.db" 2>"$tmp/err" >/dev/null & run=$!
seen=1
for ((i = 0; i < 600; i++)); do     # ple_gap 0 and the QEMU of the cell started
	[ "$(cat "$GAP" 2>/dev/null)" = 0 ] && [ -e "$tmp/qemu-started" ] && { seen=0; break; }
	sleep 0.05
done
kill -9 $run; wait $run 2>/dev/null
rm -f "$tmp/qemu-hang"
is "$seen/$(cat "$GAP")" "0/0" "killed mid-cell: ple_gap left at 0"
./cvmbench restore > "$tmp/restore" 2>&1
is "$?" 0 "cvmbench restore exits 0" || sed 's/^/# /' "$tmp/restore"
is "$(cat "$GAP")" 128 "after restore, ple_gap is 128 again"
grep -q "removed kvm-module-param kvm_intel ple_gap 128" "$tmp/restore"
is "$?" 0 "restore says what it reloaded" || sed 's/^/# /' "$tmp/restore"

fresh 1
./cvmbench run "$tmp/o.ini" --db "$tmp/f.db" >/dev/null 2>"$tmp/err"
is "$?:$(cat "$GAP"):$(wc -c < "$tmp/log")" "3:128:0" "refcnt 1: the run exits 3 (skipped), nothing changed, modprobe never run" ||
	sed 's/^/# /' "$tmp/err"
is "$(q "$tmp/f.db" "SELECT count(*) FROM skip WHERE reason LIKE 'ple = off: kvm_intel is loaded with ple_gap = 128 and cannot be reloaded with ple_gap=0: kvm_intel is in use%'")" \
	1 "and its cell is skipped, saying kvm_intel is in use"

fresh 0
printf '[experiment n]\nworkload = null\ninvocations = 2\nwarmup = 0\nple = off\n' > "$tmp/n.ini"
./cvmbench run "$tmp/n.ini" --db "$tmp/n.db" >/dev/null 2>"$tmp/err"
is "$?:$(cat "$GAP"):$(wc -c < "$tmp/log")" "3:128:0" "a native cell, kvm_intel reloadable: the run exits 3 (skipped), modprobe never run" ||
	sed 's/^/# /' "$tmp/err"
is "$(q "$tmp/n.db" "SELECT reason FROM skip")" "ple = off: the cell runs no KVM guest (backend native)" \
	"and the skip says the cell runs no KVM guest"
