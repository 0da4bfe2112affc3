#!/bin/bash
# output-targets: cvmfn never damages what it writes to. A --output that is
# not a regular file (character device, FIFO) is written in place, never
# renamed over; a symlink's target is written, the link stays; directories
# and block devices are refused. Devices are nodes made here with mknod
# (root), never the machine's own /dev, except /dev/null for a refusal.
# Every output goes where --output says: map-reduce, which writes its text
# beside --output (OUTPUT.text), refuses a FIFO or /dev/null (no
# /dev/null.text); a function that writes no file (hello-world, null)
# refuses --output, exit 2. Also: compression of an empty directory, and
# stray positional arguments (usage error, exit 2).
. tests/workloads/lib.sh

echo "1..29"
kind() { stat -c %F "$1" 2>/dev/null; }
root=0; [ "$(id -u)" = 0 ] && mknod "$d/probe" c 1 3 2>/dev/null && root=1 && rm -f "$d/probe"

# chameleon's page as a regular file: the reference for what goes elsewhere.
"$fn" run chameleon --data-dir "$d/data" --output "$d/page.html" > /dev/null

if [ $root = 1 ]; then
	mknod "$d/full" c 1 7; mknod "$d/null" c 1 3; mknod "$d/blk" b 7 250
	"$fn" run matmul --data-dir "$d/data" --output "$d/full" > /dev/null 2> "$d/err"; rc=$?
	[ $rc = 1 ] && grep -q "cannot write $d/full: No space left on device" "$d/err"
	ok $? "--output to a full device (1,7): the write fails, exit 1, says ENOSPC"
	[ "$(kind "$d/full")" = "character special file" ]; ok $? "and the device node is still a device"
	"$fn" run matmul --data-dir "$d/data" --output "$d/null" > /dev/null; rc=$?
	[ $rc = 0 ] && [ "$(kind "$d/null")" = "character special file" ]
	ok $? "--output to a null device (1,3): exit 0, still a device"
	"$fn" run crud-api --data-dir "$d/data" --output "$d/null" > /dev/null; rc=$?
	[ $rc = 0 ] && [ "$(kind "$d/null")" = "character special file" ]
	ok $? "crud-api --output to a null device: exit 0, still a device"
	[ -z "$(ls "$d" | grep -E 'null\.tmp|full\.tmp')" ]; ok $? "and no temporary file next to the devices"
	"$fn" run random-disk-io --data-dir "$d/data" --output "$d/null" > /dev/null; rc=$?
	[ $rc = 0 ] && [ "$(kind "$d/null")" = "character special file" ]
	ok $? "random-disk-io --output to a null device: exit 0, still a device"
	"$fn" run matmul --data-dir "$d/data" --output "$d/blk" > /dev/null 2> "$d/err"; rc=$?
	[ $rc = 1 ] && grep -q "refusing to write $d/blk: a block device" "$d/err" &&
		[ "$(kind "$d/blk")" = "block special file" ]
	ok $? "--output to a block device: refused, exit 1, the node untouched"
else
	for i in 1 2 3 4 5 6 7; do skip "mknod needs root (device node tests)"; done
fi

# A FIFO: written into (a reader gets the bytes), stays a FIFO.
mkfifo "$d/fifo"
timeout 60 cat "$d/fifo" > "$d/fifo.out" & reader=$!
timeout 60 "$fn" run chameleon --data-dir "$d/data" --output "$d/fifo" > /dev/null; rc=$?
wait $reader
[ $rc = 0 ] && [ "$(kind "$d/fifo")" = "fifo" ]; ok $? "--output to a FIFO: exit 0, still a FIFO"
cmp -s "$d/fifo.out" "$d/page.html"; ok $? "the reader got the same page as a regular file gets"
timeout 60 cat "$d/fifo" > "$d/fifo.db" & reader=$!
timeout 60 "$fn" run crud-api --data-dir "$d/data" --output "$d/fifo" > /dev/null; rc=$?
wait $reader
[ $rc = 0 ] && [ "$(kind "$d/fifo")" = "fifo" ] && [ "$(head -c 15 "$d/fifo.db")" = "SQLite format 3" ]
ok $? "crud-api --output to a FIFO: a SQLite database comes out, still a FIFO"
timeout 60 cat "$d/fifo" > "$d/fifo.io" & reader=$!
timeout 60 "$fn" run random-disk-io --data-dir "$d/data" --output "$d/fifo" > /dev/null; rc=$?
wait $reader
[ $rc = 0 ] && [ "$(kind "$d/fifo")" = "fifo" ] && [ -s "$d/fifo.io" ]
ok $? "random-disk-io --output to a FIFO: its file comes out, still a FIFO"

# Symlinks: the link stays, what it points to gets the output.
echo old > "$d/real.html"; ln -s real.html "$d/link"
"$fn" run chameleon --data-dir "$d/data" --output "$d/link" > /dev/null; rc=$?
[ $rc = 0 ] && [ -L "$d/link" ]; ok $? "--output to a symlink: exit 0, still a symlink"
cmp -s "$d/real.html" "$d/page.html"; ok $? "and its target holds the page"
ln -s target.html "$d/dangling"
"$fn" run chameleon --data-dir "$d/data" --output "$d/dangling" > /dev/null; rc=$?
[ $rc = 0 ] && [ -L "$d/dangling" ] && cmp -s "$d/target.html" "$d/page.html"
ok $? "--output to a dangling symlink: the link stays, its target is created"
echo old > "$d/real.db"; ln -s real.db "$d/dblink"
"$fn" run crud-api --data-dir "$d/data" --output "$d/dblink" > /dev/null; rc=$?
[ $rc = 0 ] && [ -L "$d/dblink" ] && [ "$(head -c 15 "$d/real.db")" = "SQLite format 3" ]
ok $? "crud-api --output to a symlink: the link stays, the target is the database"
echo old > "$d/real.io"; ln -s real.io "$d/iolink"
"$fn" run random-disk-io --data-dir "$d/data" --output "$d/iolink" > /dev/null; rc=$?
[ $rc = 0 ] && [ -L "$d/iolink" ] && [ "$(stat -c %s "$d/real.io")" -gt 4 ]
ok $? "random-disk-io --output to a symlink: the link stays, the target is the file"
mkdir "$d/adir"
"$fn" run matmul --data-dir "$d/data" --output "$d/adir" > /dev/null 2> "$d/err"; rc=$?
[ $rc = 1 ] && grep -q "cannot write $d/adir: it is a directory" "$d/err" && [ -d "$d/adir" ]
ok $? "--output to a directory: refused, exit 1, the directory stays"

# compression of an empty directory (qsort must not be given NULL).
mkdir "$d/empty"
"$fn" run compression --data-dir "$d/data" --input "$d/empty" --output "$d/e.tgz" > "$d/out" 2>&1; rc=$?
[ $rc = 0 ] && [ "$(tar -tzf "$d/e.tgz" | wc -l)" = 0 ] && ! grep -q "runtime error" "$d/out"
ok $? "compression of an empty directory: exit 0, an empty archive (tar -t), no UBSan report"

# Stray positional arguments are a usage error.
for args in "run matmul extra" "prepare matmul extra" "serve matmul extra" \
	    "run matmul --size test extra" "list extra"; do
	# shellcheck disable=SC2086
	"$fn" $args --data-dir "$d/data" < /dev/null > /dev/null 2> "$d/err"; rc=$?
	[ "$args" = "list extra" ] && { "$fn" list extra > /dev/null 2> "$d/err"; rc=$?; }
	[ $rc = 2 ] && grep -q "unexpected argument" "$d/err"; ok $? "cvmfn $args: exit 2, 'unexpected argument'"
done

# A second file beside --output (map-reduce's OUTPUT.text) goes beside a
# regular file only: a FIFO or /dev/null is refused before any call.
timeout 30 "$fn" run map-reduce --data-dir "$d/data" --output "$d/fifo" > /dev/null 2> "$d/err"; rc=$?
[ $rc = 3 ] && grep -q "refusing --output $d/fifo: it is not a regular file" "$d/err" &&
	[ "$(kind "$d/fifo")" = "fifo" ] && [ ! -e "$d/fifo.text" ]
ok $? "map-reduce --output FIFO: refused (exit 3, named), no FIFO.text beside it"
if [ -e /dev/null.text ]; then
	skip "/dev/null.text exists already (not made here): not touched"
else
	"$fn" run map-reduce --data-dir "$d/data" --output /dev/null > /dev/null 2> "$d/err"; rc=$?
	made=0; [ -e /dev/null.text ] && made=1 && rm -f /dev/null.text   # this test made it
	[ $rc = 3 ] && [ $made = 0 ] && grep -q "refusing --output /dev/null" "$d/err"
	ok $? "map-reduce --output /dev/null: refused (exit 3, named), no /dev/null.text made"
fi
printf 'b a b\n' > "$d/words"
"$fn" run map-reduce --data-dir "$d/data" --input "$d/words" --output "$d/fifo" > /dev/null 2>&1 &
timeout 60 cat "$d/fifo" > "$d/words.out"; wait $!; rc=$?
[ $rc = 0 ] && [ "$(cat "$d/words.out")" = "$(printf '2 b\n1 a')" ] && [ ! -e "$d/fifo.text" ]
ok $? "map-reduce --input F --output FIFO (no text file): the counts come out, nothing beside"
# A function that writes no file refuses --output rather than ignore it.
for w in hello-world null; do
	"$fn" run $w --data-dir "$d/data" --output "$d/$w.out" > /dev/null 2> "$d/err"; rc=$?
	[ $rc = 2 ] && grep -q "$w writes no output file.*--output $d/$w.out refused" "$d/err" &&
		[ ! -e "$d/$w.out" ]
	ok $? "$w --output FILE: refused, exit 2, naming it; no file made"
done
"$fn" run hello-world --data-dir "$d/data" > /dev/null; ok $? "hello-world without --output: exit 0"
