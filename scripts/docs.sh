#!/usr/bin/env bash
# Every generated document, from its one source, in one command:
#   scripts/docs.sh generate   # writes them
#   scripts/docs.sh check      # writes nothing; fails naming what is stale (what .ci/run calls)
# - the facts, Docs/knowledge/ (one JSON file per FAQ card, myth, deliberate difference and parity ID): each port
#   anchor's stored symbol, and Docs/spec/PARITY.md, the spec's view (scripts/knowledge.py; check also validates);
# - Docs/walkthrough/*.md and CONTRIBUTING.md: the templates in Docs/walkthrough/src plus `sdport faq --markdown`
#   (which renders Docs/knowledge's cards and myths) and Docs/knowledge/differences (Docs/walkthrough/src/resolve.py;
#   port citations name a file and a symbol, never a line);
# - Docs/PARITY.md, the parity ledger: Docs/knowledge/parity, Docs/knowledge/differences, chapter 08 and the tests'
#   sources (scripts/parity-ledger.py; it reads no test run: .ci/run checks the run separately);
# - Docs/diagrams/*.md: real runs of `sdport diagram` (check compares their structure, not threads or times).
# Docs/knowledge/original-lines*.tsv need a SDWebImage checkout and are made apart: scripts/original-lines.py --help.
# SWIFT_WRAPPER (empty by default) prefixes the swift commands, as in scripts/docs-site.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
case "$mode" in
  generate|check) ;;
  *) echo "usage: scripts/docs.sh generate|check" >&2; exit 2 ;;
esac
wrapper=${SWIFT_WRAPPER:-}
# The data first: sdport carries Docs/knowledge as a resource, so it is built after the symbols are refreshed.
if [ "$mode" = generate ]; then python3 scripts/knowledge.py; else python3 scripts/knowledge.py --check; fi
faq=$(mktemp)
trap 'rm -f "$faq"' EXIT
$wrapper swift build -q --product sdport
sdport="$($wrapper swift build --show-bin-path)/sdport"
"$sdport" faq --markdown > "$faq"
if [ "$mode" = generate ]; then
  python3 Docs/walkthrough/src/resolve.py "$faq"
  python3 scripts/parity-ledger.py
  # A fresh run gives new threads and times: rewrite the diagrams only when their structure changed.
  "$sdport" diagram --all --check Docs/diagrams >/dev/null 2>&1 || "$sdport" diagram --all --output Docs/diagrams
else
  python3 Docs/walkthrough/src/resolve.py --check "$faq"
  python3 scripts/parity-ledger.py --check
  "$sdport" diagram --all --check Docs/diagrams
fi
