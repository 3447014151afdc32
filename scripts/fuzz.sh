#!/usr/bin/env bash
# Time-bounded libFuzzer runs over CBridge's image and frame entry points and over the event-log reader.
#
#   scripts/fuzz.sh [SECONDS]     (default 60 per target)
#
# Targets (sources in Fuzz/):
#   fuzz_image_decode  corrupt and random image files -> CB_Image_open -> barcodes, text regions, QR, ...
#   fuzz_raw_frame     any width/height/channels/stride -> CB_Image_new -> barcodes, regions, annotation, OCR, line reader
#   fuzz_event_log     any bytes -> EventLogReader(data:) -> EventLogReport -> the `livescan report` renderers
# The C++ targets are built with Debian's clang (libFuzzer + ASan + UBSan), straight from CBridge/*.cpp and
# not through SwiftPM; the Swift target with the toolchain's swiftc -sanitize=fuzzer,address.
#
# FUZZ_SEED=N makes the search repeatable (CI sets it, so a red run names an input that fails again on rerun);
# unset, libFuzzer picks a new seed each run.
#
# Each run first replays Fuzz/regressions/<target>/* (every crash ever found, kept as a plain input), then
# fuzzes for SECONDS from the seeds in Fuzz/corpus/<target>/ (copied to a scratch corpus under
# .build/fuzz/). Exits 1 if any target crashed, leaked, timed out or ran out of memory, naming the reproducer;
# rerun one with `.build/fuzz/<target> <file>`.
set -euo pipefail

seconds=${1:-60}
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -gt 0 ]] || {
    echo "Error: SECONDS must be a positive whole number, not '$seconds'" >&2
    echo "Usage: scripts/fuzz.sh [SECONDS]" >&2
    exit 2
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
self="$root/scripts/fuzz.sh"
out=.build/fuzz
started=$SECONDS

# ---- What LiveScan builds with (zxing-cpp 3.1.1 among it), then Debian's clang and its libFuzzer/sanitizer
# runtimes, only if missing ----------------------------------------------------------------------------------
bash "$(dirname "$0")/setup.sh"
bash "$(dirname "$0")/setup.sh" clang libclang-rt-14-dev
# By full path: the Swift toolchain's own clang usually comes first in PATH.
cxx=/usr/bin/clang++
swiftc=${SWIFTC:-swiftc}

# Debian's Tesseract uses OpenMP, which reads this once at load: without it OCR is ~9x slower on 2 cores.
export OMP_THREAD_LIMIT=1
# UBSan findings stop the run (they are compiled not to recover); print where they happened.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
# Swift's own backtracer (swift-backtrace) deadlocks under ASan when a Swift runtime check traps; libFuzzer
# prints the stack and writes the reproducer itself.
export SWIFT_BACKTRACE=enable=no
# Leaks are findings.

# livescan-zxing: zxing-cpp 3.1.1 as scripts/setup.sh built it (a static libZXing.a), never Debian's 1.4.
read -r -a pkg_cflags <<<"$(pkg-config --cflags tesseract livescan-zxing)"
read -r -a pkg_libs <<<"$(pkg-config --libs tesseract livescan-zxing)"
includes=(-I CBridge/include -I CBridge -I/usr/include/opencv4 "${pkg_cflags[@]}")
# The OpenCV modules and FFmpeg libraries CBridge links, as Package.swift names them (the one list of them).
package_list() { awk -v name="$1" '$0 ~ "let " name " = \\[" {found = 1} found {print} found && /\]/ {exit}' Package.swift |
    grep -o '"[a-z0-9_]*"' | tr -d '"'; }
read -r -a linked <<<"$( (package_list openCVModules; package_list ffmpegLibraries) | tr '\n' ' ')"
# UBSan's vptr check names the type info of every polymorphic class called through a pointer, cv::VideoCapture's and
# cv::VideoWriter's among them: sanitized builds link the two modules CBridge otherwise loads on demand.
libs=("${linked[@]/#/-l}" -lopencv_imgcodecs -lopencv_videoio "${pkg_libs[@]}")
sanitize=(-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)
cxxflags=("${sanitize[@]}" -g -O1 -std=c++17 "${includes[@]}")

mkdir -p "$out/obj/sanitized" "$out/logs"
bridge_headers=(CBridge/include/CBridge.h CBridge/*.hpp)

# True when $1 is missing or older than any later argument.
stale() {
    local target=$1 dependency
    shift
    [[ -e "$target" ]] || return 0
    for dependency in "$@"; do
        [[ "$dependency" -nt "$target" ]] && return 0
    done
    return 1
}

# CBridge instrumented for the C++ targets, two compilers at a time, one per core.
build_bridge() {
    local flavour=$1 source object pids=()
    shift
    for source in CBridge/*.cpp; do
        object="$out/obj/$flavour/$(basename "${source%.cpp}").o"
        if stale "$object" "$source" "${bridge_headers[@]}" "$self"; then
            "$cxx" "$@" -c "$source" -o "$object" &
            pids+=($!)
            if [[ ${#pids[@]} -ge 2 ]]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
        fi
    done
    for pid in "${pids[@]}"; do wait "$pid"; done
}

echo "fuzz: building into $out"
build_bridge sanitized "${cxxflags[@]}"

for target in fuzz_image_decode fuzz_raw_frame; do
    if stale "$out/$target" "Fuzz/$target.cpp" Fuzz/FuzzInput.hpp "$out"/obj/sanitized/*.o "$self"; then
        "$cxx" "${cxxflags[@]}" "Fuzz/$target.cpp" "$out"/obj/sanitized/*.o "${libs[@]}" -o "$out/$target"
    fi
done

# The event-log reader and report are LiveScanCore's, which imports nothing but Foundation: the target is that
# module's sources compiled with it, as one module (so internal API is in reach), with no C library.
mapfile -t swift_sources < <(find Sources/LiveScanCore -name '*.swift' | sort)
if stale "$out/fuzz_event_log" Fuzz/fuzz_event_log.swift "${swift_sources[@]}" "$self"; then
    # ld.gold warns once per ASan helper symbol it cannot export; nothing else is dropped.
    "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -module-name LiveScanCore -package-name LiveScan \
        Fuzz/fuzz_event_log.swift "${swift_sources[@]}" -o "$out/fuzz_event_log" \
        2> >(grep -v "Cannot export local symbol" >&2)
fi
echo "fuzz: built in $((SECONDS - started)) s"

# ---- Run ---------------------------------------------------------------------------------------------------
failures=()
for target in fuzz_image_decode fuzz_raw_frame fuzz_event_log; do
    binary="$out/$target"
    artifacts="$out/artifacts/$target"
    corpus="$out/corpus/$target"
    log="$out/logs/$target.log"
    mkdir -p "$artifacts" "$corpus"
    options=(-timeout=10 -rss_limit_mb=4096 -artifact_prefix="$artifacts/")
    [[ -n "${FUZZ_SEED:-}" ]] && options+=(-seed="$FUZZ_SEED")
    [[ -f "Fuzz/dict/$target.dict" ]] && options+=(-dict="Fuzz/dict/$target.dict")

    mapfile -t regressions < <(find "Fuzz/regressions/$target" -type f ! -name '*.md' 2>/dev/null | sort)
    if [[ ${#regressions[@]} -gt 0 ]]; then
        echo "fuzz: $target: replaying ${#regressions[@]} regression input(s)"
        # One process each: libFuzzer stops at the first input that fails, and every one should be named.
        : >"$out/logs/$target.regressions.log"
        for regression in "${regressions[@]}"; do
            if ! "$binary" "${options[@]}" "$regression" >>"$out/logs/$target.regressions.log" 2>&1; then
                failures+=("$target: regression $regression fails again (log: $out/logs/$target.regressions.log)")
            fi
        done
        grep -E 'runtime error|SUMMARY|ALARM' "$out/logs/$target.regressions.log" >&2 || true
    fi

    cp -n "Fuzz/corpus/$target"/* "$corpus"/ 2>/dev/null || true
    echo "fuzz: $target: fuzzing for $seconds s (log: $log)"
    status=0
    "$binary" "${options[@]}" -max_total_time="$seconds" -print_final_stats=1 "$corpus" >"$log" 2>&1 || status=$?
    grep -E '^#[0-9]+ +DONE|^stat::number_of_executed_units|^stat::average_exec_per_sec|^stat::peak_rss_mb' "$log" |
        sed "s/^/fuzz: $target: /" || true
    if [[ $status -ne 0 ]]; then
        grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY' "$log" | head -n 5 >&2 || true
        reproducer=$(grep -oE 'Test unit written to \S+' "$log" | tail -n 1 | cut -d' ' -f5)
        failures+=("$target: exit $status, reproducer ${reproducer:-none written} (log: $log)")
    fi
done

echo "fuzz: done in $((SECONDS - started)) s"
if [[ ${#failures[@]} -gt 0 ]]; then
    printf 'fuzz: FAILED %s\n' "${failures[@]}" >&2
    echo "fuzz: minimise with '<binary> -minimize_crash=1 -runs=10000 <reproducer>', fix, and keep the input in" \
        "Fuzz/regressions/<target>/" >&2
    exit 1
fi
