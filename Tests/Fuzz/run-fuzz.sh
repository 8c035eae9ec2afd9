#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS (default 600) on a working copy of its committed corpus, then merges the
# inputs that add coverage back into Corpus/TARGET. A crash, a leak, an input slower than 10 s (a hang) or one that
# needs more than 4 GB stops the run with libFuzzer's report and a non-zero status; the input is kept in
# .build-fuzz/artifacts/TARGET/.
# Usage (from Tests/Fuzz, after `swift build -c debug --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address`):
#   bash run-fuzz.sh TARGET [SECONDS]
set -euo pipefail
cd "$(dirname "$0")"
target=$1
seconds=${2:-600}
bin=.build-fuzz/debug/$target
work=.build-fuzz/corpus/$target
artifacts=.build-fuzz/artifacts/$target/
mkdir -p "$work" "$artifacts" "Corpus/$target"
cp -n "Corpus/$target"/* "$work"/ 2>/dev/null || true
log=.build-fuzz/$target.log
status=0
"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$artifacts" "$work" > "$log" 2>&1 || status=$?
grep -E "^(#[0-9]+ +DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)|deadly signal|Test unit written|Fatal error" "$log" || true
"$bin" -merge=1 "Corpus/$target" "$work" > /dev/null 2>&1 || true
echo "$target: exit $status after ${seconds}s; corpus $(ls "Corpus/$target" | wc -l) inputs"
exit "$status"
