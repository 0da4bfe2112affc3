#!/bin/bash
# pyaes: AES-128-CTR against openssl enc and the FIPS-197 vector; bad input.
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fn=${CVMFN:-./cvmfn}   # the cvmfn under test (a sanitizer build if set)
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
. tests/workloads/ref.sh
digest() { "$fn" run pyaes --data-dir "$d" "$@" | sed -n 's/^digest //p'; }
key=2b7e151628aed2a6abf7158809cf4f3c
lengths="0 1 15 16 17 1000 100000"

echo "1..14"
# FIPS-197 appendix C.1: with the plaintext block as IV and 16 zero bytes
# of input, the CTR output is the ECB encryption of that block.
head -c 16 /dev/zero > "$d/zero16"
"$fn" run pyaes --data-dir "$d" --input "$d/zero16" --output "$d/kat" \
	--key 000102030405060708090a0b0c0d0e0f --iv 00112233445566778899aabbccddeeff > /dev/null
check "FIPS-197 AES-128 known answer" \
	"[ \"\$(od -An -tx1 '$d/kat' | tr -d ' \n')\" = 69c4e0d86a7b0430d8cdb78070b4c55a ]"
for len in $lengths; do
	head -c "$len" /dev/urandom > "$d/in$len"
done
if command -v openssl > /dev/null; then
	for len in $lengths; do
		iv=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
		"$fn" run pyaes --data-dir "$d" --input "$d/in$len" --output "$d/out$len" \
			--key $key --iv $iv > /dev/null
		openssl enc -aes-128-ctr -K $key -iv $iv -in "$d/in$len" -out "$d/ref$len"
		check "$len bytes: identical to openssl enc -aes-128-ctr" "cmp -s '$d/out$len' '$d/ref$len'"
	done
	# The counter carries across all 128 bits, as OpenSSL's does.
	iv=00000000000000ffffffffffffffffff
	"$fn" run pyaes --data-dir "$d" --input "$d/in1000" --output "$d/wrap" \
		--key $key --iv $iv > /dev/null
	openssl enc -aes-128-ctr -K $key -iv $iv -in "$d/in1000" -out "$d/wrapref"
	check "counter carry past 64 bits matches openssl" "cmp -s '$d/wrap' '$d/wrapref'"
else
	for len in $lengths wrap; do noref "openssl not installed"; done
fi
d1=$(digest --threads 1); d2=$(digest --threads 2); d3=$(digest --seed 2)
check "same digest at 1 and 2 threads" "[ -n '$d1' ] && [ '$d1' = '$d2' ]"
check "another seed gives another digest" "[ -n '$d3' ] && [ '$d1' != '$d3' ]"
"$fn" run pyaes --data-dir "$d" --key 00112233 > /dev/null 2> "$d/err"
rc=$?
"$fn" run pyaes --data-dir "$d" --iv 0011223344556677889900aabbccddxx > /dev/null 2>> "$d/err"
rc2=$?
check "bad --key / --iv hex is an error naming it" \
	"[ $rc -eq 3 ] && [ $rc2 -eq 3 ] && grep -q 'bad --key' '$d/err' && grep -q 'bad --iv' '$d/err'"
"$fn" run pyaes --data-dir "$d" --input "$d/missing" --output "$d/o" > /dev/null 2> "$d/err"
rc=$?
check "missing --input fails naming it, no output" \
	"[ $rc -ne 0 ] && grep -q '$d/missing' '$d/err' && [ ! -e '$d/o' ]"
"$fn" run pyaes --data-dir "$d" --output "$d/nodir/c.bin" > /dev/null 2> "$d/err"
rc=$?
check "unwritable --output fails naming it, leaves nothing" \
	"[ $rc -eq 1 ] && grep -q 'nodir/c.bin' '$d/err' && [ ! -e '$d/nodir' ]"
