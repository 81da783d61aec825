#!/usr/bin/env bash
# make lint: `swift format lint --strict` over Sources, Tests and Package.swift with
# the committed .swift-format (layout and rules); exits 1 on any finding and on a
# file swift-format cannot parse. `make format` fixes the layout findings. Then the
# commands stay thin: no function in Sources/racekit over 40 body lines
# (scripts/function-length.py names each one that is, with its length).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
"$SWIFT" format lint --strict --recursive --parallel --configuration .swift-format Sources Tests Package.swift
python3 scripts/function-length.py --max 40 Sources/racekit
echo "lint: clean"
