#!/bin/bash
# digest: the output digest is taken outside the timed window and is the
# same SHA-256 as before: every workload at two seeds against the values the
# hand-written SHA-256 gave before libcrypto replaced it; the digest against
# sha256sum of the output bytes; the serve protocol's timing line comes
# before the digest line; --digest every | first | N.
. tests/workloads/lib.sh

# Digests at size test, 2 threads, from the dependency-free SHA-256 that
# hashed inside invoke() (cvmfn before issue 10). Except video-processing
# and video-face-detection: their gray conversion changed to OpenCV's
# weights in the same issue, so their values are from after that change.
golden=$(cat <<'G'
null 1 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
hello-world 1 fad95dbf820914a752a12ab882b94e2fc591deb8967406477e232c6534b3f099
chameleon 1 fa3cff876f2f7fbb97a7b010b35e669c51a48e16b8aad58c1b6baac6e858ac2f
map-reduce 1 cb6c35b575a4cbc353e2e6741cb981d58cc10308b1249509d4f886f362035ab8
graph-bfs 1 caa90f452a741da53a831f65d678bd1a8398b60e984bf74bb4af1d95acbaccaa
sentiment 1 70edcffff904936df1122b49422c2e46f31b1ae355209090c69e53490a73160d
logistic-regression 1 77cfbe29208656bb0d8f6fe1cb7bef41074c1137334eba4e528999027e7427f5
matmul 1 c7e1953eacc994c5dc1d0665d76276e20d6334a00aab6c9ed3b86c7c7cf5f857
image-recognition 1 8ccd81057aac508480665a7f052b821ec22ccc613bfffc2e90bddb8f017bc10a
cnn-classification 1 9bd178a1595dd34194ee4f6ea3218ab4fe83055bc04186e7150f412970ee5a92
rnn-generate 1 89161f57b86a97d642c5d0b9596e17f2d028115dc86e5125f163dae6218b2ecc
video-processing 1 54ddc963b85335f91f442254ea525ffb117b9fe3cd3d7e7b6ac00503a406f8f2
video-face-detection 1 59a7e8ec8d6d9a8f057e0bd27bee7ed087fcc3e000fccc804f9e24abb0e93d97
pyaes 1 aefb6def895dcdabd55dbfca212d7b630fd9e60ac4c02ec2bd53c1902cf317e0
compression 1 7815fe9fcc7da899887e44ac6cce40d8ebef3af4b22b9b73c6e2515fca36e6e3
random-disk-io 1 a7b66c36dcde3856a35ba36722bc1b208ed5c288851467b9d87a49e7f1442b3e
crud-api 1 1186a8a1b02f6b15b2bb4769d0e1c4a98928a6b3d44985e8581553040f25de4c
null 2 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
hello-world 2 e197fbbbc3303bb3e9ec90630b7649aa64722e978c0242cab96f28cb6c2d77e0
chameleon 2 debce83f2df79e7ad7b6e87dd5e3c25198de6c60fc8332991ad495602ff5ce9d
map-reduce 2 625ed9bf2c400050a0baf87f94e0dba7cce2d048ba235ab7adb4c7153c4b1f8c
graph-bfs 2 945f3e592f88e0c07b5f3998ae440c5b62915c79e7984d22c293a11e154279f6
sentiment 2 c718533101c0405ba71dc00dfdcd5ee79edb4f0b0f53abbb69636926fed45180
logistic-regression 2 087b5a876fc5d79cda0943ae9b7e7c5892f33c4e01b99123963763ad836d1ec6
matmul 2 e00cbf06c470950b671c5fe2fc9a865926a8cd8e0a9d4ada9900aa1fea91b739
video-processing 2 35d63d7930b4c9128fb3f3dfdb392b26bb9f6879416b35abe1696e5b493b6be1
video-face-detection 2 125936eb78fd26fe8b6a1affb4aa45b5be1fad59784ae8d456f2368abf7d643b
pyaes 2 f6cd5b7e4632156b7481c0aed198bda44328a5366db72f75dff3c6c18d1d84db
compression 2 1abf1b02e1206c5788b0f56a9d16d90c2b35e9f09a268cdc58f949a7b4c03f49
random-disk-io 2 b3a8711bd9ca014fae1e5d985d06411638cf2a6e5e5f9dcadf6f58594fc447cc
crud-api 2 1f38617a25c6b2b36cba30f3bfcab8c865a7bb55100ea726b025a17611c3af0e
image-recognition 2 12d77b011f2236156099b7d9b08dcb14d9e1c37de569867eccad9f1826dbfd80
cnn-classification 2 8166d83a7eb33d580416fda2f73346f1fa18b665ec8122467f3552493b176a02
rnn-generate 2 9c4a707f744fa0214098f92d861d5a1c390ea88367f8fe7759037f3a760741f1
G
)
echo "1..$(($(echo "$golden" | wc -l) + 16))"

while read -r w seed want; do
	got=$("$fn" run "$w" --size test --seed "$seed" --threads 2 --prepare \
		--data-dir "$d/data$seed" | sed -n 's/^digest //p')
	[ "$got" = "$want" ]; ok $? "$w seed $seed: digest unchanged ($want)"
done <<< "$golden"

# The digest is SHA-256 of the output bytes; sha256sum is the reference.
for w in chameleon compression video-processing; do
	got=$("$fn" run "$w" --data-dir "$d/data1" --output "$d/$w.out" | sed -n 's/^digest //p')
	[ -n "$got" ] && [ "$got" = "$(sha256sum < "$d/$w.out" | cut -c1-64)" ]
	ok $? "$w: digest = sha256sum of its output file"
done
# matmul digests N (8 bytes LE) then C; its output file is A, B, C.
got=$("$fn" run matmul --data-dir "$d/data1" --output "$d/abc.bin" | sed -n 's/^digest //p')
want=$({ printf '\100\0\0\0\0\0\0\0'; tail -c $((64 * 64 * 8)) "$d/abc.bin"; } | sha256sum | cut -c1-64)
[ "$got" = "$want" ]; ok $? "matmul: digest = sha256sum of N and C"
# pyaes digests its length (8 bytes LE) then the ciphertext it writes.
head -c 1000 /dev/urandom > "$d/msg"
got=$("$fn" run pyaes --data-dir "$d/data1" --input "$d/msg" --output "$d/ct" | sed -n 's/^digest //p')
want=$({ printf '\350\003\0\0\0\0\0\0'; cat "$d/ct"; } | sha256sum | cut -c1-64)
[ "$got" = "$want" ]; ok $? "pyaes: digest = sha256sum of length and ciphertext"

# serve: the timing line first, without a digest; then the digest line.
serve() { printf 'invoke 1\ninvoke 2\ninvoke 3\nquit\n' |
	"$fn" serve hello-world --data-dir "$d/data1" "$@"; }
want=$("$fn" run hello-world --data-dir "$d/data1" | sed -n 's/^digest //p')
serve > "$d/every"
grep -Eq '^done 1 ok=1 fn_ns=[0-9]+$' "$d/every"; ok $? "serve: the done line carries fn_ns only"
sed -n 3p "$d/every" | grep -Eq "^digest 1 sha256=$want digest_ns=[0-9]+$"
ok $? "serve: the digest line follows it, with the same digest as run and its time"
[ "$(grep -c '^digest [123] sha256=' "$d/every")" = 3 ]; ok $? "serve --digest every (default): 3 of 3 calls hashed"
serve --digest first > "$d/first"
[ "$(grep -c ' sha256=' "$d/first") $(grep -c '^digest [23] none$' "$d/first")" = "1 2" ]
ok $? "serve --digest first: call 1 hashed, calls 2 and 3 'none'"
serve --digest 2 > "$d/two"
[ "$(grep -o '^digest [0-9] [a-z0-9]*' "$d/two" | tr '\n' ' ')" = "digest 1 sha256 digest 2 none digest 3 sha256 " ]
ok $? "serve --digest 2: calls 1 and 3 hashed"

# run: digest time reported apart from the function's time.
"$fn" run matmul --data-dir "$d/data1" --repeat 3 --digest first --json > "$d/run.json"
$PY - "$d/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["digests"] == 1 and r["digest_ns_first"] > 0 and r["fn_ns_min"] > 0, r
PY
ok $? "run --repeat 3 --digest first: 1 digest, its time reported apart"
"$fn" run matmul --data-dir "$d/data1" --repeat 3 > "$d/run.txt"
grep -q '^sha256 x3 (not in the times above)' "$d/run.txt"; ok $? "run: 3 digests by default, timed apart"
for bad in 0 -1 some ''; do
	"$fn" run null --digest "$bad" > /dev/null 2> "$d/err"; rc=$?
	[ $rc = 2 ] && grep -q "bad --digest" "$d/err"; ok $? "--digest '$bad' refused with exit 2"
done
