#!/usr/bin/env bash
# Runs the whole suite under a sanitizer, in its own build folder, and fails on any report.
#
#   scripts/sanitize.sh thread    # ThreadSanitizer, .build-tsan
#   scripts/sanitize.sh address   # AddressSanitizer + LeakSanitizer, .build-asan
#
# Extra arguments go to `swift test` (e.g. --filter OP05). The log is kept in the build folder (sanitize.log). The
# `sdport` processes the CLI tests start inherit the *SAN_OPTIONS below, so a report or a leak in them fails their
# test too.
#
# A few tests are skipped under a sanitizer ($SANITIZE_SKIP, a regular expression over test names, overrides the
# list; the empty string runs them all). Each spends its time in one thread's pixel loops over images of tens of
# megapixels, in a decoder over thousands of mutated files, or in a single-threaded check of the memory cache against
# a model: the instrumented build runs them several times slower, and no second thread is there to race (under
# AddressSanitizer they took 89 s of a 401 s run). What a
# sanitizer could find there is still looked for: one large-image scale-down and the hostile files stay under
# AddressSanitizer, the fuzz smoke runs the same decoders on mutated bytes under AddressSanitizer, and the plain
# suite runs every skipped test.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
skip_both='test_COD02_fuzzedInputNeverCrashes|test_CACHE07_scaleDownLargeImagesOption|test_COD11_forceDecodeCategory|test_OP04_scaleDownLargeImages|test_CACHE14_agreesWithAPlainLRUModelUnderCollidingKeys'

kind=${1:-}
shift || true
case "$kind" in
thread)
    scratch=.build-tsan
    # halt_on_error=0: see every race of the run, not only the first; the exit code still says "report".
    export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
    pattern='WARNING: ThreadSanitizer|ThreadSanitizer: reported'
    # Single-threaded here: the hostile files decoded from disk and their frame and pixel limits (the sdport child
    # decodes on one queue), and the large-image scale-down.
    default_skip="$skip_both|test_COD05_largeImageIsScaledDownWithAspectKept|test_REL01_(hostileFilesFromDisk|gifFramesAreCounted|maxPixels|pixelLimit|animationEntries)"
    ;;
address)
    scratch=.build-asan
    export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    # Leaks that are Foundation's, XCTest's or libdispatch's own; each line of the file says why.
    export LSAN_OPTIONS="suppressions=$root/scripts/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
    pattern='ERROR: AddressSanitizer|ERROR: LeakSanitizer'
    default_skip=$skip_both
    ;;
*)
    echo "usage: scripts/sanitize.sh thread|address [swift test arguments...]" >&2
    exit 2
    ;;
esac

# The benchmarks are left out of the sanitized builds (Package.swift): no test runs them.
export SDPORT_SANITIZE=1
# A crash under a sanitizer is reported by the sanitizer itself; Swift's backtracer would add nothing and can
# hang on an instrumented process.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

mkdir -p "$scratch"
log="$scratch/sanitize.log"
start=$(date +%s)
status=0
skip=${SANITIZE_SKIP-$default_skip}
skip_args=()
if [ -n "$skip" ]; then
    skip_args=(--skip "$skip")
    echo "sanitize.sh $kind: skipping the tests that match: $skip"
fi
swift test --disable-swift-testing --sanitize="$kind" --scratch-path "$scratch" "${skip_args[@]}" "$@" 2>&1 | tee "$log" \
    || status=$?
elapsed=$(( $(date +%s) - start ))

reports=$(grep -cE "$pattern" "$log" || true)
echo "sanitize.sh $kind: swift test exit $status, $reports sanitizer report(s), ${elapsed}s (log: $log)"
if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
    exit 1
fi
