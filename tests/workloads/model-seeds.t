#!/bin/bash
# model-seeds: models of several seeds live side by side in one data
# directory, so any seed can be prepared and run after another without
# deleting files by hand; --prepare remakes a model file that fails its
# checks; the digest of a seed does not depend on what else was prepared.
. tests/workloads/lib.sh

models="image-recognition:image-recognition-resnet50 cnn-classification:cnn-classification-squeezenet1_1 rnn-generate:rnn-generate-lstm128"
echo "1..18"
digest() { "$fn" run "$@" --threads 2 | sed -n 's/^digest //p'; }

for m in $models; do
	w=${m%%:*} stem=${m#*:} dir=$d/$w
	"$fn" prepare "$w" --seed 1 --data-dir "$dir" > /dev/null
	one=$(digest "$w" --seed 1 --data-dir "$dir")
	"$fn" prepare "$w" --seed 7 --data-dir "$dir" > /dev/null 2> "$d/err"
	ok $? "$w: prepare --seed 7 after seed 1 in the same data directory $(head -c 200 "$d/err")"
	seven=$(digest "$w" --seed 7 --data-dir "$dir")
	ref=$(digest "$w" --seed 7 --prepare --data-dir "$d/fresh-$w")
	[ -n "$seven" ] && [ "$seven" = "$ref" ] && [ "$seven" != "$one" ]
	ok $? "$w: seed 7 runs, with the digest of a fresh data directory, not seed 1's"
	[ -f "$dir/$stem-seed1.model" ] && [ -f "$dir/$stem-seed7.model" ] &&
		[ "$(digest "$w" --seed 1 --data-dir "$dir")" = "$one" ]
	ok $? "$w: seed 1's model is kept and still gives its digest"
	digest "$w" --seed 3 --prepare --data-dir "$dir" > "$d/three"
	[ -s "$d/three" ] && [ -f "$dir/$stem-seed3.model" ]
	ok $? "$w: run --seed 3 --prepare in the same directory works"
	head -c 3000 "$dir/$stem-seed3.model" > "$d/cut" && cat "$d/cut" > "$dir/$stem-seed3.model"
	[ "$(digest "$w" --seed 3 --prepare --data-dir "$dir" 2> /dev/null)" = "$(cat "$d/three")" ]
	ok $? "$w: --prepare remakes a truncated model file"
	"$fn" run "$w" --seed 9 --data-dir "$dir" > /dev/null 2> "$d/err"; rc=$?
	[ $rc = 3 ] && grep -q "$stem-seed9.model is missing: run 'cvmfn prepare $w --seed 9" "$d/err"
	ok $? "$w: an unprepared seed names the command that prepares it"
done
