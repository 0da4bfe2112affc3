#!/usr/bin/env bash
# image-recognition: ResNet-50 / ResNet-152 against torchvision's own
# resnet50 / resnet152 loaded with the same weights (python3-torch,
# python3-torchvision), the same digest at any thread count and vector
# width, and clear errors for bad models, variants and inputs.
cd "$(dirname "$0")/../.." || exit 1
. tests/workloads/lib.sh
run() { "$fn" run image-recognition "$@"; }
digest() { run "$@" | sed -n 's/^digest //p'; }
have_torch() {
	"$PY" -c 'import importlib.util as u, sys
sys.exit(not (u.find_spec("torch") and u.find_spec("torchvision")))' 2>/dev/null
}
echo 1..19

# 1-4: prepare writes the model once (header + 25,530,472 folded floats);
# the digest is the same on 1 and 2 threads, with the SSE2 kernel, and
# over repeated invocations.
"$fn" prepare image-recognition --data-dir "$d/m" >/dev/null
size=$(stat -c %s "$d/m/image-recognition-resnet50-seed1.model" 2>/dev/null)
[ "$size" = $((104 + 4 * 25530472)) ]
ok $? "resnet50 model file holds 25530472 floats ($size bytes)"
out=$(run --data-dir "$d/m" --threads 1)
t1=$(sed -n 's/^digest //p' <<<"$out")
grep -q 'resnet50 32x32, 25557032 params' <<<"$out"
ok $? "summary gives torchvision's ResNet-50 parameter count 25557032"
t2=$(digest --data-dir "$d/m" --threads 2 --repeat 3)
[ -n "$t1" ] && [ "$t1" = "$t2" ]
ok $? "test size: same digest on 1 and 2 threads, over 3 invocations"
sse=$(CVMFN_SGEMM_ISA=sse2 digest --data-dir "$d/m" --threads 2 --wait block)
[ "$sse" = "$t1" ]
ok $? "the SSE2 SGEMM kernel gives the same digest as the widest one"

# 5-6: another seed: another model, another digest; a model of another seed is refused.
o2=$(digest --data-dir "$d/s2" --prepare --seed 2 --threads 2)
[ -n "$o2" ] && [ "$o2" != "$t1" ]
ok $? "seed 2 gives a different digest"
mkdir -p "$d/r"; cp "$d/m/image-recognition-resnet50-seed1.model" "$d/r/image-recognition-resnet50-seed2.model"
err=$(run --data-dir "$d/r" --seed 2 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q 'generated from seed 1, not 2' <<<"$err"
ok $? "a seed-1 model renamed to seed 2's file is rejected: $err"

# 7-8: a truncated and a missing model.
mkdir -p "$d/t"
head -c 50000000 "$d/m/image-recognition-resnet50-seed1.model" > "$d/t/image-recognition-resnet50-seed1.model"
err=$(run --data-dir "$d/t" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q 'truncated' <<<"$err"
ok $? "a truncated model is rejected: $err"
err=$(run --data-dir "$d/none" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q 'image-recognition-resnet50-seed1.model is missing' <<<"$err"
ok $? "a missing model is a clear error: $err"

# 9-12: bad variant, input and output.
err=$(run --data-dir "$d/m" --variant resnet18 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "unknown variant 'resnet18' (variants: resnet50, resnet152)" <<<"$err"
ok $? "an unknown variant lists the variants: $err"
err=$(run --data-dir "$d/m" --input "$d/no-such.ppm" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "no-such.ppm" <<<"$err"
ok $? "a missing --input is named: $err"
printf 'P6\n16 16\n255\n' > "$d/small.ppm"
head -c 768 /dev/zero >> "$d/small.ppm"
err=$(run --data-dir "$d/m" --input "$d/small.ppm" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "need a 32x32 PPM" <<<"$err"
ok $? "a PPM of the wrong size is refused: $err"
err=$(run --data-dir "$d/m" --output "$d/no-dir/scores.txt" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "cannot write $d/no-dir/scores.txt" <<<"$err" && [ ! -e "$d/no-dir" ]
ok $? "an unwritable --output fails and leaves nothing: $err"

# 13-17: torchvision resnet50 / resnet152 with the same weights (batch
# norm as identity plus the folded bias) on the same PPM images.
cat > "$d/ref.py" <<'PYEOF'
import sys
import numpy as np

HEADER = 8 + 48 + 8 + 8 + 32     # wlfile.c struct model_header
MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]

def load(variant, path):
    import torch, torchvision
    w = np.frombuffer(open(path, "rb").read()[HEADER:], dtype="<f4")
    net = getattr(torchvision.models, variant)().eval()
    pairs = [(net.conv1, net.bn1)]
    for layer in (net.layer1, net.layer2, net.layer3, net.layer4):
        for b in layer:
            pairs += [(b.conv1, b.bn1), (b.conv2, b.bn2), (b.conv3, b.bn3)]
            if b.downsample is not None:
                pairs.append((b.downsample[0], b.downsample[1]))
    off = 0
    def take(t):
        nonlocal off
        t.copy_(torch.from_numpy(w[off:off + t.numel()].copy()).view_as(t))
        off += t.numel()
    with torch.no_grad():
        for conv, bn in pairs:
            take(conv.weight)
            bn.weight.fill_(1.0)
            take(bn.bias)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        take(net.fc.weight)
        take(net.fc.bias)
    assert off == len(w), (off, len(w))
    return net

def ppm(path, size, seed):
    rng = np.random.default_rng(seed)
    img = rng.integers(0, 256, (size, size, 3), dtype=np.uint8)
    img[size // 4:size // 2, :, 0] = 250          # some structure
    with open(path, "wb") as f:
        f.write(b"P6\n# test image\n%d %d\n255\n" % (size, size) + img.tobytes())
    x = img.astype(np.float32) / np.float32(255)
    x = (x - np.array(MEAN, np.float32)) / np.array(STD, np.float32)
    return x.transpose(2, 0, 1).copy()[None]

def check(variant, model, image, size, seed, scores):
    import torch
    net = load(variant, model)
    x = torch.from_numpy(ppm(image, int(size), int(seed)))
    with torch.no_grad():
        want = net(x)[0].double().numpy()
    got = np.loadtxt(scores)
    params = sum(p.numel() for p in net.parameters())
    pw = np.exp(want - want.max())
    pw /= pw.sum()
    dl = np.abs(got[:, 1] - want).max() / want.std()
    dp = np.abs(got[:, 2] - pw).max()
    top_got = list(got[:, 2].argsort()[::-1][:5].astype(int))
    top_want = list(pw.argsort()[::-1][:5])
    good = dl < 2e-5 and dp < 2e-5 and top_got == top_want   # docs/workloads.md says the same
    return "%d %s %sx%s: params %d, max logit diff %.2g std, max prob diff %.2g, top-5 %s vs %s" % (
        good, variant, size, size, params, dl, dp, top_got, top_want)

# image PATH SIZE SEED | check VARIANT MODEL IMAGE SIZE SEED SCORES ...
if sys.argv[1] == "image":
    ppm(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
else:
    args = sys.argv[2:]
    for i in range(0, len(args), 6):
        print(check(*args[i:i + 6]), flush=True)
PYEOF

"$PY" "$d/ref.py" image "$d/in32.ppm" 32 11
"$PY" "$d/ref.py" image "$d/in112.ppm" 112 12
"$PY" "$d/ref.py" image "$d/in224.ppm" 224 13
run --data-dir "$d/m" --input "$d/in32.ppm" --output "$d/s50-32.txt" --threads 2 >/dev/null
out=$(run --data-dir "$d/m" --size small --input "$d/in112.ppm" --output "$d/s50-112.txt" --threads 2)
s1=$(digest --data-dir "$d/m" --size small --input "$d/in112.ppm" --threads 1)
[ -n "$s1" ] && [ "$s1" = "$(sed -n 's/^digest //p' <<<"$out")" ]
ok $? "small size (112x112 PPM): same digest on 1 and 2 threads"
out=$(run --data-dir "$d/m" --prepare --variant resnet152 --input "$d/in32.ppm" \
	--output "$d/s152-32.txt" --threads 2)
grep -q 'resnet152 32x32, 60192808 params' <<<"$out"
ok $? "resnet152 summary gives torchvision's parameter count 60192808"
# 224 x 224, the study's size (large), for both networks
run --data-dir "$d/m" --size large --input "$d/in224.ppm" --output "$d/s50-224.txt" --threads 2 >/dev/null
run --data-dir "$d/m" --size large --variant resnet152 --input "$d/in224.ppm" \
	--output "$d/s152-224.txt" --threads 2 >/dev/null
if have_torch; then
	"$PY" "$d/ref.py" check \
		resnet50 "$d/m/image-recognition-resnet50-seed1.model" "$d/in32.ppm" 32 11 "$d/s50-32.txt" \
		resnet50 "$d/m/image-recognition-resnet50-seed1.model" "$d/in112.ppm" 112 12 "$d/s50-112.txt" \
		resnet50 "$d/m/image-recognition-resnet50-seed1.model" "$d/in224.ppm" 224 13 "$d/s50-224.txt" \
		resnet152 "$d/m/image-recognition-resnet152-seed1.model" "$d/in32.ppm" 32 11 "$d/s152-32.txt" \
		resnet152 "$d/m/image-recognition-resnet152-seed1.model" "$d/in224.ppm" 224 13 "$d/s152-224.txt" \
		> "$d/ref.out" 2>&1
	for i in 1 2 3 4 5; do
		line=$(sed -n "${i}p" "$d/ref.out")
		[ "${line%% *}" = 1 ]
		ok $? "matches torchvision: ${line#* }"
	done
else
	for i in 1 2 3 4 5; do noref "python3-torch / python3-torchvision not installed"; done
fi
