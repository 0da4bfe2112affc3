#!/bin/bash
# tests/bench/journal-scale.sh - is the journal linear in its number of
# entries? For N changes (journal_set on files in a temporary tree) plus N
# objects, build/tests/journal.t bench N times: filling the journal (one
# fsync'd line per entry), reopening it (reading the file back into the
# index), undoing every entry one by one by id in random order (a binary
# search each, compaction as they close), filling it again and undoing all
# at once (restore). Linear means the cost per entry stays flat as N grows.
# Not part of `make check` (docs/performance.md has the figures).
#
#   tests/bench/journal-scale.sh [N...]   (default 6250 12500 25000 50000 100000)
#   JOURNAL_BENCH_DIR=/var/tmp tests/bench/journal-scale.sh   # on a disk, not tmpfs
set -eu
cd "$(dirname "$0")/../.."
make -s tests >/dev/null
[ $# -gt 0 ] || set -- 6250 12500 25000 50000 100000
printf '%9s %10s %10s %10s %10s   (µs per entry)\n' entries fill reopen undo-each restore
for n in "$@"; do
	build/tests/journal.t bench "$n" | awk '{
		e = $2; printf "%9d %10.2f %10.2f %10.2f %10.2f\n", e,
			$4 / e * 1e6, $6 / e * 1e6, $8 / e * 1e6, $10 / e * 1e6 }'
done
