# tests/workloads/ref.sh - sourced by every workload test (through lib.sh or
# directly). It gives:
#   noref REASON   a reference the test checks against (a Python module, a
#                  tool) is missing: "ok N # SKIP REASON", but under CI (the
#                  CI environment variable set) "not ok N - ...": CI installs
#                  every reference (.ci/install-deps), so a missing one is a
#                  failure there, never a silent pass.
# It uses the test's TAP counter $n and its skip() function.
noref() {
	if [ -n "${CI:-}" ]; then
		n=$((n + 1))
		echo "not ok $n - reference missing under CI: $1"
	else
		skip "$1"
	fi
}
