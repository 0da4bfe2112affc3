# tests/system/runc-lib.sh - what the runc/crun system tests need: root,
# runc and tracefs. Source after tap.sh; `runc_require N` skips all N
# tests with the reason and exits when one is missing.
runc_require() {
	local why=""
	[ "$(id -u)" = 0 ] || why="needs root"
	[ -z "$why" ] && ! command -v runc >/dev/null && why="runc is not installed"
	# tracefs as the tool finds it (mounted, or mountable: the run mounts it)
	[ -z "$why" ] && ! ./cvmbench env --json 2>/dev/null | python3 -c 'import json,sys
sys.exit(not json.load(sys.stdin)["tracefs.mountable"]["value"].startswith("yes"))' &&
		why="no tracefs: $(./cvmbench env 2>/dev/null | awk '$1 == "tracefs.mountable"')"
	if [ -n "$why" ]; then
		skip_rest "$1" "$why"
		exit 0
	fi
}
