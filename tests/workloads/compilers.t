#!/bin/bash
# compilers: every workload gives the same digest whether cvmfn was built
# with gcc or with clang, at two seeds (no result may depend on what C
# leaves unspecified, e.g. the order in which arguments are evaluated).
# The clang cvmfn is built here with the project's Makefile, in a copy of
# workloads/ (the checkout's build and cvmfn are left alone).
. tests/workloads/lib.sh

if ! command -v clang > /dev/null; then
	if [ -n "${CI:-}" ]; then echo "1..1"; echo "not ok 1 - clang missing (CI: a missing reference is a failure)"; exit 0; fi
	echo "1..0 # SKIP clang is not installed"; exit 0
fi
names=$("$fn" list | awk '{print $1}')
echo "1..$((1 + 2 * $(echo "$names" | wc -l)))"

mkdir -p "$d/src"
cp -r Makefile workloads "$d/src/"
make -s -C "$d/src" -j2 CC=clang cvmfn > "$d/build.log" 2>&1
ok $? "cvmfn builds with clang ($(clang --version | head -1))"
[ -x "$d/src/cvmfn" ] || { sed 's/^/# /' "$d/build.log"; }

for seed in 1 2; do
	for w in $names; do
		a=$("$fn" run "$w" --seed "$seed" --threads 2 --prepare --data-dir "$d/gcc$seed" |
			sed -n 's/^digest //p')
		b=$("$d/src/cvmfn" run "$w" --seed "$seed" --threads 2 --prepare \
			--data-dir "$d/clang$seed" | sed -n 's/^digest //p')
		[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "$w seed $seed: gcc and clang builds agree (${a:-none} / ${b:-none})"
	done
done
