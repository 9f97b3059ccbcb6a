#!/usr/bin/env bash
# Writes the tutorial's terminal listings into a DocC catalog's Resources from real runs, so the tutorial shows
# what the port prints now: `sdport load --trace` twice on a fixture (downloaded, then from disk), the cache
# directory and the MD5 of the key, drill 3 from Docs/knowledge/faq/FAQ-03.json, and the port's file the drill changes.
# Usage: scripts/docc-tutorial-listings.sh SDPORT_BINARY CATALOG.docc   (scripts/docs-site.sh runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
sdport=$1
resources=$2/Resources
fixture=Fixtures/gradient.png
shown=/tmp/sdport-tutorial
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
command="swift run sdport load $fixture --trace --cache-dir $shown"
as_comment() { sed "s#$cache#$shown#g; s/^/# /"; }

echo "$command" > "$resources/follow-01-load.sh"
{
  echo "$command"
  echo "# Output when this site was built (times differ on every run):"
  "$sdport" load "$fixture" --trace --cache-dir "$cache" 2>&1 | as_comment
} > "$resources/follow-02-trace.sh"
{
  echo "$command"
  echo "# The second run, in a new process:"
  "$sdport" load "$fixture" --trace --cache-dir "$cache" 2>&1 | as_comment
} > "$resources/follow-03-again.sh"
folder=$cache/com.hackemist.SDWebImageCache.default
{
  echo "ls -l $shown/com.hackemist.SDWebImageCache.default/"
  ls -l "$folder" | tail -n +2 | as_comment
  echo "swift run sdport cache path --cache-dir $shown   # the same folder, as the cache computes it"
} > "$resources/follow-04-list.sh"
{
  echo "ls $shown/com.hackemist.SDWebImageCache.default/"
  echo 'printf %s "file://$PWD/'"$fixture"'" | md5sum'
  echo "# When this site was built, in $PWD:"
  ls "$folder" | as_comment
  printf %s "file://$PWD/$fixture" | md5sum | as_comment
} > "$resources/follow-05-md5.sh"
python3 - "$resources/follow-06-drill.sh" <<'PY'
import json, sys
drill = json.load(open('Docs/knowledge/faq/FAQ-03.json'))['drill']
lines = ['swift run sdport drill      # the list: each answer\'s rule and the one-line change that breaks it',
         'swift run sdport drill 3',
         f"# The rule: {drill['rule']}",
         f"# The change, in a scratch copy of {drill['file']}:",
         f"#     {drill['find']}",
         f"#  →  {drill['replace']}",
         f"# Then the {drill['tests']} tests run in the copy."]
if drill.get('predict'):
    lines.append(f"# Predict first: {drill['predict']}")
if drill.get('expect'):
    lines.append(f"# Expected: {drill['expect']}")
open(sys.argv[1], 'w').write('\n'.join(lines) + '\n')
PY
cp Sources/SDPort/Cache/SDImageCache+FileName.swift "$resources/"
