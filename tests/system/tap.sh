# tests/system/tap.sh - TAP helpers for the bash system tests.
# The binaries under test come from the environment (make check-asan sets
# them to the sanitizer build): $CVMBENCH, default ./cvmbench, and $CVMFN,
# default ./cvmfn. cvmbench runs the cvmfn next to it.
CVMBENCH=${CVMBENCH:-./cvmbench}
# Other people's runs hold the machine-wide host lock for a while on a shared
# machine: every run and restore of a test waits up to 15 minutes for it rather
# than fail with exit 2 (journal-lock.t unsets this to test the refusal).
export CVMBENCH_TEST_WAIT_LOCK=${CVMBENCH_TEST_WAIT_LOCK-900}
CVMFN=${CVMFN:-./cvmfn}
# Guest images and data disks the tests build are shared between tests, inside
# the checkout's build directory (make clean removes them), never the machine's
# /var/cache/cvmbench.
export CVMBENCH_CACHE_DIR=${CVMBENCH_CACHE_DIR:-$PWD/build/test-cache}
_tap_n=0
plan() { echo "1..$1"; }
_tap() { _tap_n=$((_tap_n + 1)); if [ "$1" = 0 ]; then echo "ok $_tap_n - $2"; else echo "not ok $_tap_n - $2"; fi; }
# is GOT WANT WHAT
is() { if [ "$1" = "$2" ]; then _tap 0 "$3"; else _tap 1 "$3"; echo "#   got:  '$1'"; echo "#   want: '$2'"; return 1; fi; }
# ok A OP B WHAT  (test(1) comparison)
ok() { if [ "$1" "$2" "$3" ] 2>/dev/null; then _tap 0 "$4"; else _tap 1 "$4"; echo "#   $1 $2 $3 is false"; fi; }
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # SKIP $1"; }
# skip_rest N REASON: skip the next N tests
skip_rest() { local i; for ((i = 0; i < $1; i++)); do skip "$2"; done; }
# skip_all N WHY: a requirement is missing: SKIP all N tests and exit 0; under CI
# (CI set) a missing tool is a failure instead (a missing root still skips).
skip_all() {
	local i
	if [ -n "${CI:-}" ] && [ "$2" != "needs root" ]; then
		for ((i = 0; i < $1; i++)); do _tap 1 "required under CI: $2"; done
		exit 1
	fi
	skip_rest "$1" "$2"
	exit 0
}
# need_fuzz_target BIN N: the fuzz target BIN (make fuzz) is built, or the N
# tests fail under CI (clang with libFuzzer is required there) and SKIP
# elsewhere, and the test exits
need_fuzz_target() {
	local i
	[ -x "$1" ] && return 0
	if [ -n "${CI:-}" ]; then
		for ((i = 0; i < $2; i++)); do
			_tap 1 "fuzz target $1 not built (make fuzz needs clang and libclang-rt-14-dev)"
		done
	else
		skip_rest "$2" "fuzz target not built: make fuzz needs clang with libFuzzer"
	fi
	exit 0
}
# calibrate N ARGS...: `cvmbench calibrate ARGS` as root, its output in $out, its
# exit code in $rc, its stderr in $tmp/err; not root, or the tool's own SKIP (exit
# 3, "SKIP TARGET: why": no tracefs, perf refused): SKIP the next N tests with the
# reason and exit 0
calibrate() {
	local n=$1
	shift
	if [ "$(id -u)" != 0 ]; then
		skip_rest "$n" "not root: perf tracepoint counters need root"
		exit 0
	fi
	out=$("$CVMBENCH" calibrate "$@" 2>"${tmp:?}/err"); rc=$?
	if [ $rc = 3 ]; then
		skip_rest "$n" "$(echo "$out" | grep '^SKIP' | head -1)"
		exit 0
	fi
}
# here NAME: what `cvmbench list` says of a backend or probe NAME on this
# machine: "supported here" or the tool's reason (empty when not listed)
here() { "$CVMBENCH" list 2>/dev/null | awk -v n="$1" '$1 == n { $1 = ""; sub(/^ +/, ""); print; exit }'; }
# cpuset_cpus: the CPUs this process's cgroup may use (cpuset.cpus.effective,
# what hwloc and so the tool's placement take as allowed; an affinity mask
# set by taskset is not a cpuset), else the online CPUs
cpuset_cpus() {
	local v1 v2 c f
	v2=$(awk -F: '$1 == 0 { print $3 }' /proc/self/cgroup 2>/dev/null)
	v1=$(awk -F: '$2 == "cpuset" { print $3 }' /proc/self/cgroup 2>/dev/null)
	# cgroup files say size 0: read them, the first that has a value
	for f in "/sys/fs/cgroup${v2%/}/cpuset.cpus.effective" \
		 "/sys/fs/cgroup/cpuset${v1%/}/cpuset.effective_cpus" /sys/devices/system/cpu/online; do
		c=$(cat "$f" 2>/dev/null)
		[ -n "$c" ] && { echo "$c"; return; }
	done
}
# first_cpu: the first of them (the tool's core 0 is this CPU's core)
first_cpu() { cpuset_cpus | sed 's/[-,].*//'; }
# cpu_allowed N: CPU N is one of them
cpu_allowed() {
	cpuset_cpus | awk -v n="$1" '{ k = split($1, r, ","); for (i = 1; i <= k; i++) {
		split(r[i], b, "-"); if (n >= b[1] && n <= (b[2] == "" ? b[1] : b[2])) f = 1 } }
		END { exit !f }'
}

# cleanup_restored DIR [STATE_DIR]: the EXIT trap of a test whose runs change
# the host under a journal of their own: `cvmbench restore` on STATE_DIR
# (default $CVMBENCH_STATE_DIR), then DIR is removed only when restore
# succeeded. A journal restore could not finish is kept, never deleted with
# the changes it still records (KSM left running was seen once that way).
cleanup_restored() {
	local dir=$1 state=${2:-${CVMBENCH_STATE_DIR:-}}
	if CVMBENCH_STATE_DIR=$state ./cvmbench restore >/dev/null 2>&1; then
		rm -rf "$dir"
	else
		echo "# kept $dir: restore failed; CVMBENCH_STATE_DIR=$state cvmbench restore undoes it" >&2
	fi
}

# noisy DB [EXPERIMENT]: how many cells (of EXPERIMENT, else all) the tool
# flagged noisy: other load shared the CPUs in the cell's window (lib/noise.c)
noisy() {
	sqlite3 "$1" "SELECT count(*) FROM metric m JOIN cell c ON c.id = m.cell_id
		WHERE ('${2:-}' = '' OR c.experiment = '${2:-}') AND m.name = 'flag_noisy'
		AND m.value = 1"
}

# quiet_ok VERDICT DB EXPERIMENT NAME: a check that needs quiet CPUs (CPU time
# against wall time, switches of a spinning worker, start times): VERDICT 1
# passes; otherwise it fails on a machine the tool saw quiet, and is a skip
# naming the load when the tool flagged cells of EXPERIMENT ("": any) noisy
quiet_ok() {
	local n
	n=$(noisy "$2" "$3")
	if [ "$1" != 1 ] && [ "${n:-0}" -gt 0 ]; then
		skip "$4: other load shared the CPUs ($n cells${3:+ of $3} flag_noisy)"
	else
		ok "$1" = 1 "$4"
	fi
}
