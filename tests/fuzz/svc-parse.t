#!/bin/bash
# tests/fuzz/svc-parse.t - run the system suite's parser fuzz target (make
# fuzz) for FUZZ_SECONDS (default 10) on a seed corpus of the tools' real
# outputs (tests/fixtures/services/) and the inputs of
# tests/fuzz/svc-parse-regress/ (each one a crash the fuzzer found, fixed
# since; libFuzzer runs every seed first): all seven parsers on every input
# under ASan and UBSan. Any crash, leak, sanitizer report or broken promise
# (tests/fuzz/svc-parse.c) fails.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

bin=build-fuzz/fuzz-svc-parse
secs=${FUZZ_SECONDS:-10}
plan 2
need_fuzz_target "$bin" 2
corpus=build-fuzz/corpus-svc-parse
log=build-fuzz/fuzz-svc-parse.log
mkdir -p "$corpus"
timeout $((secs + 60)) "$bin" -max_total_time="$secs" -max_len=16384 -timeout=10 \
	-rss_limit_mb=1024 -artifact_prefix=build-fuzz/ -dict=tests/fuzz/svc-parse.dict \
	-print_final_stats=1 "$corpus" tests/fixtures/services tests/fuzz/svc-parse-regress >"$log" 2>&1
rc=$?
is "$rc" 0 "no crash, leak, hang or sanitizer report in ${secs} s (log: $log)" ||
	grep -m5 -E 'ERROR|runtime error|fuzz-svc-parse:|SUMMARY' "$log" | sed 's/^/#   /'
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
ok "${runs:-0}" -gt 1000 "the parsers ran on ${runs:-0} inputs"
