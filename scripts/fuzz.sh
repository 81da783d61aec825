#!/usr/bin/env bash
# make fuzz: runs the libFuzzer harness for the GPX, TCX and FIT readers (RACEKIT_FUZZ_TARGET=fit), the
# Apple Health export reader (RACEKIT_FUZZ_TARGET=health), the race-setup
# loader (RACEKIT_FUZZ_TARGET=setup), the setup's numeric values (=setup-numbers), the shared
# formatters over any double (=formatters), the script expression parser (=expression) and the CSV
# reader of Strava's activities.csv (=csv) for a bounded
# time each, seeded from the test fixtures (and ../shared/corpus when present).
# Usage: [FUZZ_TARGETS="fit ..."] fuzz.sh FUZZ_BINARY SECONDS_PER_TARGET
set -uo pipefail
bin=$1; seconds=${2:-90}
work=.build-fuzz/run
mkdir -p "$work/artifacts"
# Artifacts of earlier runs stay (they may not be turned into tests yet); only
# the ones this run writes are counted.
marker="$work/.started"
touch "$marker"
status=0
for target in ${FUZZ_TARGETS:-gpx tcx fit yaml yamlnum fmt expr health csv}; do
  corpus="$work/corpus-$target"
  mkdir -p "$corpus"
  if [ "$target" = expr ]; then
    export RACEKIT_FUZZ_TARGET=expression; dict=scripts/fuzz/expression.dict; what="expression parser"
    i=0; while IFS= read -r line; do i=$((i+1)); printf '%s' "$line" > "$corpus/seed-$i"; done < scripts/fuzz/expression.seeds
  elif [ "$target" = yamlnum ] || [ "$target" = fmt ]; then
    # Raw doubles: 8 bytes each; seeds of zeros, ones and NaN/infinity bit patterns.
    [ "$target" = yamlnum ] && export RACEKIT_FUZZ_TARGET=setup-numbers || export RACEKIT_FUZZ_TARGET=formatters
    dict=/dev/null; what="$RACEKIT_FUZZ_TARGET target"
    head -c 96 /dev/zero > "$corpus/seed-zero"
    printf '\x00\x00\x00\x00\x00\x00\xf8\x7f\x00\x00\x00\x00\x00\x00\xf0\x7f\xff\xff\xff\xff\xff\xff\xef\x7f' > "$corpus/seed-special"
  elif [ "$target" = csv ]; then
    export RACEKIT_FUZZ_TARGET=csv; dict=/dev/null; what="CSV reader (Strava's activities.csv)"
    printf 'Activity ID,Activity Name,Filename\r\n1,"Morning ""Run"", easy",activities/1.gpx\r\n2,"two\nlines",x\n' > "$corpus/seed-strava"
    printf '"never closed,\n\r\r\n,,,' > "$corpus/seed-broken"
  elif [ "$target" = health ]; then
    export RACEKIT_FUZZ_TARGET=health; dict=scripts/fuzz/activity.dict; what="Apple Health export reader"
    cp Tests/RaceKitFormatsTests/Fixtures/apple-health/export.xml "$corpus"/
  elif [ "$target" = fit ]; then
    # Seeds: small FIT files from FITWriter (racekit-gen fit-seeds), earlier crash inputs, small corpus files.
    export RACEKIT_FUZZ_TARGET=fit; dict=scripts/fuzz/fit.dict; what="FIT reader"
    ${RACEKIT_GEN:-.build/debug/racekit-gen} fit-seeds "$corpus" > /dev/null || status=1
    cp Tests/RaceKitFormatsTests/Fixtures/fuzz/*.fit "$corpus"/ 2>/dev/null
    if [ -d ../shared/corpus/fit ]; then
      find ../shared/corpus/fit -name "*.fit" -size -64k -exec cp {} "$corpus"/ \;
    fi
  elif [ "$target" = yaml ]; then
    export RACEKIT_FUZZ_TARGET=setup; dict=scripts/fuzz/setup.dict; what="race-setup loader"
    cp Races/*.yaml Tests/RaceKitRaceTests/Fixtures/fuzz/*.yaml "$corpus"/ 2>/dev/null
  else
    export RACEKIT_FUZZ_TARGET=reader; dict=scripts/fuzz/activity.dict; what="$target reader"
    cp Tests/RaceKitFormatsTests/Fixtures/*."$target" Tests/RaceKitFormatsTests/Fixtures/fuzz/*."$target" "$corpus"/ 2>/dev/null
    if [ -d ../shared/corpus/public ]; then
      find ../shared/corpus/public -name "*.$target" -size -64k -exec cp {} "$corpus"/ \;
    fi
  fi
  echo "== fuzzing the $what for ${seconds}s (seeds: $(ls "$corpus" | wc -l))"
  dictarg=(); [ "$dict" != /dev/null ] && dictarg=(-dict="$dict")
  "$bin" "$corpus" "${dictarg[@]}" -max_total_time="$seconds" -timeout=10 -detect_leaks=0 \
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
crashes=$(find "$work/artifacts" -type f -newer "$marker" | wc -l)
echo "fuzz: $crashes new crash/hang/leak inputs in $work/artifacts"
exit $status
