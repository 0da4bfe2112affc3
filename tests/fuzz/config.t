#!/bin/bash
# tests/fuzz/config.t - run the config fuzz target (make fuzz) for
# FUZZ_SECONDS (default 10) on a seed corpus from configs/: the INI reader,
# the value checks and the matrix expansion under ASan and UBSan. Any crash,
# leak, sanitizer report or broken invariant (tests/fuzz/config.c) fails.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

bin=build-fuzz/fuzz-config
secs=${FUZZ_SECONDS:-10}
plan 2
need_fuzz_target "$bin" 2
corpus=build-fuzz/corpus
log=build-fuzz/fuzz-config.log
mkdir -p "$corpus"
timeout $((secs + 60)) "$bin" -max_total_time="$secs" -max_len=8192 -timeout=10 \
	-rss_limit_mb=1024 -artifact_prefix=build-fuzz/ -dict=tests/fuzz/config.dict \
	-print_final_stats=1 "$corpus" configs >"$log" 2>&1
rc=$?
is "$rc" 0 "no crash, leak, hang or sanitizer report in ${secs} s (log: $log)" ||
	grep -m5 -E 'ERROR|runtime error|fuzz-config:|SUMMARY' "$log" | sed 's/^/#   /'
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
ok "${runs:-0}" -gt 1000 "the parser ran on ${runs:-0} inputs"
