#!/bin/bash
# random-disk-io: the kept file holds exactly the seeded writes over the
# initial blocks, and the digest is what those reads return; errors.
d=$(mktemp -d)
ro=$d/ro
cleanup() { mountpoint -q "$ro" 2> /dev/null && umount "$ro"; rm -rf "$d"; }
trap cleanup EXIT
py=/usr/bin/python3
fn=${CVMFN:-./cvmfn}   # the cvmfn under test (a sanitizer build if set)
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
. tests/workloads/ref.sh
run() { "$fn" run random-disk-io --data-dir "$d/data" "$@"; }
digest() { run "$@" | sed -n 's/^digest //p'; }

echo "1..9"
run --seed 7 --repeat 2 --output "$d/kept" > "$d/out" 2>&1
check "runs twice at size test, keeps the file" "[ \$? -eq 0 ] && [ \"\$(stat -c %s '$d/kept')\" = 4194304 ]"
check "summary names writes, fsync and reads" "grep -q 'result: 256 x 4 KiB random writes .* fsync .* 256 reads' '$d/out'"
check "scratch file is removed at teardown" "[ -z \"\$(ls '$d/data')\" ]"
# An independent model: xoshiro256** offsets (xoshiro.py), block contents,
# FNV-1a, SHA-256.
cat > "$d/model.py" <<'PY'
import hashlib, struct, sys
from xoshiro import M, Rng, splitmix
def block(seed, kind, index, b):
    head = ("random-disk-io seed=%d %s=%d\n" % (seed, "init" if kind == 1 else "write",
                                               index)).encode()[:55]
    out = bytearray(head.ljust(56, b"\0")) + struct.pack("<Q", b)
    key = ((seed * 0x100000001b3) & M) ^ (kind << 40) ^ index
    for _ in range(504):
        key, w = splitmix(key)
        out += struct.pack("<Q", w)
    return bytes(out)
def fnv(p):
    h = 0xcbf29ce484222325
    for (w,) in struct.iter_unpack("<Q", p):
        h = ((h ^ w) * 0x100000001b3) & M
    return h
path, seed, want_digest = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(path, "rb").read()
nblocks = len(data) // 4096
ops = nblocks // 4
rng = Rng(seed, 0xd15c)
expect = {b: (1, b) for b in range(nblocks)}
for i in range(ops):
    expect[rng.below(nblocks)] = (2, i)
bad = [b for b in range(nblocks)
       if data[b * 4096:(b + 1) * 4096] != block(seed, expect[b][0], expect[b][1], b)]
assert not bad, "blocks differ from the model: %s" % bad[:5]
h = hashlib.sha256(struct.pack("<Q", ops))
for i in range(ops):
    b = rng.below(nblocks)
    h.update(struct.pack("<Q", fnv(data[b * 4096:(b + 1) * 4096])))
assert h.hexdigest() == want_digest, (h.hexdigest(), want_digest)
print("written blocks:", sum(1 for v in expect.values() if v[0] == 2))
PY
dg=$(sed -n 's/^digest //p' "$d/out")
if [ -x $py ]; then
	check "every block is the last seeded write or the initial block" \
		"PYTHONPATH=tests/workloads PYTHONDONTWRITEBYTECODE=1 $py '$d/model.py' '$d/kept' 7 '$dg' > '$d/model.out' 2>&1 || { cat '$d/model.out' >&2; false; }"
	check "the model saw overwritten and untouched blocks" \
		"grep -Eq 'written blocks: (1[0-9][0-9]|2[0-4][0-9])\$' '$d/model.out'"
else
	noref "no /usr/bin/python3"; noref "no /usr/bin/python3"
fi
d1=$(digest --threads 1); d2=$(digest --threads 2 --wait block); d3=$(digest --seed 2)
check "same digest at 1 and 2 threads" "[ -n '$d1' ] && [ '$d1' = '$d2' ]"
check "another seed gives another digest" "[ -n '$d3' ] && [ '$d1' != '$d3' ]"
mkdir "$ro"
if [ "$(id -u)" = 0 ]; then
	mount -t tmpfs -o ro,size=1m tmpfs "$ro" 2> /dev/null
else
	chmod 555 "$ro"
fi
if ! touch "$ro/probe" 2> /dev/null; then
	"$fn" run random-disk-io --data-dir "$ro" > /dev/null 2> "$d/err"
	rc=$?
	check "read-only data dir is an init error naming it" \
		"[ $rc -eq 3 ] && grep -q 'scratch directory in $ro' '$d/err'"
else
	rm -f "$ro/probe"
	skip "cannot make a read-only directory here (root without mount)"
fi
run --input /nonexistent > /dev/null 2> "$d/err"
rc=$?
check "--input is rejected" "[ $rc -eq 3 ] && grep -q 'no --input' '$d/err'"
