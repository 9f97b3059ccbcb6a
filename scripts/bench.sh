#!/usr/bin/env bash
# Runs the benchmarks (Benchmarks/sdport-bench, on package-benchmark) in release and prints each benchmark's p50 and
# p99, mallocs per operation where they matter, and every goal beside its ratio (scripts/bench-report.py).
#
#   scripts/bench.sh [SUITE] [--json]
#     SUITE: coders, cache, downloader, manager, memory, soak, scale, or all (the default: every suite but soak and
#     scale, which take minutes). --json: after the report, one JSON object per goal (name, ratio, goal, met).
#   scripts/bench.sh timeline [FILE]
#     one run of the pipeline (200 JPEGs, 6 at a time) as a Chrome trace (default .build-bench/pipeline.json), and
#     where its time goes.
#
# Environment: SDPORT_BENCH_SCRATCH, the release build folder (default .build-release); SWIFT_WRAPPER, a command
# put before each swift command (e.g. a build-slot lock on a shared machine). The run's export, the goals and the
# report (REPORT.json, which scripts/bench-plot.py draws from) are kept in .build-bench/SUITE/.
# Exit status: 0 when every goal measured is met, 1 otherwise. Do not time on a busy machine.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${SDPORT_BENCH_SCRATCH:-.build-release}
wrapper=${SWIFT_WRAPPER:-}
suite=all
json=()
for argument in "$@"; do
  case "$argument" in
    --json) json=(--json) ;;
    *) suite=$argument ;;
  esac
done

if [ "$suite" = timeline ]; then
  file=${2:-.build-bench/pipeline.json}
  mkdir -p "$(dirname "$file")"
  $wrapper swift build -c release --scratch-path "$scratch" --product sdport-bench >&2
  exec "$scratch/release/sdport-bench" downloader --timeline "$file"
fi

case "$suite" in
  all) filter='^(coders|cache|downloader|manager|memory)\..*' ;;
  coders|cache|downloader|manager|memory|soak|scale) filter="^$suite\\..*" ;;
  *) echo "usage: scripts/bench.sh [coders|cache|downloader|manager|memory|soak|scale|all|timeline] [--json]" >&2; exit 64 ;;
esac

out=.build-bench/$suite
if [ "$suite" = soak ]; then
  # glibc gives each thread that allocates an arena of its own, up to 8 per core, and keeps what is freed in
  # them; over 60 000 loads on GCD's worker threads that fragmentation grows resident memory by hundreds of MB
  # whatever the library frees (Benchmarks/README.md, "The soak"). Two arenas leave the library's own growth.
  export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
fi
rm -rf "$out"
mkdir -p "$out"
# --disable-sandbox: the benchmarks start a loopback server and write temporary files.
$wrapper swift package --scratch-path "$scratch" --disable-sandbox benchmark run --target sdport-bench \
  --filter "$filter" --format histogramSamples --path "$out" --no-progress > "$out/run.log" 2>&1 || {
  cat "$out/run.log" >&2
  exit 1
}
"$scratch/release/sdport-bench" goals > "$out/goals.json"
python3 scripts/bench-report.py "$out" "$out/goals.json" --save "$out/REPORT.json" "${json[@]}"
