#!/usr/bin/env bash
# A short run of every fuzz target (CI): one build, then each target for SECONDS (default 25) with the flags its
# row in Fuzz/README.md uses, so a short run gets through inputs at its usual rate (png without -max_len spends its
# time in a few huge inputs). Any crash fails the run.
#
#   scripts/fuzz-smoke.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-25}
./scripts/fuzz.sh sniff 1 -runs=1 >/dev/null 2>&1  # builds sdport-fuzz once (a failed build fails here)
export SDPORT_FUZZ_NO_BUILD=1
status=0
for target in jpeg png gif webp sniff cachename http; do
    case "$target" in
    jpeg) flags=(-timeout=300) ;;
    png) flags=(-max_len=16384) ;;
    *) flags=() ;;
    esac
    log=$(mktemp)
    if ./scripts/fuzz.sh "$target" "$seconds" "${flags[@]}" >"$log" 2>&1; then
        runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo "?")
        echo "fuzz-smoke: $target ${seconds}s ${flags[*]:-}: $runs executions, no crash"
    else
        echo "fuzz-smoke: $target FAILED (log below)"
        tail -40 "$log"
        status=1
    fi
    rm -f "$log"
done
exit $status
