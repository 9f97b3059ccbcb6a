#!/usr/bin/env bash
# The README's main command: installs what is missing, then runs the sdport demo.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-debian.sh >/dev/null
swift run sdport demo "$@"
