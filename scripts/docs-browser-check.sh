#!/usr/bin/env bash
# Loads the built documentation site (scripts/docs-site.sh build) in headless Chromium: the landing page, every
# article and tutorial page and a symbol page, from a loopback server; fails on an empty page, a JavaScript error
# or an internal link that leads nowhere (scripts/docs-browser-check.py). Installs Debian's chromium when it is
# missing (sudo when not root). Screenshots: .docs-site/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  echo "docs-browser-check: installing chromium" >&2
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd=sudo
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi
python3 scripts/docs-browser-check.py "$@"
