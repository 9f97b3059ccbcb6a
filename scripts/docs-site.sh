#!/usr/bin/env bash
# The documentation site (DocC): `scripts/docs-site.sh build` writes it to .docs-site/site, `serve` builds it and
# serves it on http://127.0.0.1:${PORT:-8000}/documentation/sdport (Ctrl-C stops), `check` builds it and runs the
# browser check (scripts/docs-browser-check.sh).
#
# build: the SDPort module's symbol graph (swift package dump-symbol-graph, in the scratch path $SCRATCH, default
# .build, so CI reuses the test build), with the original's file:line citations made links
# (scripts/docc-symbol-links.py); a copy of Sources/SDPort/SDPort.docc with the walkthrough, the FAQ cards and the
# parity ledger turned into DocC articles (scripts/docc-articles.py) and the tutorial's listings from real runs
# (scripts/docc-tutorial-listings.sh); then `docc convert
# --transform-for-static-hosting`. It fails on any DocC warning (an unresolved link, a bad directive) and on any
# public symbol without a doc comment. Figures land in .docs-site/build-report.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
command=${1:-build}
out=.docs-site
scratch=${SCRATCH:-.build}
# A wrapper for swift commands on a shared machine (e.g. SWIFT_WRAPPER=flock-wrapper); empty by default.
wrapper=${SWIFT_WRAPPER:-}

find_docc() {
  if command -v docc >/dev/null 2>&1; then command -v docc; return; fi
  local swift_bin
  swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
  if [ -x "$swift_bin/docc" ]; then echo "$swift_bin/docc"; return; fi
  echo "docs-site: docc not found (it ships with the Swift toolchain, next to swift)" >&2
  exit 1
}

build() {
  local started docc graphs catalog warnings undocumented
  started=$(date +%s)
  docc=$(find_docc)
  # Graphviz lays out the flowcharts and the state diagram of chapter 11 for the site (scripts/docc_mermaid.py).
  ./scripts/setup-debian.sh graphviz
  rm -rf "$out/symbol-graphs" "$out/catalog" "$out/site"
  mkdir -p "$out/symbol-graphs"
  # The symbol graph of every module; only SDPort's files are used. The command also tries the test modules,
  # which it cannot load on Linux, and then exits 1; so success is judged by SDPort.symbols.json being written.
  rm -rf "$scratch"/*-unknown-linux-gnu/symbolgraph
  $wrapper swift package --scratch-path "$scratch" dump-symbol-graph --minimum-access-level public \
    > "$out/dump-symbol-graph.log" 2>&1 || true
  graphs=$(dirname "$(find "$scratch" -path '*/symbolgraph/SDPort.symbols.json' | head -n 1)")
  if [ ! -f "$graphs/SDPort.symbols.json" ]; then
    tail -n 30 "$out/dump-symbol-graph.log" >&2
    echo "docs-site: no symbol graph for SDPort (log: $out/dump-symbol-graph.log)" >&2
    exit 1
  fi
  python3 scripts/docc-symbol-links.py --module SDPort --in "$graphs" --out "$out/symbol-graphs"
  catalog="$out/catalog/SDPort.docc"
  python3 scripts/docc-articles.py --catalog Sources/SDPort/SDPort.docc --symbol-graph "$out/symbol-graphs" \
    --out "$catalog"
  # The tutorial's listings come from real runs of sdport (built by the symbol graph step).
  local sdport
  sdport=$(find "$scratch" -path '*/debug/sdport' -type f -perm -u+x | head -n 1)
  if [ -z "$sdport" ]; then
    $wrapper swift build --scratch-path "$scratch" --product sdport > "$out/build-sdport.log" 2>&1
    sdport=$(find "$scratch" -path '*/debug/sdport' -type f -perm -u+x | head -n 1)
  fi
  ./scripts/docc-tutorial-listings.sh "$sdport" "$catalog"
  "$docc" convert "$catalog" \
    --additional-symbol-graph-dir "$out/symbol-graphs" \
    --output-dir "$out/site" \
    --transform-for-static-hosting \
    --fallback-display-name SDPort --fallback-bundle-identifier org.sdport.SDPort \
    --diagnostics-file "$out/diagnostics.json" \
    --experimental-documentation-coverage --coverage-summary-level brief \
    2>&1 | tee "$out/docc.log" | grep -v '^$' || true
  warnings=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for x in d.get("diagnostics",[]) if x.get("severity") in ("warning","error")))' "$out/diagnostics.json")
  undocumented=$(python3 scripts/docc-coverage.py "$out/symbol-graphs")
  pages=$(find "$out/site/data" -name '*.json' | wc -l)
  {
    echo "docc warnings: $warnings"
    echo "public symbols without a doc comment: $undocumented"
    echo "pages: $pages"
    echo "build seconds: $(( $(date +%s) - started ))"
  } | tee "$out/build-report.txt"
  if [ "$warnings" != 0 ] || [ "$undocumented" != 0 ]; then
    echo "docs-site: fix the warnings above ($out/diagnostics.json)" >&2
    exit 1
  fi
}

case "$command" in
  build) build ;;
  serve)
    build
    echo "serving http://127.0.0.1:${PORT:-8000}/documentation/sdport (Ctrl-C stops)"
    exec python3 -m http.server "${PORT:-8000}" --bind 127.0.0.1 --directory "$out/site" ;;
  check)
    build
    ./scripts/docs-browser-check.sh ;;
  *) echo "usage: scripts/docs-site.sh build|serve|check" >&2; exit 2 ;;
esac
