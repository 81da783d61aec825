#!/usr/bin/env bash
# make fuzz: runs the libFuzzer harness for the GPX and TCX readers for a bounded
# time each, seeded from the test fixtures (and ../shared/corpus when present).
# Usage: fuzz.sh FUZZ_BINARY SECONDS_PER_TARGET
set -uo pipefail
bin=$1; seconds=${2:-90}
work=.build-fuzz/run
mkdir -p "$work/artifacts"
status=0
for target in gpx tcx; do
  corpus="$work/corpus-$target"
  mkdir -p "$corpus"
  cp Tests/RaceKitFormatsTests/Fixtures/*."$target" Tests/RaceKitFormatsTests/Fixtures/fuzz/*."$target" "$corpus"/ 2>/dev/null
  if [ -d ../shared/corpus/public ]; then
    find ../shared/corpus/public -name "*.$target" -size -64k -exec cp {} "$corpus"/ \;
  fi
  echo "== fuzzing the $target reader for ${seconds}s (seeds: $(ls "$corpus" | wc -l))"
  "$bin" "$corpus" -dict=scripts/fuzz/activity.dict -max_total_time="$seconds" -timeout=10 -detect_leaks=0 \
      -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$work/artifacts/$target-" > "$work/$target.log" 2>&1
  rc=$?
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb|stat::new_units_added" "$work/$target.log" | sed "s/^/  $target: /"
  if [ $rc -ne 0 ]; then
    status=1
    echo "  $target: FOUND A PROBLEM (exit $rc):"
    grep -E "ERROR|SUMMARY|Test unit written" "$work/$target.log" | head -5 | sed 's/^/    /'
  fi
done
crashes=$(ls "$work/artifacts" | wc -l)
echo "fuzz: $crashes crash/hang/leak inputs in $work/artifacts"
exit $status
