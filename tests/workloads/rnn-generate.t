#!/usr/bin/env bash
# rnn-generate: the LSTM name generator against torch.nn.LSTM + nn.Linear
# with the same weights and greedy decoding (python3-torch), the same
# digest at any thread count, and clear errors for bad models and options.
cd "$(dirname "$0")/../.." || exit 1
. tests/workloads/lib.sh
run() { "$fn" run rnn-generate "$@"; }
digest() { run "$@" | sed -n 's/^digest //p'; }
model=rnn-generate-lstm128-seed1.model   # one model file per seed
echo 1..15

# 1: weight_ih 512x77, weight_hh 512x128, two 512 biases, out 59x128 + 59.
"$fn" prepare rnn-generate --data-dir "$d/m" >/dev/null
size=$(stat -c %s "$d/m/$model" 2>/dev/null)
[ "$size" = $((104 + 4 * (512 * 77 + 512 * 128 + 2 * 512 + 59 * 128 + 59))) ]
ok $? "model file holds the LSTM and output layer ($size bytes)"

# 2-5: --output lists one name per (language, start letter) request.
for s in test:4 small:64 large:468; do
	run --data-dir "$d/m" --size "${s%:*}" --threads 2 --output "$d/names-${s%:*}.txt" >/dev/null
	[ "$(wc -l < "$d/names-${s%:*}.txt")" = "${s#*:}" ]
	ok $? "${s%:*}: ${s#*:} names written"
done
awk '{ i = NR - 1; l = substr("ABCDEFGHIJKLMNOPQRSTUVWXYZ", int(i / 18) % 26 + 1, 1)
       if (substr($2, 1, 1) != l || length($2) > 21) bad = 1 }
     END { exit bad }' "$d/names-large.txt"
ok $? "every name starts with its start letter and has at most 1 + 20 letters"

# 6-8: determinism and seeds.
s1=$(digest --data-dir "$d/m" --size small --threads 1)
s2=$(digest --data-dir "$d/m" --size small --threads 2 --repeat 3)
[ -n "$s1" ] && [ "$s1" = "$s2" ]
ok $? "small: same digest on 1 and 2 threads, over 3 invocations"
l1=$(digest --data-dir "$d/m" --size large --threads 1)
l2=$(digest --data-dir "$d/m" --size large --threads 2 --wait block)
[ -n "$l1" ] && [ "$l1" = "$l2" ] && [ "$l1" != "$s1" ]
ok $? "large: same digest on 1 and 2 threads"
o2=$(digest --data-dir "$d/s2" --prepare --seed 2 --size small)
[ -n "$o2" ] && [ "$o2" != "$s1" ]
ok $? "seed 2 gives a different digest"

# 9-13: bad models and options.
mkdir -p "$d/r"; cp "$d/m/$model" "$d/r/${model%%-seed1.model}-seed2.model"
err=$(run --data-dir "$d/r" --seed 2 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q 'generated from seed 1, not 2' <<<"$err"
ok $? "a seed-1 model renamed to seed 2's file is rejected: $err"
mkdir -p "$d/t"
head -c 4000 "$d/m/$model" > "$d/t/$model"
err=$(run --data-dir "$d/t" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q 'truncated' <<<"$err"
ok $? "a truncated model is rejected: $err"
err=$(run --data-dir "$d/none" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "$model is missing" <<<"$err"
ok $? "a missing model is a clear error: $err"
err=$(run --data-dir "$d/m" --variant gru 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "unknown variant 'gru' (variants: lstm)" <<<"$err"
ok $? "an unknown variant lists the variants: $err"
err=$(run --data-dir "$d/m" --output "$d/no-dir/names.txt" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "cannot write $d/no-dir/names.txt" <<<"$err" && [ ! -e "$d/no-dir" ]
ok $? "an unwritable --output fails and leaves nothing: $err"

# 14-15: torch.nn.LSTM with the same weights generates the same names.
cat > "$d/ref.py" <<'PYEOF'
import string, sys
import numpy as np
import torch

HEADER = 8 + 48 + 8 + 8 + 32     # wlfile.c struct model_header
LETTERS = string.ascii_letters + " .,;'-"
N_LETTERS = len(LETTERS) + 1     # + EOS
LANGS = ["Arabic", "Chinese", "Czech", "Dutch", "English", "French", "German",
         "Greek", "Irish", "Italian", "Japanese", "Korean", "Polish",
         "Portuguese", "Russian", "Scottish", "Spanish", "Vietnamese"]
H = 128

w = np.frombuffer(open(sys.argv[1], "rb").read()[HEADER:], dtype="<f4")
lstm = torch.nn.LSTM(len(LANGS) + N_LETTERS, H)
out = torch.nn.Linear(H, N_LETTERS)
off = 0
with torch.no_grad():
    for t in (lstm.weight_ih_l0, lstm.weight_hh_l0, lstm.bias_ih_l0,
              lstm.bias_hh_l0, out.weight, out.bias):
        t.copy_(torch.from_numpy(w[off:off + t.numel()].copy()).view_as(t))
        off += t.numel()
assert off == len(w), (off, len(w))

def sample(lang, start):
    # The tutorial's sample(): greedy topk(1), stop at EOS or 20 letters.
    with torch.no_grad():
        state = None
        name, letter = start, LETTERS.index(start)
        for _ in range(20):
            x = torch.zeros(1, 1, len(LANGS) + N_LETTERS)
            x[0, 0, lang] = 1
            x[0, 0, len(LANGS) + letter] = 1
            h, state = lstm(x, state)
            letter = int(out(h[0, 0]).argmax())
            if letter == N_LETTERS - 1:
                break
            name += LETTERS[letter]
        return name

for path in sys.argv[2:]:
    got = [l.split(" ", 1) for l in open(path).read().splitlines()]
    same = 0
    for i, (lang, name) in enumerate(got):
        want = sample(i % 18, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(i // 18) % 26])
        same += lang == LANGS[i % 18] and name == want
    print("%d %d of %d names equal, e.g. %s %s" % (same == len(got), same, len(got),
                                                 got[-1][0], got[-1][1]))
PYEOF
if "$PY" -c 'import torch' 2>/dev/null; then
	"$PY" "$d/ref.py" "$d/m/$model" "$d/names-small.txt" "$d/names-large.txt" > "$d/ref.out" 2>&1
	for i in 1 2; do
		line=$(sed -n "${i}p" "$d/ref.out")
		[ "${line%% *}" = 1 ]
		ok $? "matches torch.nn.LSTM: ${line#* }"
	done
else
	for i in 1 2; do noref "python3-torch not installed"; done
fi
