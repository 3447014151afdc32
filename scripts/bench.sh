#!/usr/bin/env bash
# Real-time benchmark: decode-only, LiveScan barcodes-only, zbarimg and ZXingReader over the same frames,
# LiveScan text+barcodes and per-frame tesseract with the CER of each, on generated 720p and 1080p videos; a live
# 720p30 stream served by ffmpeg on 127.0.0.1 (processed fps, add latency); a soak run for RSS. All in one run by
# Benchmarks/realtime/bench_realtime.py (figures and targets: score_realtime.py), which prints one report and writes
# OUT_DIR/summary.txt and OUT_DIR/realtime.json.
#
#   scripts/bench.sh BIN_DIR OUT_DIR        (make bench: .build/release .build/bench/realtime)
#
#   BENCH_QUICK=1           a short development run: 90-frame videos, 20 s live, 60 s soak
#   BENCH_SOAK_SECONDS=N    soak length (default 600, quick 60; under 300 s its RSS trend is shown, not judged);
#                           0 skips it
#
# Unmet targets are reported (PASS/FAIL lines), not fatal: the exit status is 0 unless a tool is missing or fails in a
# way the benchmark cannot go on from. Rendered videos are kept in OUT_DIR/videos and re-made only when
# livescan-scenes is newer; the extracted frames are deleted after use. Standard library Python only (no venv).
# The harness owns every process it starts and stops them all on exit, Ctrl-C and SIGTERM.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "Usage: $0 BIN_DIR OUT_DIR" >&2
    exit 2
fi
bin_dir=$1
out_dir=$2
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian's Tesseract uses OpenMP, which reads this once at load: without it OCR is ~9x slower on 2 cores.
export OMP_THREAD_LIMIT=1

fail() {
    echo "bench: error: $*" >&2
    exit 1
}

for tool in livescan livescan-scenes; do
    [[ -x "$bin_dir/$tool" ]] || fail "$bin_dir/$tool not found: build it first (make build)"
done
# The peers: scripts/setup.sh installs those missing (as `make setup` does).
bash "$repo_root/scripts/setup.sh" ffmpeg zbar-tools zxing-cpp-tools tesseract-ocr python3 \
    || fail "could not install the peers (ffmpeg zbar-tools zxing-cpp-tools tesseract-ocr python3)"

options=()
if [[ ${BENCH_QUICK:-0} == 1 ]]; then
    options+=(--quick)
fi
if [[ -n ${BENCH_SOAK_SECONDS:-} ]]; then
    [[ $BENCH_SOAK_SECONDS =~ ^[0-9]+$ ]] || fail "BENCH_SOAK_SECONDS must be a whole number of seconds"
    options+=(--soak-seconds "$BENCH_SOAK_SECONDS")
fi
mkdir -p "$out_dir"
exec python3 -u "$repo_root/Benchmarks/realtime/bench_realtime.py" --bin "$bin_dir" --out "$out_dir" "${options[@]}"
