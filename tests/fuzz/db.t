#!/bin/bash
# tests/fuzz/db.t - run the database fuzz target (make fuzz) for FUZZ_SECONDS
# (default 20) on the seed corpus tests/fuzz/db-corpus/ (small databases of
# real runs and of tests/system/craft-db.py, some with SQL after them): show,
# export, compare, the figures' data and report's pages under ASan and UBSan.
# First every seed and every input of tests/fuzz/db-regress/ (each one a
# crash the fuzzer found, fixed since) runs once. Any crash, leak, hang or
# sanitizer report fails.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

bin=build-fuzz/fuzz-db
secs=${FUZZ_SECONDS:-20}
plan 3
need_fuzz_target "$bin" 3
corpus=build-fuzz/db-corpus
log=build-fuzz/fuzz-db.log
mkdir -p "$corpus"
shopt -s nullglob
inputs=(tests/fuzz/db-corpus/* tests/fuzz/db-regress/*)
timeout 300 "$bin" -timeout=30 -rss_limit_mb=2048 -close_fd_mask=2 "${inputs[@]}" \
	>"$log.replay" 2>&1
is "$?" 0 "the ${#inputs[@]} seeds and regression inputs run clean (log: $log.replay)" ||
	grep -m5 -E 'ERROR|runtime error|SUMMARY|Running: ' "$log.replay" | sed 's/^/#   /'
timeout $((secs + 60)) "$bin" -max_total_time="$secs" -max_len=131072 -timeout=20 \
	-rss_limit_mb=2048 -close_fd_mask=2 -artifact_prefix=build-fuzz/ \
	-dict=tests/fuzz/db.dict -print_final_stats=1 "$corpus" tests/fuzz/db-corpus >"$log" 2>&1
rc=$?
is "$rc" 0 "no crash, leak, hang or sanitizer report in ${secs} s (log: $log)" ||
	grep -m5 -E 'ERROR|runtime error|SUMMARY' "$log" | sed 's/^/#   /'
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
ok "${runs:-0}" -gt 20 "the readers ran on ${runs:-0} databases"
