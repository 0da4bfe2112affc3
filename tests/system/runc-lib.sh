# tests/system/runc-lib.sh - what the runc/crun system tests need: root,
# runc and tracefs. Source after tap.sh; `runc_require N` skips all N
# tests with the reason and exits when one is missing.
runc_require() {
	local why=""
	[ "$(id -u)" = 0 ] || why="needs root"
	[ -z "$why" ] && ! command -v runc >/dev/null && why="runc is not installed"
	[ -z "$why" ] && ! grep -q tracefs /proc/filesystems && why="no tracefs in this kernel"
	if [ -n "$why" ]; then
		skip_rest "$1" "$why"
		exit 0
	fi
}
