#!/usr/bin/env bash
# Runs a command with TMPDIR set to a fresh folder, removed afterwards whatever
# the command's outcome: the test suite (and SwiftPM's own TemporaryDirectory.*
# folders) leave nothing in the machine's temporary folder.
#   scripts/with-test-tmp.sh swift test
set -euo pipefail
base="${TMPDIR:-/tmp}"
dir=$(mktemp -d "$base/racekit-test.XXXXXX")
# Like /tmp itself: tests run commands as another user (setpriv), which must reach it.
chmod 1777 "$dir"
cleanup() { rm -rf "$dir"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
# A store of the caller's is not the tests' (CLI tests run commands in the test
# process, which would read it).
unset RACEKIT_STORE
TMPDIR="$dir" "$@"
