#!/bin/bash
# tests/system/runc-cleanup.t - the runc/crun backends leave nothing behind:
# a run killed with SIGKILL in the middle of cold starts (shared netns,
# CPU-quota cgroup, co-runner, tracefs probe all in use) is cleaned by
# `cvmbench restore`; bad input (missing runtime, a runtime that fails, a
# runtime that hangs past start-timeout, cgroups = off with runc, no root)
# gives a clear error or skip while the other cells go on.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/runc-lib.sh

N=14
plan $N
runc_require $N

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
db=$tmp/r.db
q() { sqlite3 "$db" "$@"; }
leftovers() {
	ls -d /sys/fs/cgroup/*/cvmbench-[0-9]* /sys/fs/cgroup/*/cvmbench-quota-* \
		/sys/kernel/tracing/instances/cvmbench-runc-* \
		"$CVMBENCH_STATE_DIR"/oci/* "$CVMBENCH_STATE_DIR"/netns-* 2>/dev/null
	runc list -q 2>/dev/null | grep cvmbench-
	grep -q "$CVMBENCH_STATE_DIR/netns" /proc/self/mountinfo && echo "netns mount"
}

cat > "$tmp/k.ini" <<'INI'
[experiment kill]
workload = hello-world
backend = runc
mode = cold
invocations = 500
warmup = 0
netns = shared
cpu-quota = 50
corunner = 1
probes = runc
INI
./cvmbench run "$tmp/k.ini" --db "$db" --data-dir "$tmp/data" 2>"$tmp/kerr" &
pid=$!
for i in $(seq 300); do   # up to 30 s: beside a CPU hog 10 s was once too few
	[ "$(q "SELECT count(*) FROM runc_start" 2>/dev/null)" -ge 3 ] 2>/dev/null && break
	sleep 0.1
done
kill -9 $pid; wait $pid 2>/dev/null
ok "$(q "SELECT count(*) FROM runc_start")" -ge 3 "killed after some cold starts were recorded"
ok "$(grep -c . "$CVMBENCH_STATE_DIR/journal")" -gt 0 "the journal holds what the killed run made"
sleep 0.5
./cvmbench restore >"$tmp/restore" 2>&1; rc=$?
is "$rc" 0 "cvmbench restore exits 0"
grep -q "oci-netns" "$tmp/restore" && grep -q "oci-cgroup" "$tmp/restore" && grep -q "oci-rootfs" "$tmp/restore"
is "$?" 0 "restore removed the netns, the quota cgroup and the rootfs"
is "$(leftovers | tr '\n' ' ')" "" "nothing left after restore"
ok "$(pgrep -f "$tmp/data" | wc -l)" = 0 "no process of the killed run left"

fake=$tmp/fake-runtime
printf '#!/bin/sh\nexit 1\n' > "$fake-fail"
printf '#!/bin/sh\nexec sleep 30\n' > "$fake-hang"
chmod +x "$fake-fail" "$fake-hang"
cat > "$tmp/bad.ini" <<INI
[defaults]
workload = hello-world
mode = cold
invocations = 2
warmup = 0
[experiment bad-missing]
backend = runc
runtime-path = /nonexistent/runc
[experiment bad-fails]
backend = runc
runtime-path = $fake-fail
[experiment bad-hangs]
backend = runc
runtime-path = $fake-hang
start-timeout = 1
[experiment bad-nocgroups]
backend = runc
cgroups = off
[experiment good]
backend = runc
INI
db=$tmp/bad.db
./cvmbench run "$tmp/bad.ini" --db "$db" --data-dir "$tmp/data" 2>"$tmp/err"; rc=$?
ok "$rc" -ne 0 "bad cells make the run fail (exit $rc)"
st() { q "SELECT status FROM cell WHERE experiment = '$1'"; }
err() { q "SELECT message FROM error e JOIN cell c ON c.id = e.cell_id WHERE c.experiment = '$1' LIMIT 1"; }
# has ERR-TEXT EXPERIMENT: the grep's status, read before another command runs
has() { grep -q "$1" <<<"$(err "$2")"; echo $?; }
is "$(st bad-missing).$(has "/nonexistent/runc: No such file" bad-missing)" "failed.0" \
	"missing runtime: failed, the path named"
is "$(st bad-fails).$(has "exited with status 1" bad-fails)" "failed.0" \
	"runtime that fails: failed, with its status"
is "$(st bad-hangs).$(has "no reply in time (timeout)" bad-hangs)" "failed.0" \
	"runtime that hangs (after a failed cell): failed after start-timeout" || err bad-hangs | sed 's/^/# /'
is "$(st bad-nocgroups) $(q "SELECT count(*) FROM skip WHERE reason LIKE '%runc always puts%'")" "skipped 1" \
	"cgroups = off with runc: skipped with the reason"
is "$(st good)" ok "the good cell after them is measured"
is "$(leftovers | tr '\n' ' ')$(cat "$CVMBENCH_STATE_DIR/journal")" "" "nothing left after the bad cells"

if command -v setpriv >/dev/null; then
	nr=$tmp/nobody; chmod 711 "$tmp"; mkdir -m 777 "$nr"
	printf '[experiment nr]\nworkload = hello-world\nbackend = runc\nmode = cold\ninvocations = 1\n' > "$nr/n.ini"
	setpriv --reuid=65534 --regid=65534 --clear-groups env CVMBENCH_STATE_DIR="$nr/state" \
		HOME="$nr" ./cvmbench run "$nr/n.ini" --db "$nr/r.db" --data-dir "$nr/data" 2>/dev/null; rc=$?
	is "$rc $(sqlite3 "$nr/r.db" "SELECT reason FROM skip")" "3 runc needs root (containers, cgroups, namespaces)" \
		"without root: skipped (exit 3) with the reason"
else
	skip "setpriv is not installed"
fi
