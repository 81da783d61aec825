#!/usr/bin/env bash
# Builds the tests, then runs the suite as two test processes side by side.
#   scripts/test-shards.sh [swift build options ...] [-- swift-testing options ...]
# make test, test-asan and test-tsan run it (under with-postgres.sh and with-test-tmp.sh).
#
# Why two processes: the CLI tests run commands in the test process, and a command
# names its files relative to its working folder, which is the process's: one
# command at a time holds it (Tests/RaceKitTestSupport/WorkingFolder.swift), and
# the speech engine speaks one text at a time per process. In one process the CLI
# tests ran one after another, 57 s of a 118 s suite, and a test waiting its turn
# holds one of the two threads the suite runs on. Each shard has its own working
# folder and engine. Shard 1 takes the suites matched below; shard 2 every other
# suite (the same patterns as --skip), so every test runs in exactly one shard
# and a new suite lands in shard 2. The patterns balance the shards' time on this
# 2-core machine (serial suite times, 2026-12-07): the audio-heavy suites
# ScriptAudioTests and ScriptRenderCLITests are in different shards, and the
# store-option suites share ScriptRenderCLITests' rendered folder in shard 2.
#
# Shard 1 prints as it goes; shard 2's output follows when both are done. The
# exit status is 1 when either shard failed (each shard's summary line says
# which), 69 when no test matched in either. Only swift-testing runs: the suite
# has no XCTest tests.
set -uo pipefail
cd "$(dirname "$0")/.."

build=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do build+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
swift=${SWIFT:-swift}
# The binary and the libraries it needs first, then the tests: in one build the
# scheduler starts the test modules as soon as their libraries are there, and
# the chain to the binary (Yams and swift-argument-parser waited 60 s) and
# RaceKitCLITests, the largest test module, at its end, ended last. A cold build
# of the tests here (2 cores, 2026-12-07): 143 s in one step, 123 s in two.
"$swift" build --product racekit "${build[@]}" || exit $?
"$swift" build --build-tests "${build[@]}" || exit $?
bin="$("$swift" build --show-bin-path "${build[@]}")/RaceKitPackageTests.xctest"
[ -x "$bin" ] || { echo "test-shards: no test binary at $bin" >&2; exit 70; }

shard1=(
  'RaceKitCLITests\.[A-R]'
  'RaceKitRaceTests\.ScriptAudioTests'
  'RaceKitFormatsTests\.'
  'RaceKitImportTests\.'
  'RaceKitWorkflowsTests\.'
)
# Shard 1 skips every test whose id matches none of the patterns (a --filter of
# its own would be ORed with the caller's, running all of shard 1 whatever was
# asked); shard 2 skips those that match one. The caller's options apply to both.
two=()
for p in "${shard1[@]}"; do two+=(--skip "$p"); done
one=(--skip "^(?!$(IFS='|'; echo "${shard1[*]}"))")

log=$(mktemp "${TMPDIR:-/tmp}/racekit-shard2.XXXXXX")
pids=()
stop() { kill "${pids[@]}" 2>/dev/null; rm -f "$log"; exit 130; }
trap stop INT TERM
"$bin" --testing-library swift-testing "${two[@]}" "$@" >"$log" 2>&1 &
pids+=($!)
"$bin" --testing-library swift-testing "${one[@]}" "$@" &
pids+=($!)
wait "${pids[1]}"; status1=$?
wait "${pids[0]}"; status2=$?
echo "== test shard 2 (every suite not in shard 1)"
cat "$log"
rm -f "$log"
echo "== test shards: shard 1 exit $status1, shard 2 exit $status2"
# 69: no test of the shard matched the caller's options; fine when the other shard ran some.
if [ "$status1" = 69 ] && [ "$status2" = 69 ]; then exit 69; fi
[ "$status1" = 69 ] && status1=0
[ "$status2" = 69 ] && status2=0
[ "$status1" = 0 ] && [ "$status2" = 0 ]
