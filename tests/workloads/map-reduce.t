#!/usr/bin/env bash
# map-reduce: word counts against Python's collections.Counter and against
# coreutils (tr | sort | uniq -c), determinism across threads and seeds.
# Tokenization (both sides): maximal runs of ASCII letters, case-folded.
cd "$(dirname "$0")/../.." || exit 1
. tests/workloads/lib.sh
digest() { "$fn" run map-reduce --data-dir "$d" "$@" | sed -n 's/^digest //p'; }
# Python reference: counts sorted by count desc, word asc, as "count word".
pycount() {
	"$PY" - "$1" <<'PYEOF'
import collections, re, sys
words = re.findall(rb"[a-z]+", open(sys.argv[1], "rb").read().lower())
for w, c in sorted(collections.Counter(words).items(), key=lambda kv: (-kv[1], kv[0])):
    sys.stdout.buffer.write(b"%d %s\n" % (c, w))
PYEOF
}
echo 1..9

# 1-2: the generated 64 KiB text (written to OUT.text) against references
"$fn" run map-reduce --data-dir "$d" --threads 2 --output "$d/c.out" >/dev/null
[ "$(stat -c %s "$d/c.out.text")" = 65536 ]; ok $? "generated text is 64 KiB"
if [ -x "$PY" ]; then
	pycount "$d/c.out.text" > "$d/c.want"
	[ -s "$d/c.want" ] && cmp -s "$d/c.want" "$d/c.out"
	ok $? "counts of the generated text equal collections.Counter"
else
	noref "$PY missing"
fi

# 3: coreutils as a second reference (C locale: byte order for ties)
LC_ALL=C tr -cs 'a-zA-Z' '\n' < "$d/c.out.text" | LC_ALL=C tr 'A-Z' 'a-z' |
	grep -v '^$' | LC_ALL=C sort | LC_ALL=C uniq -c |
	awk '{print $1, $2}' | LC_ALL=C sort -k1,1nr -k2,2 > "$d/c.tr"
cmp -s "$d/c.tr" "$d/c.out"; ok $? "counts equal tr | sort | uniq -c"

# 4: a hand-made --input with case, digits, apostrophes, non-ASCII bytes
printf 'The cat, the CAT and the dog.\nIt'"'"'s 42 dogs; caf\xc3\xa9 x2y\n\n' > "$d/in.txt"
"$fn" run map-reduce --data-dir "$d" --input "$d/in.txt" --output "$d/in.out" >/dev/null
printf '3 the\n2 cat\n1 and\n1 caf\n1 dog\n1 dogs\n1 it\n1 s\n1 x\n1 y\n' > "$d/in.want"
cmp -s "$d/in.want" "$d/in.out"; ok $? "hand-counted --input text"

# 5-6: determinism
a=$(digest --threads 1); b=$(digest --threads 2)
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "same digest at --threads 1 and 2"
c=$(digest --seed 2)
[ -n "$c" ] && [ "$a" != "$c" ]; ok $? "another seed gives another digest"

# 7: a larger text across many chunks, threads 1 vs 2 vs the reference
if [ -x "$PY" ]; then
	"$PY" -c 'import random; random.seed(3); print(" ".join(random.choice(["alpha","Beta","gamma!","d3lta","e"]) for _ in range(300000)))' > "$d/big.txt"
	"$fn" run map-reduce --data-dir "$d" --input "$d/big.txt" --threads 2 --output "$d/big.out" >/dev/null
	pycount "$d/big.txt" > "$d/big.want"
	cmp -s "$d/big.want" "$d/big.out"; ok $? "1.8 MB --input over many chunks equals Counter"
else
	noref "$PY missing"
fi

# 8-9: bad input
out=$("$fn" run map-reduce --data-dir "$d" --input "$d/nope.txt" 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *nope.txt* ]]; ok $? "missing --input file is an error naming it"
out=$("$fn" run map-reduce --data-dir "$d" --output "$d/missing/x.out" 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *x.out* ]] && [ ! -e "$d/missing" ]
ok $? "unwritable output: error naming the file, nothing written"
