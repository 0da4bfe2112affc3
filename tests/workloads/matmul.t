#!/bin/bash
# matmul: C = A * B against numpy, thread-count independence, bad input.
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
py=/usr/bin/python3
fn=${CVMFN:-./cvmfn}   # the cvmfn under test (a sanitizer build if set)
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
. tests/workloads/ref.sh
digest() { "$fn" run matmul --data-dir "$d" "$@" | sed -n 's/^digest //p'; }

echo "1..9"
check "runs at size test" "'$fn' run matmul --data-dir '$d' --output '$d/abc.bin' > '$d/out' 2>&1"
check "summary reports GFLOP/s" "grep -q 'result: N=64 .*GFLOP/s' '$d/out'"
check "output holds A, B and C (3 * 64 * 64 doubles)" \
	"[ \"\$(stat -c %s '$d/abc.bin')\" = $((3 * 64 * 64 * 8)) ]"
if $py -c 'import numpy' 2>/dev/null; then
	check "C equals numpy A @ B" "$py - '$d/abc.bin' <<'PY'
import sys, numpy as np
m = np.fromfile(sys.argv[1], dtype='<f8').reshape(3, 64, 64)
a, b, c = m
assert np.abs(a).max() <= 1.0 and a.std() > 0.3
assert np.allclose(a @ b, c, rtol=1e-12, atol=1e-12), abs(a @ b - c).max()
PY"
	"$fn" run matmul --data-dir "$d" --size small --output "$d/abc512.bin" > /dev/null
	check "C equals numpy A @ B at N=512 (several k blocks and row panels)" "$py - '$d/abc512.bin' <<'PY'
import sys, numpy as np
a, b, c = np.fromfile(sys.argv[1], dtype='<f8').reshape(3, 512, 512)
assert np.allclose(a @ b, c, rtol=1e-12, atol=1e-11), abs(a @ b - c).max()
PY"
else
	noref "no numpy for /usr/bin/python3 (apt-get install python3-numpy)"
	noref "no numpy for /usr/bin/python3 (apt-get install python3-numpy)"
fi
d1=$(digest --threads 1); d2=$(digest --threads 2); d3=$(digest --threads 2 --seed 2)
check "same digest at 1 and 2 threads" "[ -n '$d1' ] && [ '$d1' = '$d2' ]"
check "another seed gives another digest" "[ -n '$d3' ] && [ '$d1' != '$d3' ]"
"$fn" run matmul --data-dir "$d" --output "$d/no/such/dir/c.bin" > /dev/null 2> "$d/err"
rc=$?
check "unwritable --output fails, names the path, leaves nothing" \
	"[ $rc -ne 0 ] && grep -q 'no/such/dir/c.bin' '$d/err' && [ ! -e '$d/no' ]"
"$fn" run matmul --data-dir "$d" --variant big > /dev/null 2> "$d/err"
rc=$?
check "unknown variant is an init error" "[ $rc -eq 3 ] && grep -q 'no variants' '$d/err'"
