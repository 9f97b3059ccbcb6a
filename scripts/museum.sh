#!/usr/bin/env bash
# The bug museum's check (Museum/README.md): both sides of every exhibit, each proven by its MuseumTests.
#
#   scripts/museum.sh verify [N]   # all exhibits (or exhibit N): patched side in a scratch copy, then the port as is
#   scripts/museum.sh tsan         # MUS-10 by hand: the regressed copy built with --sanitize=thread (about 10 min)
#   scripts/museum.sh diagrams     # Docs/diagrams/mus-NN-<side>.md for MUS-01, 02, 03, 09, from real runs of both sides
#
# verify first runs MuseumTests on the checkout itself, unpatched, in ${MUSEUM_UNPATCHED_SCRATCH:-.build} (CI has
# just built it there). It then copies the checkout (tracked and untracked files, not .build*) into
# .build-mus-scratch/tree, applies every exhibit's patch there (or only exhibit N's; the patches do not conflict),
# builds that copy once in .build-mus-scratch/build and runs MuseumTests with SDPORT_MUSEUM=patched (the fixed side
# of a fix exhibit, the 4.4.8 side of a regress exhibit). With MUSEUM_IN_PLACE=1 (CI) the patches go onto the
# checkout instead, built incrementally in the same build folder, and come off again at the end. For each exhibit it
# checks that a test of each side ran and passed, and prints the time taken. $SWIFT is the swift command (default "swift").
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
swift_cmd=${SWIFT:-swift}
base=${MUSEUM_SCRATCH:-$root/.build-mus-scratch}
unpatched_scratch=${MUSEUM_UNPATCHED_SCRATCH:-$root/.build}

usage() {
    echo "usage: scripts/museum.sh verify [N] | tsan | diagrams" >&2
    exit 2
}

# The exhibits to check: MUS-01 … from Museum/, or the one asked for.
exhibits() {
    local wanted=${1:-}
    if [ -n "$wanted" ]; then
        local id
        id=$(printf 'MUS-%02d' "$((10#$wanted))") || usage
        [ -d "Museum/$id" ] || { echo "museum.sh: there is no exhibit $id in Museum/" >&2; exit 2; }
        echo "$id"
    else
        (cd Museum && ls -d MUS-[0-9][0-9] | sort)
    fi
}

# The patches of the given exhibits, in the order they are applied.
patches_of() {
    local id patch
    for id in "$@"; do
        for patch in "Museum/$id/fix.patch" "Museum/$id/regress.patch"; do
            [ -f "$patch" ] && echo "$patch"
        done
    done
    return 0
}

# The files the given patches touch.
files_touched_by() {
    local patch
    for patch in "$@"; do git apply --numstat "$patch" | cut -f3; done | sort -u
}

# Copies the checkout into $base/tree (file times kept, so the scratch build stays incremental) and applies the
# patches of the given exhibits.
make_tree() {
    local tree=$base/tree
    rm -rf "$tree"
    mkdir -p "$tree"
    git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$tree"
    [ -f Package.resolved ] && cp -p Package.resolved "$tree/"
    local patch
    for patch in $(patches_of "$@"); do
        # The copy may sit inside this repository (.build-mus-scratch): without the ceiling, git would apply the
        # patch relative to the repository's top level and skip every path outside the copy.
        if ! (cd "$tree" && GIT_CEILING_DIRECTORIES="$base" git apply --whitespace=nowarn "$root/$patch" \
              && GIT_CEILING_DIRECTORIES="$base" git apply --reverse --check "$root/$patch"); then
            echo "museum.sh: $patch does not apply" >&2
            exit 1
        fi
        echo "  applied $patch"
    done
}

# The filter that selects the tests of the given exhibits (MUS01|MUS02…).
filter_for() {
    local ids=() id
    for id in "$@"; do ids+=("MUS${id#MUS-}_"); done
    local IFS='|'
    echo "MuseumTests\\.(${ids[*]})"
}

# Checks a test log: for each exhibit, a test whose name matches the side's pattern passed. $1 = log, $2 = side.
check_side() {
    local log=$1 side=$2 problems=0 id nn passed skipped
    shift 2
    for id in "$@"; do
        nn=${id#MUS-}
        if [ "$side" = patched ]; then
            passed=$(grep -cE "Test Case '.*test_MUS${nn}_(fixed|regressed)_[A-Za-z0-9_]*' passed" "$log" || true)
        else
            passed=$(grep -E "Test Case '.*test_MUS${nn}_[A-Za-z0-9_]*' passed" "$log" | grep -cvE "_(fixed|regressed|child)_" || true)
        fi
        if [ "$passed" -eq 0 ]; then
            if [ "$side" = patched ]; then
                skipped=$(grep -E "test_MUS${nn}_(fixed|regressed)_.*Test skipped" "$log" | head -1 | sed 's/.*Test skipped - //' || true)
            else
                skipped=$(grep -E "test_MUS${nn}_.*Test skipped" "$log" | grep -vE "_(fixed|regressed|child)_" | head -1 \
                    | sed 's/.*Test skipped - //' || true)
            fi
            if [ "$id" = MUS-10 ] && [ "$side" = patched ] && [ -n "$skipped" ]; then
                echo "  $id $side: skipped ($skipped)"
            else
                echo "  $id $side: NO PASSING TEST${skipped:+ ($skipped)}"
                problems=$((problems + 1))
            fi
        else
            echo "  $id $side: $passed test(s) passed"
        fi
    done
    return "$problems"
}

# In place (MUSEUM_IN_PLACE=1, what CI uses): the patches go onto the checkout itself, which is built
# incrementally in the checkout's build folder (about a minute instead of a cold build of a copy), and come off
# again on exit, whatever happens. Refused when a file the patches touch has changes of its own.
applied_in_place=()
unapply_in_place() {
    local i
    for (( i=${#applied_in_place[@]}-1; i>=0; i-- )); do
        git apply --reverse --whitespace=nowarn "${applied_in_place[$i]}" \
            || echo "museum.sh: could not take ${applied_in_place[$i]} off the checkout; git diff shows what is left" >&2
    done
    applied_in_place=()
}
apply_in_place() {
    local patch touched
    mapfile -t touched < <(files_touched_by "$@")
    if ! git diff --quiet HEAD -- "${touched[@]}"; then
        echo "museum.sh: MUSEUM_IN_PLACE needs the files the patches touch unchanged (commit or stash them)" >&2
        exit 1
    fi
    trap unapply_in_place EXIT
    for patch in "$@"; do
        git apply --whitespace=nowarn "$patch" || { echo "museum.sh: $patch does not apply" >&2; exit 1; }
        applied_in_place+=("$patch")
        echo "  applied $patch (in place)"
    done
}

verify() {
    local start ids filter status=0 patched_log unpatched_log patches tree build
    start=$(date +%s)
    mapfile -t ids < <(exhibits "${1:-}")
    mapfile -t patches < <(patches_of "${ids[@]}")
    filter=$(filter_for "${ids[@]}")
    mkdir -p "$base"
    patched_log=$base/patched.log
    unpatched_log=$base/unpatched.log

    echo "museum: ${#ids[@]} exhibit(s): ${ids[*]}"
    # The port as it is first: in place, the checkout is patched next.
    echo "museum: the port as it is (scratch path $unpatched_scratch)"
    $swift_cmd test --disable-swift-testing --scratch-path "$unpatched_scratch" --filter "$filter" >"$unpatched_log" 2>&1 \
        || status=1
    grep -E "error: |Executed [0-9]+ tests" "$unpatched_log" | tail -n 20 || true
    check_side "$unpatched_log" unpatched "${ids[@]}" || status=1

    if [ -n "${MUSEUM_IN_PLACE:-}" ]; then
        echo "museum: patching the checkout in place (scratch path $unpatched_scratch)"
        apply_in_place "${patches[@]}"
        tree=$root build=$unpatched_scratch
    else
        echo "museum: scratch copy in $base/tree"
        make_tree "${ids[@]}"
        tree=$base/tree build=$base/build
    fi
    echo "museum: building the patched side (scratch path $build)"
    $swift_cmd build --build-tests --package-path "$tree" --scratch-path "$build" 2>&1 \
        | grep -E "error:|Compiling MuseumTests|Build complete" || true
    echo "museum: patched side (SDPORT_MUSEUM=patched)"
    SDPORT_MUSEUM=patched $swift_cmd test --disable-swift-testing --skip-build --package-path "$tree" \
        --scratch-path "$build" --filter "$filter" >"$patched_log" 2>&1 || status=1
    grep -E "error: |Executed [0-9]+ tests" "$patched_log" | tail -n 20 || true
    check_side "$patched_log" patched "${ids[@]}" || status=1
    if [ -n "${MUSEUM_IN_PLACE:-}" ]; then
        unapply_in_place
        trap - EXIT
        git diff --quiet HEAD -- $(files_touched_by "${patches[@]}") \
            || { echo "museum.sh: the checkout is not as it was after taking the patches off" >&2; status=1; }
    fi

    local elapsed=$(( $(date +%s) - start ))
    if [ "$status" -eq 0 ]; then
        echo "museum verify: PASSED, ${#ids[@]} exhibit(s), both sides, in ${elapsed}s (logs: $patched_log, $unpatched_log)"
    else
        echo "museum verify: FAILED after ${elapsed}s (logs: $patched_log, $unpatched_log)"
    fi
    return "$status"
}

# MUS-10 under ThreadSanitizer: the regressed copy, instrumented; its child process must report the race.
tsan() {
    local start status=0 log
    start=$(date +%s)
    base=${MUSEUM_SCRATCH:-$root/.build-mus-scratch}-tsan
    mkdir -p "$base"
    log=$base/tsan.log
    make_tree MUS-10
    SWIFT_BACKTRACE=enable=no SDPORT_MUSEUM=patched $swift_cmd test --disable-swift-testing --sanitize=thread \
        --package-path "$base/tree" --scratch-path "$base/build" --filter 'MuseumTests\.MUS10_' >"$log" 2>&1 || status=1
    grep -E "error: |Executed [0-9]+ tests|WARNING: ThreadSanitizer|SDWebImageCombinedOperation" "$log" | head -n 20 || true
    check_side "$log" patched MUS-10 || status=1
    grep -q "test_MUS10_regressed_cancelledFlagRaces' passed" "$log" || status=1
    echo "museum tsan: $([ "$status" -eq 0 ] && echo PASSED || echo FAILED) in $(( $(date +%s) - start ))s (log: $log)"
    return "$status"
}

# Sequence diagrams of both sides, each from a real run: the checkout's sdport draws the unpatched side, the
# patched copy's sdport (every patch applied) the patched side.
diagrams() {
    local ids n id kind unpatched_side patched_side
    mapfile -t ids < <(exhibits)
    make_tree "${ids[@]}" >/dev/null
    $swift_cmd build --package-path "$base/tree" --scratch-path "$base/build" --product sdport 2>&1 | grep -E "error:|Build complete" || true
    $swift_cmd build --scratch-path "$unpatched_scratch" --product sdport 2>&1 | grep -E "error:|Build complete" || true
    for n in 1 2 3 9; do
        id=$(printf 'MUS-%02d' "$n")
        kind=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['kind'])" "Museum/$id/exhibit.json")
        if [ "$kind" = fix ]; then unpatched_side=faithful patched_side=fixed; else unpatched_side=fixed patched_side=faithful; fi
        "$unpatched_scratch/debug/sdport" museum "$n" --diagram --side "$unpatched_side" \
            >"Docs/diagrams/$(printf 'mus-%02d' "$n")-$unpatched_side.md"
        "$base/build/debug/sdport" museum "$n" --diagram --side "$patched_side" \
            >"Docs/diagrams/$(printf 'mus-%02d' "$n")-$patched_side.md"
        echo "  wrote Docs/diagrams/$(printf 'mus-%02d' "$n")-{$unpatched_side,$patched_side}.md"
    done
}

case "${1:-}" in
verify) shift; verify "${1:-}" ;;
tsan) tsan ;;
diagrams) diagrams ;;
*) usage ;;
esac
