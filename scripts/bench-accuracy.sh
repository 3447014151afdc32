#!/usr/bin/env bash
# Accuracy benchmark: livescan, ZXingReader 1.4, zbarimg and tesseract on the labelled corpora in ../shared/corpus
# (zxing-cpp-samples, zxing-blackbox, tesseract-testing, sroie-receipts); Benchmarks/accuracy/accuracy.py does the
# work and writes OUT_DIR/summary.txt and OUT_DIR/accuracy.json.
#
#   scripts/bench-accuracy.sh BIN_DIR OUT_DIR [accuracy.py options]   (make bench-accuracy: .build/release
#                                                                      .build/bench/accuracy)
#
# The corpus is $LIVESCAN_CORPUS, else ../shared/corpus next to the repository; when it is absent the benchmark is
# skipped (exit 0). The peers (zxing-cpp-tools, zbar-tools, tesseract-ocr, webp for dwebp) are installed with apt
# when missing; when that is impossible their columns read n/a. Unmet targets are reported (PASS/FAIL), not fatal.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "Usage: $0 BIN_DIR OUT_DIR [accuracy.py options]" >&2
    exit 2
fi
bin_dir=$1
out_dir=$2
shift 2
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
corpus=${LIVESCAN_CORPUS:-$repo_root/../shared/corpus}

# Debian's Tesseract uses OpenMP, which reads this once at load: without it OCR is ~9x slower on 2 cores.
export OMP_THREAD_LIMIT=1

if [[ ! -d "$corpus/zxing-cpp-samples" && ! -d "$corpus/zxing-blackbox" && ! -d "$corpus/tesseract-testing" ]]; then
    echo "bench-accuracy: corpus not found at $corpus; skipped"
    exit 0
fi
corpus=$(cd "$corpus" && pwd)
[[ -x "$bin_dir/livescan" ]] || { echo "bench-accuracy: error: $bin_dir/livescan not found: build it first (make build)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench-accuracy: error: python3 not found (apt-get install python3)" >&2; exit 1; }

# --- Peers: install what is missing with scripts/setup.sh; a peer that cannot be installed reads n/a ----------------
if ! bash "$repo_root/scripts/setup.sh" zxing-cpp-tools zbar-tools tesseract-ocr webp; then
    echo "bench-accuracy: could not install every peer (zxing-cpp-tools zbar-tools tesseract-ocr webp):" \
        "the columns of those missing will read n/a"
fi

mkdir -p "$out_dir"
exec python3 "$repo_root/Benchmarks/accuracy/accuracy.py" --bin "$bin_dir" --corpus "$corpus" --out "$out_dir" "$@"
