#!/usr/bin/env bash
# cnn-classification: SqueezeNet 1.1 against torchvision's squeezenet1_1
# loaded with the same weights (python3-torch, python3-torchvision), the
# same digest at any thread count and vector width, and clear errors.
cd "$(dirname "$0")/../.." || exit 1
. tests/workloads/lib.sh
run() { "$fn" run cnn-classification "$@"; }
digest() { run "$@" | sed -n 's/^digest //p'; }
have_torch() {
	"$PY" -c 'import importlib.util as u, sys
sys.exit(not (u.find_spec("torch") and u.find_spec("torchvision")))' 2>/dev/null
}
model=cnn-classification-squeezenet1_1-seed1.model   # one model file per seed
echo 1..15

# 1-5: the model file, the parameter count, determinism.
"$fn" prepare cnn-classification --data-dir "$d/m" >/dev/null
size=$(stat -c %s "$d/m/$model" 2>/dev/null)
[ "$size" = $((104 + 4 * 1235496)) ]
ok $? "model file holds the 1235496 SqueezeNet 1.1 parameters ($size bytes)"
out=$(run --data-dir "$d/m" --threads 1)
t1=$(sed -n 's/^digest //p' <<<"$out")
grep -q 'squeezenet1_1 32x32, 1235496 params' <<<"$out"
ok $? "summary gives the parameter count: $(sed -n "s/^result: //p" <<<"$out")"
t2=$(digest --data-dir "$d/m" --threads 2 --repeat 3)
[ -n "$t1" ] && [ "$t1" = "$t2" ]
ok $? "test size: same digest on 1 and 2 threads, over 3 invocations"
[ "$(CVMFN_SGEMM_ISA=sse2 digest --data-dir "$d/m" --threads 2)" = "$t1" ]
ok $? "the SSE2 SGEMM kernel gives the same digest as the widest one"
l1=$(digest --data-dir "$d/m" --size large --threads 1)
l2=$(digest --data-dir "$d/m" --size large --threads 2 --wait spin)
[ -n "$l1" ] && [ "$l1" = "$l2" ] && [ "$l1" != "$t1" ]
ok $? "large size: same digest on 1 and 2 threads"

# 6-9: seeds and bad model files.
o2=$(digest --data-dir "$d/s2" --prepare --seed 2)
[ -n "$o2" ] && [ "$o2" != "$t1" ]
ok $? "seed 2 gives a different digest"
mkdir -p "$d/r"; cp "$d/m/$model" "$d/r/${model%%-seed1.model}-seed2.model"
err=$(run --data-dir "$d/r" --seed 2 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q 'generated from seed 1, not 2' <<<"$err"
ok $? "a seed-1 model renamed to seed 2's file is rejected: $err"
mkdir -p "$d/t"
head -c 1000000 "$d/m/$model" > "$d/t/$model"
err=$(run --data-dir "$d/t" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q 'truncated' <<<"$err"
ok $? "a truncated model is rejected: $err"
err=$(run --data-dir "$d/none" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "$model is missing" <<<"$err"
ok $? "a missing model is a clear error: $err"

# 10-12: bad variant, input and output.
err=$(run --data-dir "$d/m" --variant squeezenet1_0 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "unknown variant 'squeezenet1_0' (variants: squeezenet1_1)" <<<"$err"
ok $? "an unknown variant lists the variants: $err"
err=$(run --data-dir "$d/m" --input "$d/no-such.ppm" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "no-such.ppm" <<<"$err"
ok $? "a missing --input is named: $err"
err=$(run --data-dir "$d/m" --output "$d/no-dir/scores.txt" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "cannot write $d/no-dir/scores.txt" <<<"$err" && [ ! -e "$d/no-dir" ]
ok $? "an unwritable --output fails and leaves nothing: $err"

# 13-15: torchvision squeezenet1_1 with the same weights on the same images.
cat > "$d/ref.py" <<'PYEOF'
import sys
import numpy as np

HEADER = 8 + 48 + 8 + 8 + 32     # wlfile.c struct model_header
MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]

def load(path):
    import torch, torchvision
    w = np.frombuffer(open(path, "rb").read()[HEADER:], dtype="<f4")
    net = torchvision.models.squeezenet1_1().eval()
    convs = [net.features[0]]
    for i in (3, 4, 6, 7, 9, 10, 11, 12):
        f = net.features[i]
        convs += [f.squeeze, f.expand1x1, f.expand3x3]
    convs.append(net.classifier[1])
    off = 0
    with torch.no_grad():
        for conv in convs:
            for t in (conv.weight, conv.bias):
                t.copy_(torch.from_numpy(w[off:off + t.numel()].copy()).view_as(t))
                off += t.numel()
    assert off == len(w), (off, len(w))
    return net

def ppm(path, size, seed):
    rng = np.random.default_rng(seed)
    img = rng.integers(0, 256, (size, size, 3), dtype=np.uint8)
    img[:, size // 3:size // 2, 1] = 20
    with open(path, "wb") as f:
        f.write(b"P6 %d %d 255\n" % (size, size) + img.tobytes())
    x = img.astype(np.float32) / np.float32(255)
    x = (x - np.array(MEAN, np.float32)) / np.array(STD, np.float32)
    return x.transpose(2, 0, 1).copy()[None]

def check(model, image, size, seed, scores):
    import torch
    net = load(model)
    with torch.no_grad():
        want = net(torch.from_numpy(ppm(image, int(size), int(seed))))[0].double().numpy()
    got = np.loadtxt(scores)
    params = sum(p.numel() for p in net.parameters())
    pw = np.exp(want - want.max())
    pw /= pw.sum()
    dl = np.abs(got[:, 1] - want).max() / want.std()
    dp = np.abs(got[:, 2] - pw).max()
    top_got = list(got[:, 2].argsort()[::-1][:5].astype(int))
    top_want = list(pw.argsort()[::-1][:5])
    good = dl < 2e-5 and dp < 2e-6 and top_got == top_want   # docs/workloads.md says the same
    return "%d squeezenet1_1 %sx%s: params %d, max logit diff %.2g std, max prob diff %.2g, top-5 %s vs %s" % (
        good, size, size, params, dl, dp, top_got, top_want)

# image PATH SIZE SEED | check MODEL IMAGE SIZE SEED SCORES ...
if sys.argv[1] == "image":
    ppm(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
else:
    args = sys.argv[2:]
    for i in range(0, len(args), 5):
        print(check(*args[i:i + 5]), flush=True)
PYEOF
set --
for s in test:32 small:112 large:224; do
	px=${s#*:}
	"$PY" "$d/ref.py" image "$d/in$px.ppm" "$px" "$px"
	run --data-dir "$d/m" --size "${s%:*}" --input "$d/in$px.ppm" \
		--output "$d/scores$px.txt" --threads 2 >/dev/null
	set -- "$@" "$d/m/$model" "$d/in$px.ppm" "$px" "$px" "$d/scores$px.txt"
done
if have_torch; then
	"$PY" "$d/ref.py" check "$@" > "$d/ref.out" 2>&1
	for i in 1 2 3; do
		line=$(sed -n "${i}p" "$d/ref.out")
		[ "${line%% *}" = 1 ]
		ok $? "matches torchvision: ${line#* }"
	done
else
	for i in 1 2 3; do noref "python3-torch / python3-torchvision not installed"; done
fi
