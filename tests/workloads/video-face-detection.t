#!/bin/bash
# video-face-detection: every raw window hit and every grouped face against
# OpenCV's own cv2.CascadeClassifier on the same RGB frames (OpenCV makes the
# gray frames itself, with cv2.cvtColor), thread-count independence, cascade
# errors.
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
py=/usr/bin/python3
cascades=/usr/share/opencv4/haarcascades
fn=${CVMFN:-./cvmfn}   # the cvmfn under test (a sanitizer build if set)
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
. tests/workloads/ref.sh
run() { "$fn" run video-face-detection --data-dir "$d" "$@"; }
digest() { run "$@" | sed -n 's/^digest //p'; }

echo "1..14"
if [ ! -r "$cascades/haarcascade_frontalface_default.xml" ]; then
	for i in $(seq 14); do noref "no $cascades (apt-get install opencv-data)"; done
	exit 0
fi
check "runs at size test, writes the frames" "run --output '$d/test.ppm' > '$d/out' 2>&1"
check "summary: 2 frames 160x120, windows, 25-stage cascade" \
	"grep -q 'result: 2 frames 160x120, 17 scales, [0-9]* windows evaluated, [0-9]* raw hits, [0-9]* faces (25 stages, 2913 weak classifiers)' '$d/out'"

cat > "$d/cmp.py" <<'PY'
# Read cvmfn's PPM sequence (RGB frames plus "# raw" / "# face" comments),
# convert each frame to gray with cv2.cvtColor(RGB2GRAY) and run OpenCV's
# CascadeClassifier on it: raw hits must equal
# detectMultiScale(img, 1.1, 0) (no grouping), faces and their neighbor
# counts must equal detectMultiScale2(img, 1.1, 3).
import sys
import numpy as np
import cv2

def read_ppm_seq(path):
    data, pos, frames = open(path, 'rb').read(), 0, []
    while pos < len(data):
        raw, faces = [], []
        assert data[pos:pos + 3] == b'P6\n', pos
        pos += 3
        while data[pos:pos + 1] == b'#':
            end = data.index(b'\n', pos)
            t = data[pos + 2:end].decode().split()
            pos = end + 1
            if t[0] == 'raw':
                raw.append(tuple(map(int, t[1:5])))
            elif t[0] == 'face':
                faces.append(tuple(map(int, t[1:6])))
        end = data.index(b'\n', pos)
        w, h = map(int, data[pos:end].split())
        pos = end + 1
        end = data.index(b'\n', pos)
        assert data[pos:end] == b'255'
        pos = end + 1
        rgb = np.frombuffer(data, np.uint8, 3 * w * h, pos).reshape(h, w, 3)
        img = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        pos += 3 * w * h
        frames.append((img, raw, faces))
    return frames

path, cascade, nframes, w, h = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
min_faces = int(sys.argv[6])
cv2.setNumThreads(1)
c = cv2.CascadeClassifier(cascade)
assert not c.empty()
frames = read_ppm_seq(path)
assert len(frames) == nframes, len(frames)
total_faces = 0
for i, (img, raw, faces) in enumerate(frames):
    assert img.shape == (h, w), img.shape
    assert img.std() > 10, 'a flat frame'
    clip = lambda r: (max(r[0], 0), max(r[1], 0),
                      min(r[0] + r[2], w) - max(r[0], 0), min(r[1] + r[3], h) - max(r[1], 0))
    cv_raw = sorted(tuple(map(int, r)) for r in c.detectMultiScale(img, 1.1, 0))
    assert sorted(map(clip, raw)) == cv_raw, (i, sorted(map(clip, raw)), cv_raw)
    found, nbr = c.detectMultiScale2(img, 1.1, 3)
    cv_faces = sorted(tuple(map(int, r)) + (int(k),) for r, k in zip(found, nbr))
    assert sorted(faces) == cv_faces, (i, sorted(faces), cv_faces)
    total_faces += len(faces)
assert total_faces >= min_faces, total_faces
print(total_faces)
PY
if $py -c 'import cv2, numpy' 2>/dev/null; then
	check "test: raw hits and faces equal OpenCV's on both frames" \
		"$py '$d/cmp.py' '$d/test.ppm' $cascades/haarcascade_frontalface_default.xml 2 160 120 1 > /dev/null"
	run --size small --output "$d/small.ppm" > /dev/null
	check "small: 10 frames 320x240, 2 drawn faces a frame found, all equal OpenCV's" \
		"[ \"\$($py '$d/cmp.py' '$d/small.ppm' $cascades/haarcascade_frontalface_default.xml 10 320 240 20)\" = 20 ]"
	run --size small --seed 3 --input $cascades/haarcascade_frontalface_alt2.xml \
		--output "$d/alt2.ppm" > /dev/null
	check "alt2 cascade (2-node trees), seed 3: equal OpenCV's" \
		"$py '$d/cmp.py' '$d/alt2.ppm' $cascades/haarcascade_frontalface_alt2.xml 10 320 240 10 > /dev/null"
else
	for i in 1 2 3; do noref "no OpenCV for /usr/bin/python3 (apt-get install python3-opencv)"; done
fi

d1=$(digest --threads 1); d2=$(digest --threads 2); d3=$(digest --threads 2 --seed 2)
check "same digest at 1 and 2 threads" "[ -n '$d1' ] && [ '$d1' = '$d2' ]"
check "another seed gives another digest" "[ -n '$d3' ] && [ '$d1' != '$d3' ]"
s1=$(digest --size small --threads 1 --wait block); s2=$(digest --size small --threads 2 --wait spin)
check "same digest at size small, 1 and 2 threads, block and spin" "[ -n '$s1' ] && [ '$s1' = '$s2' ]"
dd=$(digest --input $cascades/haarcascade_frontalface_default.xml)
check "--input with the default cascade's path gives the same digest" "[ '$dd' = '$d1' ]"

run --input "$d/missing.xml" > /dev/null 2> "$d/err"
rc=$?
check "missing cascade: init error naming the file and opencv-data" \
	"[ $rc -eq 3 ] && grep -q '$d/missing.xml' '$d/err' && grep -q opencv-data '$d/err'"
head -c 20000 $cascades/haarcascade_frontalface_default.xml > "$d/cut.xml"
run --input "$d/cut.xml" > /dev/null 2> "$d/err"
rc=$?
check "truncated cascade XML: init error naming the file" \
	"[ $rc -eq 3 ] && grep -q 'cascade $d/cut.xml' '$d/err'"
run --input $cascades/haarcascade_smile.xml > /dev/null 2> "$d/err"
rc=$?
check "cascade with tilted features: init error saying so" "[ $rc -eq 3 ] && grep -q 'tilted' '$d/err'"
run --output "$d/no/such/dir/f.ppm" > /dev/null 2> "$d/err"
rc=$?
check "unwritable --output fails, names the path, leaves nothing" \
	"[ $rc -ne 0 ] && grep -q 'no/such/dir/f.ppm' '$d/err' && [ ! -e '$d/no' ]"
run --variant big > /dev/null 2> "$d/err"
rc=$?
check "a variant is an init error" "[ $rc -eq 3 ] && grep -q 'no variants' '$d/err'"
