#!/bin/bash
# tests/system/sgemm-isa.t - each SGEMM kernel of workloads/sgemm.c holds its
# ISA's instructions, built with gcc and with clang (issue 26): the object is
# compiled with the Makefile's flags and each kernel function disassembled by
# its symbol. kernel_avx512 must use zmm registers, kernel_avx2 ymm and no
# zmm, kernel_sse2 neither; and no kernel may fuse a multiply and an add
# (FMA), so every width gives the same bits. clang ignores #pragma GCC target
# and #pragma GCC optimize, so a kernel whose target is set that way holds no
# AVX at all in a clang build yet is the one picked at run time.
# Writes only a private directory. clang missing: SKIP, or a failure under CI.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
per_cc=5
plan $((2 * per_cc))

# body OBJ SYM: the instructions of function SYM in OBJ, one a line
body() {
	objdump -d --no-show-raw-insn --disassemble="$2" "$1" | grep -P '^\s+[0-9a-f]+:\t'
}

# uses OBJ SYM REGEX: how many of SYM's instructions match REGEX
uses() { body "$1" "$2" | grep -cE "$3"; }

check_cc() {
	local cc=$1 o=$tmp/sgemm-$1.o n z
	if ! $cc -std=gnu11 -D_GNU_SOURCE -O2 -Iworkloads -pthread -c -o "$o" workloads/sgemm.c \
		2> "$tmp/$cc.log"; then
		_tap 1 "$cc: workloads/sgemm.c compiles"
		sed 's/^/#   /' "$tmp/$cc.log"
		skip_rest $((per_cc - 1)) "$cc could not compile workloads/sgemm.c"
		return
	fi
	n=$(body "$o" kernel_sse2 | wc -l)
	ok "$n" -gt 20 "$cc: kernel_sse2 is a function of the object ($n instructions)"
	is "$(uses "$o" kernel_sse2 '%[yz]mm')" 0 "$cc: kernel_sse2 uses no ymm or zmm register"
	n=$(uses "$o" kernel_avx2 '%ymm')
	z=$(uses "$o" kernel_avx2 '%zmm')
	[ "$n" -gt 0 ] && [ "$z" = 0 ]
	_tap $? "$cc: kernel_avx2 uses ymm registers ($n instructions) and no zmm ($z)"
	n=$(uses "$o" kernel_avx512 '%zmm')
	ok "$n" -gt 0 "$cc: kernel_avx512 uses zmm registers ($n instructions)"
}

check_fma() {
	local cc=$1 o=$tmp/sgemm-$1.o s n=0
	[ -f "$o" ] || { skip "$cc did not compile workloads/sgemm.c"; return; }
	for s in kernel_sse2 kernel_avx2 kernel_avx512; do
		n=$((n + $(uses "$o" $s '\svfn?m(add|sub)')))
	done
	is "$n" 0 "$cc: no kernel fuses a multiply and an add (FP contraction off)"
}

check_cc gcc
check_fma gcc
if command -v clang > /dev/null; then
	check_cc clang
	check_fma clang
elif [ -n "${CI:-}" ]; then
	for ((i = 0; i < per_cc; i++)); do _tap 1 "required under CI: clang (apt install clang)"; done
else
	skip_rest $per_cc "clang is not installed"
fi
