#!/usr/bin/env bash
# Runs one libFuzzer harness for SECONDS (Fuzz/README.md):
#
#   scripts/fuzz.sh jpeg|png|gif|webp|sniff|cachename|http SECONDS [libFuzzer flags...]
#
# Builds `sdport-fuzz` in .build-fuzz (every Swift module with -sanitize=fuzzer,address), seeds the working
# corpus .build-fuzz/corpus/TARGET from Fixtures/ and Fixtures/hostile/ (the images of that format; the hostile ones
# are decompression bombs, REL-01) and Fuzz/corpus/TARGET, and runs.
# A crash leaves crash-* in .build-fuzz/crashes/TARGET and makes the script exit non-zero.
# -malloc_limit_mb: one allocation over 1100 MB is a crash. SDWebImageCoderHelper.maxDecodedPixelCount allows
# 16384 x 16384 RGBA (1 GiB) per image, so anything bigger is a decompression bomb that was not refused before
# allocating.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:-}
seconds=${2:-}
if [ -z "$target" ] || [ -z "$seconds" ]; then
    echo "usage: scripts/fuzz.sh jpeg|png|gif|webp|sniff|cachename|http SECONDS [libFuzzer flags...]" >&2
    exit 2
fi
shift 2

case "$target" in
jpeg) patterns='*.jpg' ;;
png) patterns='*.png' ;;
gif) patterns='*.gif' ;;
webp) patterns='*.webp' ;;
sniff) patterns='*.jpg *.png *.gif *.webp' ;;
cachename | http) patterns='' ;;
*) echo "unknown target $target" >&2; exit 2 ;;
esac

build=(swift build --scratch-path .build-fuzz --product sdport-fuzz
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
# SDPORT_FUZZ_NO_BUILD=1 skips the build (to run several targets side by side without several builds).
if [ -z "${SDPORT_FUZZ_NO_BUILD:-}" ]; then SDPORT_FUZZ=1 "${build[@]}" >&2; fi
binary=$(SDPORT_FUZZ=1 "${build[@]}" --show-bin-path)/sdport-fuzz

corpus=.build-fuzz/corpus/$target
crashes=.build-fuzz/crashes/$target
mkdir -p "$corpus" "$crashes"
for pattern in $patterns; do
    for file in Fixtures/$pattern Fixtures/hostile/$pattern; do [ -f "$file" ] && cp -n "$file" "$corpus/" || true; done
done
if [ -d "Fuzz/corpus/$target" ]; then cp -n Fuzz/corpus/"$target"/* "$corpus/" 2>/dev/null || true; fi

export SDPORT_FUZZ_TARGET=$target
# A trap is reported by libFuzzer and ASan; Swift's backtracer would only read the stack ASan watches.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
exec "$binary" "$corpus" -max_total_time="$seconds" -malloc_limit_mb=1100 -rss_limit_mb=6144 \
    -timeout=60 -print_final_stats=1 -artifact_prefix="$crashes/" "$@"
