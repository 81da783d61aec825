#!/usr/bin/env bash
# make lint: `swift format lint --strict` over Sources, Tests and Package.swift with
# the committed .swift-format (layout and rules); exits 1 on any finding and on a
# file swift-format cannot parse. `make format` fixes the layout findings. Then the
# commands stay thin: no function in Sources/racekit over 40 body lines
# (scripts/function-length.py names each one that is, with its length), and the
# CLI target under 1,530 lines besides its imports (the work belongs in the
# libraries; imports are not work, and a finer module map only lengthens them).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
"$SWIFT" format lint --strict --recursive --parallel --configuration .swift-format Sources Tests Package.swift
python3 scripts/function-length.py --max 40 Sources/racekit
cli_lines=$(cat Sources/racekit/*.swift | grep -cvE '^(@[a-zA-Z]+ )*(internal |public )?import ')
if [ "$cli_lines" -ge 1530 ]; then
    echo "Sources/racekit: $cli_lines lines besides imports, the limit is 1,530: move the work into a workflow (Sources/RaceKitWorkflows)" >&2
    exit 1
fi
echo "lint: clean"
