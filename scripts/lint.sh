#!/usr/bin/env bash
# make lint: `swift format lint --strict` over Sources, Tests and Package.swift with
# the committed .swift-format (layout and rules); exits 1 on any finding and on a
# file swift-format cannot parse. `make format` fixes the layout findings. Then the
# commands stay thin: no function in Sources/racekit over 40 body lines
# (scripts/function-length.py names each one that is, with its length), and the
# CLI target under 1,600 lines (the work belongs in the libraries).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
"$SWIFT" format lint --strict --recursive --parallel --configuration .swift-format Sources Tests Package.swift
python3 scripts/function-length.py --max 40 Sources/racekit
cli_lines=$(cat Sources/racekit/*.swift | wc -l)
if [ "$cli_lines" -ge 1600 ]; then
    echo "Sources/racekit: $cli_lines lines, the limit is 1,600: move the work into a workflow (Sources/RaceKitWorkflows)" >&2
    exit 1
fi
echo "lint: clean"
