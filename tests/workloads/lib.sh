# tests/workloads/lib.sh - the shared start of the workload tests (TAP).
# Source it from the repository root. It gives:
#   $d        a private directory, removed at exit
#   $PY       Debian's python3 (with numpy, networkx, sklearn, torch, cv2)
#   $fn       the cvmfn under test: $CVMFN, default ./cvmfn (make check-asan
#             and the sanitizer build set it to build-asan/cvmfn)
#   ok STATUS WHAT   "ok N - WHAT" when STATUS is 0, else "not ok N - WHAT"
#   skip REASON      "ok N # SKIP REASON"
#   noref REASON     a missing reference: SKIP, or under CI a failure (ref.sh)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
PY=${REF_PYTHON:-/usr/bin/python3}   # REF_PYTHON: another interpreter (tests of the tests)
fn=${CVMFN:-./cvmfn}
# a sanitizer build of cvmfn stops at the first undefined behaviour
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
. tests/workloads/ref.sh
