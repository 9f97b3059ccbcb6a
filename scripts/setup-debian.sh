#!/usr/bin/env bash
# Installs the Debian 12 packages SDPort builds against, only when one is missing.
# Safe to run again: it does nothing when everything is present. Uses sudo only when not root.
#
#   scripts/setup-debian.sh [EXTRA-PACKAGE...]   (a script that needs more, e.g. docs-site.sh's graphviz, names it)
set -euo pipefail

packages=(
  libcurl4-openssl-dev   # HTTP transport (SDWebImageDownloader)
  libpng-dev             # PNG coder
  libjpeg62-turbo-dev    # JPEG coder (libjpeg API); Ubuntu's libjpeg-turbo8-dev does not exist on Debian
  libturbojpeg0-dev      # JPEG coder (TurboJPEG API)
  libgif-dev             # GIF coder
  libwebp-dev            # WebP coder (decode, encode, demux, mux)
  libexif-dev            # EXIF orientation of JPEGs (SDImageEXIFOrientation)
  libssl-dev             # libcrypto's MD5 for cache file names (SDImageCache+FileName)
  pkg-config             # SwiftPM finds the libraries' flags through it
  openssl                # the tests make a self-signed certificate for the HTTPS server
  curl                   # the test server's own tests and the downloader benchmark use the curl command
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-debian: all ${#packages[@]} packages are installed"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "setup-debian: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
