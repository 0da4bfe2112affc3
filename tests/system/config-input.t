#!/bin/bash
# tests/system/config-input.t - bad config input through the real binary:
# every refusal exits 2 with one line naming the file (and line), nothing
# hangs or reads without end, and `list` survives a long probes list
# (issues 8 and 9). Changes no host setting (`list` only reads).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state

plan 17

# run CONFIG ARGS...: exit code in $rc, stderr in $tmp/err (10 s at most)
run() { timeout 10 ./cvmbench run "$@" --db "$tmp/r.db" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
one_line() { [ "$(wc -l < "$tmp/err")" -eq 1 ] && echo 1 || { cat "$tmp/err" | sed 's/^/#   /'; echo 0; }; }

# Issue 8: a valid 296-character probes list (spaces between names) made
# `list` segfault: the value was cut to 255 bytes, in the middle of "exitcost".
mkdir "$tmp/configs"
{
	printf '[experiment longprobes]\nworkload = null\nprobes = latency,%120snull,\n' ''
	printf '  cpu,%113sexitcost,%33sidle\n' '' ''
} > "$tmp/configs/long.ini"
timeout 60 ./cvmbench list --configs "$tmp/configs" >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "list exits 0 on a config with a 296-character probes list"
grep -q 'long.ini:longprobes' "$tmp/out"; is $? 0 "and lists its experiment"

# Issue 9.11: one line naming file:line for a section without ']'.
printf '[experiment a\nworkload = null\n[experiment b]\nworkload = null\n' > "$tmp/open.ini"
run "$tmp/open.ini" --dry-run
is "$rc" 2 "[experiment a without ']': exit 2"
is "$(one_line)" 1 "in one line"
grep -q "open.ini:1: section header without ']'" "$tmp/err"; is $? 0 "naming file:line"

# Issue 9.9 and 9.11: configs are regular files.
run /dev/zero --dry-run
is "$rc $(one_line)" "2 1" "/dev/zero: exit 2 at once, one line"
grep -q '/dev/zero: not a regular file' "$tmp/err"; is $? 0 "saying it is not a regular file"
mkfifo "$tmp/fifo"
run "$tmp/fifo" --dry-run
is "$rc" 2 "a FIFO: exit 2, no hang"
run "$tmp" --dry-run
is "$rc" 2 "a directory: exit 2"
grep -q ": is a directory" "$tmp/err"; is $? 0 "saying it is a directory"

# Issue 9.9: the cell count is printed and capped; --max-cells raises the cap.
printf '[experiment a]\nworkload = null\nthreads = 1, 2, 3\n' > "$tmp/three.ini"
run "$tmp/three.ini" --dry-run --max-cells 2
is "$rc" 2 "3 cells with --max-cells 2: exit 2"
grep -q "three.ini: 3 cells (experiment a: 3); the limit is 2 (--max-cells)" "$tmp/err"
is $? 0 "the message gives the count and the limit"
run "$tmp/three.ini" --dry-run --max-cells 3
is "$rc $(grep -c '^a-[0-9a-f]\{8\} threads=[123]$' "$tmp/out")" "0 3" "--max-cells 3: the 3 cells"
grep -q "three.ini: 3 cells" "$tmp/err"; is $? 0 "and their count on stderr"
run "$tmp/three.ini" --dry-run --max-cells 0x10
is "$rc" 2 "--max-cells 0x10 is a usage error"
list=$(seq -s, 1 64)
printf '[experiment a]\nworkload = null\nrepeats = 1000\nseed = %s\nthreads = %s\ninstances = %s\ninvocations = %s\n' \
	"$list" "$list" "$list" "$list" > "$tmp/huge.ini"
start=$(date +%s%N)
run "$tmp/huge.ini" --dry-run
ms=$(( ($(date +%s%N) - start) / 1000000 ))
is "$rc" 2 "64^4 x 1000 cells: exit 2"
ok "$ms" -lt 2000 "refused before expanding (${ms} ms)"
