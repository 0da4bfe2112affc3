# tests/system/guest-lib.sh - the set-up the system tests that boot TCG guests
# share (after tap.sh): guest_test_begin N [TOOL...] plans N tests, then
# SKIPs them all (a failure under CI, but for root) without root, sqlite3,
# qemu-system-x86_64 or a TOOL; makes $tmp (cvmbench restore, then removed,
# at exit) and exports TMPDIR, CVMBENCH_STATE_DIR and CVMBENCH_DATA_DIR into
# it; builds or reuses the guest image in $CVMBENCH_CACHE_DIR (SKIPs when the
# kernel package cannot be fetched, outside CI). Returns 1 when the caller
# should `exit 0`; exits 1 itself under CI.
guest_test_begin() {
	local n=$1 why= t i
	shift
	plan "$n"
	[ "$(id -u)" = 0 ] || why="needs root"
	for t in sqlite3 qemu-system-x86_64 "$@"; do
		[ -z "$why" ] && ! command -v "$t" >/dev/null && why="$t is not installed"
	done
	if [ -n "$why" ]; then
		if [ -n "${CI:-}" ] && [ "$why" != "needs root" ]; then
			for ((i = 0; i < n; i++)); do _tap 1 "required under CI: $why"; done
			exit 1
		fi
		skip_rest "$n" "$why"
		return 1
	fi
	command -v mkfs.ext4 >/dev/null || PATH=$PATH:/usr/sbin:/sbin
	tmp=$(mktemp -d)
	trap '$CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
	export TMPDIR=$tmp CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
	if ! $CVMBENCH guest build >"$tmp/build.out" 2>&1 && [ -z "${CI:-}" ] &&
		grep -qiE "apt-get|apt-cache" "$tmp/build.out"; then
		skip_rest "$n" "cannot fetch the kernel package: $(head -c 200 "$tmp/build.out")"
		return 1
	fi
	return 0
}
