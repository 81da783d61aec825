#!/usr/bin/env bash
# make lint: `swift format lint --strict` over Sources, Tests and Package.swift with
# the committed .swift-format (layout and rules); exits 1 on any finding and on a
# file swift-format cannot parse. `make format` fixes the layout findings.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
"$SWIFT" format lint --strict --recursive --parallel --configuration .swift-format Sources Tests Package.swift
echo "lint: clean"
