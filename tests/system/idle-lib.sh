# tests/system/idle-lib.sh - shared by the idle-*.t tests: private state,
# data and database in a temporary directory, the machine's requirements,
# and the guest_halt_poll_ns value found at the start (the baseline the
# journal must restore). At exit: `cvmbench restore` on the private journal.
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

HP=/sys/module/haltpoll/parameters/guest_halt_poll_ns
GOV=/sys/devices/system/cpu/cpuidle/current_governor_ro
TR=/sys/kernel/tracing
tmp=$(mktemp -d)
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
db=$tmp/r.db
hp_orig=$(cat "$HP" 2>/dev/null)
bg_pids=
idle_cleanup() {
	local p
	for p in $bg_pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	./cvmbench restore > /dev/null 2>&1
	rm -rf "$tmp"
}
trap idle_cleanup EXIT
q() { sqlite3 "$db" "$@"; }
# show_err: cvmbench's messages as TAP diagnostics (after a failure).
show_err() { grep -v 'info: cell' "$tmp/err" | sed 's/^/# /'; }

# envfact KEY: the value cvmbench's own detection gives for KEY (cvmbench env).
envfact() {
	[ -s "$tmp/env.json" ] || ./cvmbench env --json > "$tmp/env.json" 2> /dev/null
	python3 -c 'import json,sys
print(json.load(open(sys.argv[1])).get(sys.argv[2], {}).get("value", ""))' "$tmp/env.json" "$1"
}

# why_not_idle: empty when root, and the tool finds a cpuidle driver with a
# POLL state under the haltpoll governor; else the reason to skip. Without
# a driver, idle-policy.t runs the no-driver checks instead.
why_not_idle() {
	[ "$(id -u)" = 0 ] || { echo "needs root"; return; }
	command -v sqlite3 > /dev/null || { echo "no sqlite3"; return; }
	[ -x ./cvmbench ] || { echo "cvmbench not built"; return; }
	[ "$(envfact cpuidle.driver)" != none ] ||
		{ echo "no cpuidle driver (cvmbench env: cpuidle.driver none)"; return; }
	[ "$(envfact cpuidle.cpu0.state0.name)" = POLL ] ||
		{ echo "cpuidle has no POLL state (cvmbench env: cpuidle.cpu0.state0.name)"; return; }
	[ "$(envfact cpuidle.governor)" = haltpoll ] ||
		{ echo "cpuidle governor is '$(envfact cpuidle.governor)', not haltpoll"; return; }
	[ -w "$HP" ] || echo "no writable $HP"
}

# why_not_tracefs: empty when the tool finds tracefs mounted or mountable
# (a run mounts it itself, and unmounts it at its end); never mounts it here.
why_not_tracefs() {
	case "$(envfact tracefs.mountable)" in
	yes*) ;;
	*) echo "no tracefs: $(envfact tracefs.mountable)"; return ;;
	esac
	./cvmbench list 2>/dev/null | grep -q 'built without libtracefs' &&
		echo "built without libtracefs"
}

# metric CELL-ID NAME: a cell-level metric of the idle probe.
metric() {
	q "SELECT value FROM metric WHERE cell_id = $1 AND invocation_id IS NULL AND name = '$2'"
}

# cell_of IDLE: the id of the cell whose idle policy is IDLE (latest run).
cell_of() {
	q "SELECT c.id FROM cell c JOIN cell_param p ON p.cell_id = c.id
	   WHERE p.key = 'idle' AND p.value = '$1' ORDER BY c.id DESC LIMIT 1"
}

# wait_for_value FILE VALUE SECONDS: 0 once FILE reads VALUE.
wait_for_value() {
	local i
	for ((i = 0; i < $3 * 20; i++)); do
		[ "$(cat "$1")" = "$2" ] && return 0
		sleep 0.05
	done
	return 1
}

# instances_left: cvmbench tracefs instances present now.
instances_left() { ls "$TR/instances" 2>/dev/null | grep -c '^cvmbench-idle-'; }

# A sleep/wake loop: many short sleeps, each an idle entry on an idle vCPU.
sleep_loop() { while :; do sleep 0.002; done; }
