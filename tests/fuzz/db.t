#!/bin/bash
# tests/fuzz/db.t - run the database fuzz target (make fuzz) for
# FUZZ_DB_SECONDS (default 20; each database takes the readers about half a
# second, so the few seconds of FUZZ_SECONDS would mutate next to nothing)
# on the seed corpus tests/fuzz/db-corpus/ (small databases of real runs and
# of tests/system/craft-db.py, some with SQL after them): show, export,
# compare, the figures' data and report's pages under ASan and UBSan. First
# every seed and every input of tests/fuzz/db-regress/ (each one a crash the
# fuzzer found, fixed since) runs once, in the same libFuzzer process (its
# INITED line comes after them). Any crash, leak, hang or sanitizer report
# fails.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

bin=build-fuzz/fuzz-db
secs=${FUZZ_DB_SECONDS:-20}
plan 3
need_fuzz_target "$bin" 3
corpus=build-fuzz/db-corpus
log=build-fuzz/fuzz-db.log
mkdir -p "$corpus"
n=$(ls tests/fuzz/db-corpus tests/fuzz/db-regress | grep -vc ':$\|^$')
timeout $((secs + 300)) "$bin" -max_total_time="$secs" -max_len=131072 -timeout=20 \
	-rss_limit_mb=2048 -close_fd_mask=2 -artifact_prefix=build-fuzz/ \
	-dict=tests/fuzz/db.dict -print_final_stats=1 "$corpus" tests/fuzz/db-corpus \
	tests/fuzz/db-regress >"$log" 2>&1
rc=$?
grep -q '^#[0-9]*[[:space:]]*INITED ' "$log"
is "$?" 0 "the $n seeds and regression inputs run clean (libFuzzer's INITED after them; log: $log)" ||
	grep -m5 -E 'ERROR|runtime error|SUMMARY|Running: ' "$log" | sed 's/^/#   /'
is "$rc" 0 "no crash, leak, hang or sanitizer report in ${secs} s (log: $log)" ||
	grep -m5 -E 'ERROR|runtime error|SUMMARY' "$log" | sed 's/^/#   /'
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
ok "${runs:-0}" -gt 20 "the readers ran on ${runs:-0} databases"
