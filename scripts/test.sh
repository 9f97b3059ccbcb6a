#!/usr/bin/env bash
# The README's test command: installs what is missing, then runs every test (Behavior and Interview).
# XCTest only: the suites use XCTest expectations; Swift Testing would report an empty run after them.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-debian.sh
swift test --disable-swift-testing "$@"
