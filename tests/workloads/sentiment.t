#!/usr/bin/env bash
# sentiment: hand-computed compound scores for sentences that exercise each
# rule, determinism across threads and seeds, bad input.
# compound = s / sqrt(s^2 + 15); valences: good 1.9, bad -2.5, terrible -2.1,
# love 3.2, great 3.1, happy 2.7; booster +0.293 x (1, .95, .9) by distance;
# negator x -0.74; before the first "but" x0.5, after x1.5; '!' +0.292 each.
cd "$(dirname "$0")/../.." || exit 1
. tests/workloads/lib.sh
digest() { "$fn" run sentiment --data-dir "$d" "$@" | sed -n 's/^digest //p'; }
echo 1..20

# sentence <TAB> expected compound <TAB> how it is computed
cat > "$d/cases" <<'CASES'
The food is good	0.4404	s = 1.9
The food is not good	-0.3412	s = -0.74 * 1.9 = -1.406
The food is very good	0.4927	s = 1.9 + 0.293 = 2.193
The food is good!!	0.5399	s = 1.9 + 2 * 0.292 = 2.484
The price is good but the delivery is terrible	-0.4939	s = 0.5 * 1.9 + 1.5 * -2.1 = -2.2
It is a server	0.0000	no lexicon word: s = 0
Never really bad	0.4708	s = -0.74 * (-2.5 - 0.293) = 2.06682
I don't love it	-0.5216	n't negates: s = -0.74 * 3.2 = -2.368
Great service and happy people	0.8316	s = 3.1 + 2.7 = 5.8
Not good, but the price was not BAD	0.4717	s = 0.5 * -0.74 * 1.9 + 1.5 * -0.74 * -2.5 = 2.072
It is absolutely good, said nobody	0.4927	negators only look back: s = 2.193
The service is so very good	0.5379	s = 1.9 + 0.293 + 0.95 * 0.293 = 2.47135
Really, it was somewhat bad	-0.4951	really is 4 tokens back: s = -2.5 + 0.293 = -2.207
Really it was bad	-0.5809	s = -2.5 - 0.9 * 0.293 = -2.7637
CASES
cut -f1 "$d/cases" > "$d/in.txt"
"$fn" run sentiment --data-dir "$d" --input "$d/in.txt" --output "$d/out.txt" > "$d/run.txt"
i=0
while IFS=$'\t' read -r text want how; do
	i=$((i + 1))
	got=$(sed -n "${i}p" "$d/out.txt")
	[ "$got" = "$want" ]; ok $? "'$text' = $want ($how), got $got"
done < "$d/cases"
[ "$(wc -l < "$d/out.txt")" = 14 ]; ok $? "one score per input sentence"

# generated text: sentences split on '.'
"$fn" run sentiment --data-dir "$d" --output "$d/gen.txt" > "$d/gen.run"
cnt=$(sed -n 's/^result: \([0-9]*\) sentences.*/\1/p' "$d/gen.run")
[ -n "$cnt" ] && [ "$cnt" -gt 100 ] && [ "$(wc -l < "$d/gen.txt")" = "$cnt" ] &&
	grep -q -- '^-0\.' "$d/gen.txt" && grep -q '^0\.[0-9]*[1-9]' "$d/gen.txt"
ok $? "generated text: $cnt sentences, positive and negative scores"

a=$(digest --threads 1); b=$(digest --threads 2)
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "same digest at --threads 1 and 2"
c=$(digest --seed 2)
[ -n "$c" ] && [ "$a" != "$c" ]; ok $? "another seed gives another digest"

out=$("$fn" run sentiment --data-dir "$d" --input "$d/nope.txt" 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *nope.txt* ]]; ok $? "missing --input file is an error naming it"
out=$("$fn" run sentiment --data-dir "$d" --output "$d/missing/s.out" 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *s.out* ]] && [ ! -e "$d/missing" ]
ok $? "unwritable output: error naming the file, nothing written"
