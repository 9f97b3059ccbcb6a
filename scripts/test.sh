#!/usr/bin/env bash
# The README's test command: installs what is missing, then runs every test: the scripts' Python unit tests, then
# the Swift suites (Behavior, Tooling, Interview and Museum).
# XCTest only: the suites use XCTest expectations; Swift Testing would report an empty run after them.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-debian.sh
# The docs tooling's own unit tests (Python, standard library; a second or so).
python3 -m unittest discover -s scripts/tests -p 'test_*.py'
swift test --disable-swift-testing "$@"
