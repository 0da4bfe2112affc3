#!/bin/bash
# video-processing: the GIF decoded by giflib's giftext and by Pillow, frames
# against a numpy re-implementation and a hand-computed solid frame,
# thread-count independence, bad input.
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
run() { "$fn" run video-processing --data-dir "$d" "$@"; }
digest() { run "$@" | sed -n 's/^digest //p'; }

echo "1..15"
check "runs at size test, writes the GIF" "run --output '$d/clip.gif' > '$d/out' 2>&1"
check "summary: 8 frames 64x48 -> 32x24" "grep -q 'result: 8 frames 64x48 -> 32x24 .*GIF [0-9]* bytes' '$d/out'"
check "digest is the SHA-256 of the GIF bytes" \
	"[ \"\$(sed -n 's/^digest //p' '$d/out')\" = \"\$(sha256sum < '$d/clip.gif' | cut -d' ' -f1)\" ]"
if command -v giftext > /dev/null; then
	giftext "$d/clip.gif" > "$d/giftext" 2>&1
	check "giflib's giftext: GIF89, 32x24 screen, 8 images, 4 cs delay" \
		"grep -q 'Width = 32, Height = 24' '$d/giftext' &&
		 [ \$(grep -c '^Image #' '$d/giftext') = 8 ] &&
		 [ \$(grep -c 'DelayTime: 4' '$d/giftext') = 8 ] &&
		 head -c 6 '$d/clip.gif' | grep -q GIF89a"
else
	noref "no giftext (apt-get install giflib-tools)"
fi

if $py -c 'import numpy, PIL, cv2' 2>/dev/null; then
	cat > "$d/ref.py" <<'PY'
# Decode a GIF with Pillow (its own LZW decoder, not giflib) and compare the
# frames with OpenCV: gray from cv2.cvtColor(RGB2GRAY), must be bit-exact;
# scaled with cv2.resize(INTER_LINEAR), within TOL (1: OpenCV's weights have
# 11 fractional bits, cvmfn's 8); the logo is blended into both.
import sys
import numpy as np
import cv2
from PIL import Image

def frames(path):
    im = Image.open(path)
    out = []
    for i in range(im.n_frames):
        im.seek(i)
        if im.mode == 'L':            # Pillow maps a gray palette to L
            out.append(np.array(im).astype(np.int64))
            continue
        pal = np.array(im.getpalette()[:768]).reshape(-1, 3)
        assert (pal[:, 0] == pal[:, 1]).all() and (pal[:, 0] == pal[:, 2]).all()
        out.append(pal[np.array(im), 0])
    return im.size, out

def logo(size):
    outer, inner = 4 * size * 7 // 8, 4 * size * 5 // 8
    r = inner * 3 // 4
    a = np.zeros((size, size), dtype=np.int64)
    for y in range(size):
        for x in range(size):
            c = 0
            for j in range(4):
                for i in range(4):
                    sx, sy = 8 * x + 2 * i + 1 - 4 * size, 8 * y + 2 * j + 1 - 4 * size
                    d2 = sx * sx + sy * sy
                    c += (inner * inner <= d2 <= outer * outer) or \
                         (2 * sx >= -r and 3 * abs(sy) <= 2 * (r - sx))
            a[y, x] = c * 128 // 16
    return a

def expected(rgb, dw, dh):
    g = cv2.cvtColor(np.ascontiguousarray(rgb, dtype=np.uint8), cv2.COLOR_RGB2GRAY)
    out = cv2.resize(g, (dw, dh), interpolation=cv2.INTER_LINEAR).astype(np.int64)
    size = max(dh // 4, 8)
    m = max(dh // 40, 1)
    lx, ly = dw - size - m, dh - size - m
    a = logo(size)
    box = out[ly:ly + size, lx:lx + size]
    out[ly:ly + size, lx:lx + size] = (box * (256 - a) + 255 * a + 128) >> 8
    return out

def ramp(f, w, h):
    x, y = np.meshgrid(np.arange(w), np.arange(h))
    return np.stack([x * 255 // (w - 1), y * 255 // (h - 1), (x + y + 4 * f) & 255], -1)

def cube(f, w, h, nframes):
    bw, bh = w // 2, h // 2
    n = 2
    while (n + 1) ** 3 <= bw * bh * nframes:
        n += 1
    y, x = np.meshgrid(np.arange(h), np.arange(w), indexing='ij')
    k = (f * bh + y // 2) * bw + x // 2
    rgb = np.stack([k // (n * n) * 255 // (n - 1), k // n % n * 255 // (n - 1),
                    k % n * 255 // (n - 1)], -1)
    rgb[k >= n ** 3] = 0
    return rgb, n

mode, path, w, h, nframes, tol = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:7])
size, got = frames(path)
assert size == (w // 2, h // 2), size
assert len(got) == nframes, len(got)
worst, colours = 0, 0
for f, img in enumerate(got):
    if mode == 'ramp':
        src = ramp(f, w, h)
    elif mode == 'cube':
        src, n = cube(f, w, h, nframes)
        colours = n ** 3
    else:
        src = np.broadcast_to(np.array([int(v) for v in mode.split(',')]), (h, w, 3))
    diff = np.abs(img - expected(src, w // 2, h // 2))
    worst = max(worst, int(diff.max()))
    bad = np.argwhere(diff > tol)
    assert len(bad) == 0, (f, bad[:5], diff.max())
print('ok, max difference', worst, 'colours', colours)
PY
	run --variant cube --output "$d/cube.gif" > /dev/null
	check "cube (18^3 colours as 2x2 blocks): every gray equals cv2.cvtColor(RGB2GRAY), decoded by Pillow" \
		"$py '$d/ref.py' cube '$d/cube.gif' 64 48 8 0 > /dev/null"
	run --variant cube --size small --output "$d/cube-small.gif" > /dev/null
	check "cube (104^3 = 1124864 colours, small): every gray equals cv2.cvtColor's" \
		"$py '$d/ref.py' cube '$d/cube-small.gif' 320 240 60 0 > /dev/null"
	run --variant ramp --output "$d/ramp.gif" > /dev/null
	check "ramp frames (8 of 64x48) within 1 of cv2.cvtColor + cv2.resize(INTER_LINEAR)" \
		"$py '$d/ref.py' ramp '$d/ramp.gif' 64 48 8 1 > /dev/null"
	run --variant ramp --size small --output "$d/ramp-small.gif" > /dev/null
	check "ramp frames (60 of 320x240) within 1 of OpenCV's" \
		"$py '$d/ref.py' ramp '$d/ramp-small.gif' 320 240 60 1 > /dev/null"
	run --variant solid:200,100,50 --output "$d/solid.gif" > /dev/null
	check "solid 200,100,50 frames equal OpenCV's" \
		"$py '$d/ref.py' 200,100,50 '$d/solid.gif' 64 48 8 0 > /dev/null"
	# By hand: gray = (200*9798 + 100*19235 + 50*3735 + 16384) >> 15 = 124;
	# a fully covered logo pixel: (124*128 + 255*128 + 128) >> 8 = 190; the
	# logo is the 8x8 box at x 23..30, y 15..22 of the 32x24 frame.
	check "solid frame by hand: 124 outside the logo box, 190 under full cover" "$py - '$d/solid.gif' <<'PY'
import sys, numpy as np
from PIL import Image
im = Image.open(sys.argv[1])
assert im.n_frames == 8 and im.size == (32, 24)
im.seek(5)
g = np.array(im.convert('L')).astype(int)
box = np.zeros_like(g, dtype=bool); box[15:23, 23:31] = True
assert (g[~box] == 124).all(), np.unique(g[~box])
assert g[box].max() == 190 and g[box].min() == 124, (g[box].min(), g[box].max())
assert (g[box] == 190).sum() >= 2
PY"
else
	for i in 1 2 3 4 5 6; do noref "no numpy/Pillow/OpenCV for /usr/bin/python3 (apt-get install python3-numpy python3-pil python3-opencv)"; done
fi

d1=$(digest --threads 1); d2=$(digest --threads 2); d3=$(digest --threads 2 --seed 2)
check "same digest at 1 and 2 threads" "[ -n '$d1' ] && [ '$d1' = '$d2' ]"
check "another seed gives another digest" "[ -n '$d3' ] && [ '$d1' != '$d3' ]"
s1=$(digest --size small --threads 1 --wait block); s2=$(digest --size small --threads 2 --wait spin)
check "same digest at size small, 1 and 2 threads, block and spin" "[ -n '$s1' ] && [ '$s1' = '$s2' ]"
run --output "$d/no/such/dir/c.gif" > /dev/null 2> "$d/err"
rc=$?
check "unwritable --output fails, names the path, leaves nothing" \
	"[ $rc -ne 0 ] && grep -q 'no/such/dir/c.gif' '$d/err' && [ ! -e '$d/no' ]"
run --variant solid:1,2 > /dev/null 2> "$d/err"
rc=$?
check "unknown variant is an init error naming it" "[ $rc -eq 3 ] && grep -q \"unknown variant 'solid:1,2'\" '$d/err'"
