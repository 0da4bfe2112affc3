#!/bin/bash
# compression: the .tar.gz unpacks with tar to the same tree; determinism; errors.
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fn=${CVMFN:-./cvmfn}   # the cvmfn under test (a sanitizer build if set)
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
. tests/workloads/ref.sh
run() { "$fn" run compression --data-dir "$d/data" "$@"; }
digest() { run "$@" | sed -n 's/^digest //p'; }
modes() { (cd "$1" && find . -mindepth 1 -printf '%m %y %p\n' | LC_ALL=C sort); }

echo "1..13"
# A user tree: nesting, empty file and dir, block-sized file, spaces, binary,
# modes, and a path over 100 bytes that needs the ustar prefix.
u=$d/tree
long=$u/$(printf 'd%.0s' {1..60})/$(printf 'e%.0s' {1..50})
mkdir -p "$u/sub/deeper" "$u/empty dir" "$long"
: > "$u/empty"
head -c 512 /dev/urandom > "$u/sub/block512"
head -c 100000 /dev/urandom > "$u/sub/deeper/random.bin"
printf 'hello\nworld\n' > "$u/with space.txt"
seq 1 20000 > "$long/$(printf 'f%.0s' {1..90}).txt"
chmod 600 "$u/with space.txt"; chmod 755 "$u/sub/block512"; chmod 700 "$u/sub/deeper"

if command -v tar > /dev/null && command -v gzip > /dev/null; then
	run --input "$u" --output "$d/u.tar.gz" > "$d/out" 2>&1
	check "archives a user tree" "[ \$? -eq 0 ] && [ -s '$d/u.tar.gz' ]"
	check "gzip -t accepts it" "gzip -t '$d/u.tar.gz'"
	mkdir "$d/x" && tar -xzf "$d/u.tar.gz" -C "$d/x" 2> "$d/tarerr"
	check "tar -xzf unpacks it without warnings" "[ \$? -eq 0 ] && [ ! -s '$d/tarerr' ]"
	check "diff -r: same files and bytes (incl. a 250-byte path)" "diff -r '$u' '$d/x'"
	check "same modes and types" "[ \"\$(modes '$u')\" = \"\$(modes '$d/x')\" ]"
	check "owner root/root, mtime 2020-01-01" \
		"TZ=UTC tar -tvzf '$d/u.tar.gz' > '$d/list' && [ \$(wc -l < '$d/list') -eq 10 ] &&
		! grep -v 'root/root .* 2020-01-01 00:00' '$d/list'"
	# The default tree: unpack, re-archive the unpacked copy: same bytes.
	run --output "$d/g.tar.gz" > /dev/null
	mkdir "$d/g" && tar -xzf "$d/g.tar.gz" -C "$d/g"
	check "generated tree: text, binary and subdirectories" \
		"[ -d '$d/g/empty' ] && ls '$d/g/docs' | grep -q 'report-000.txt' && ls '$d/g/data' | grep -q blob"
	run --input "$d/g" --output "$d/g2.tar.gz" > /dev/null
	check "re-archiving the unpacked tree gives the same archive bytes" \
		"cmp -s '$d/g.tar.gz' '$d/g2.tar.gz'"
else
	for i in 1 2 3 4 5 6 7 8; do noref "tar or gzip not installed"; done
fi
d1=$(digest --threads 1); d2=$(digest --threads 2); d3=$(digest --seed 2)
check "same digest at 1 and 2 threads" "[ -n '$d1' ] && [ '$d1' = '$d2' ]"
check "another seed gives another digest" "[ -n '$d3' ] && [ '$d1' != '$d3' ]"
check "scratch input trees are removed at teardown" "[ -z \"\$(ls '$d/data')\" ]"
mkdir -p "$d/bad/$(printf 'a%.0s' {1..200})"
: > "$d/bad/$(printf 'a%.0s' {1..200})/$(printf 'b%.0s' {1..120})"
run --input "$d/bad" --output "$d/bad.tar.gz" > /dev/null 2> "$d/err"
rc=$?
check "a name ustar cannot hold is an error, no output" \
	"[ $rc -eq 1 ] && grep -q 'name too long for a ustar' '$d/err' && [ ! -e '$d/bad.tar.gz' ]"
run --input "$d/missing" --output "$d/m.tar.gz" > /dev/null 2> "$d/err"
rc=$?
check "missing --input is an init error naming it" \
	"[ $rc -eq 3 ] && grep -q '$d/missing' '$d/err' && [ ! -e '$d/m.tar.gz' ]"
