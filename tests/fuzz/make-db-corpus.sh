#!/bin/bash
# tests/fuzz/make-db-corpus.sh - (re)make the seed corpus of tests/fuzz/db.c
# in tests/fuzz/db-corpus/: the small warm run of the null function the
# figure tests start from (plot-lib.sh's plot_base_db) and copies of it
# turned by tests/system/craft-db.py into what the figures and tables read (runc,
# memory, VM boots and exits, a CVM pair, PMU, PLE, halt polling), each
# VACUUMed into 512-byte pages; two more carry SQL after FUZZ_SQL_MARK
# (odd values, rows gone).
# The seeds have no .db suffix (.gitignore leaves *.db out).
# Needs ./cvmbench (make) and python3; the seeds are committed, so this is
# only run when the schema changes.
set -eu
cd "$(dirname "$0")/../.."
out=tests/fuzz/db-corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
mark=$'\n--cvmbench-fuzz-sql--\n'

. tests/system/plot-lib.sh
plot_base_db "$tmp/run.db"

# seed NAME [MODE ARG]...: the base run, crafted by each MODE ARG in turn
seed() {
	local name=$1
	shift
	cp "$tmp/run.db" "$tmp/$name.db"
	while [ $# -gt 1 ]; do
		python3 tests/system/craft-db.py "$tmp/$name.db" "$1" ${2:+"$2"}
		shift 2
	done
	python3 -c 'import sqlite3, sys
d = sqlite3.connect(sys.argv[1], isolation_level=None)
d.execute("PRAGMA journal_mode = delete")
d.execute("PRAGMA page_size = 512")
d.execute("VACUUM")
d.execute("PRAGMA journal_mode = " + sys.argv[2])
d.close()' "$tmp/$name.db" "${JOURNAL:-wal}"
	cp "$tmp/$name.db" "$out/$name"
}

rm -f "$out"/*
mkdir -p "$out"
JOURNAL=delete seed base
seed runc-memory runc rt memory mm
seed vm vmboot kvm vmexit-rows rsn vmexit-pair snp
seed pair pair tdx ipc "" ple wl
seed idle halt hlt vmexit kvm_exit
{ cat "$out/base"; printf '%s' "$mark"
  echo "UPDATE invocation SET latency_ns = -1 WHERE id = 1; DELETE FROM cell WHERE id = 2;"
} > "$out/base-sql"
{ cat "$out/pair"; printf '%s' "$mark"
  echo "UPDATE metric SET value = 1e308; UPDATE invocation SET latency_ns = NULL WHERE id % 3 = 0;"
} > "$out/pair-sql"
ls -l "$out"
