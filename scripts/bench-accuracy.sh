#!/usr/bin/env bash
# Accuracy benchmark: livescan, ZXingReader 1.4, zbarimg and tesseract on the labelled corpora in ../shared/corpus
# (zxing-cpp-samples, zxing-blackbox, tesseract-testing, sroie-receipts), and on the real photos of ../shared/realdata
# (quagga2 1-D, jsQR and BoofCV QR photos, ICDAR 2015 scene text; scored by ../shared/tools/score_realdata.py, with zxing-cpp 3.1's Python
# wheel as a further peer); Benchmarks/accuracy/accuracy.py does the work and writes OUT_DIR/summary.txt and
# OUT_DIR/accuracy.json.
#
#   scripts/bench-accuracy.sh BIN_DIR OUT_DIR [accuracy.py options]   (make bench-accuracy: .build/release
#                                                                      .build/bench/accuracy)
#
# The corpus is $LIVESCAN_CORPUS, else ../shared/corpus next to the repository; when it is absent the benchmark is
# skipped (exit 0). The real photos are $LIVESCAN_REALDATA, else ../shared/realdata; when absent their sets are
# skipped with a message. The scorer's virtualenv (OUT_DIR/venv, pinned by Benchmarks/accuracy/requirements.txt, as
# scripts/bench-dev.sh's) is installed once, so later runs work offline. The peers (zxing-cpp-tools, zbar-tools, tesseract-ocr, webp for dwebp) are installed with apt
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
realdata=${LIVESCAN_REALDATA:-$repo_root/../shared/realdata}
requirements="$repo_root/Benchmarks/accuracy/requirements.txt"
venv="$out_dir/venv"

# Debian's Tesseract uses OpenMP, which reads this once at load: without it OCR is ~9x slower on 2 cores.
export OMP_THREAD_LIMIT=1

have_corpus=1
if [[ ! -d "$corpus/zxing-cpp-samples" && ! -d "$corpus/zxing-blackbox" && ! -d "$corpus/tesseract-testing" ]]; then
    have_corpus=0
fi
realdata_options=()
if [[ -d "$realdata" && -f "$realdata/../tools/score_realdata.py" ]]; then
    realdata=$(cd "$realdata" && pwd)
else
    echo "bench-accuracy: real photos not found at $realdata (or no tools/score_realdata.py beside them); their sets" \
        "are skipped"
    realdata=
fi
if [[ $have_corpus -eq 0 && -z "$realdata" ]]; then
    echo "bench-accuracy: corpus not found at $corpus; skipped"
    exit 0
fi
[[ $have_corpus -eq 1 ]] && corpus=$(cd "$corpus" && pwd)
[[ -x "$bin_dir/livescan" ]] || { echo "bench-accuracy: error: $bin_dir/livescan not found: build it first (make build)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench-accuracy: error: python3 not found (apt-get install python3)" >&2; exit 1; }

# --- Peers: install what is missing with scripts/setup.sh; a peer that cannot be installed reads n/a ----------------
if ! bash "$repo_root/scripts/setup.sh" zxing-cpp-tools zbar-tools tesseract-ocr webp; then
    echo "bench-accuracy: could not install every peer (zxing-cpp-tools zbar-tools tesseract-ocr webp):" \
        "the columns of those missing will read n/a"
fi

mkdir -p "$out_dir"

# --- zxing-cpp 3.1 (PyPI wheel) and pillow for score_realdata.py, in a virtualenv of their own -----------------------
if [[ -n "$realdata" ]]; then
    python=${PYTHON:-python3}
    stamp="$venv/.requirements.txt"
    if ! cmp -s "$requirements" "$stamp" || ! "$venv/bin/python" -c "import zxingcpp, PIL" 2>/dev/null; then
        echo "bench-accuracy: installing the real-photo scorer's environment in $venv"
        if ! "$python" -c "import ensurepip, venv" 2>/dev/null; then
            # Debian splits venv/ensurepip out of python3; install it the way scripts/setup.sh installs packages.
            bash "$repo_root/scripts/setup.sh" python3-venv || true
        fi
        rm -rf "$venv"
        if "$python" -m venv "$venv" \
            && "$venv/bin/pip" install --disable-pip-version-check --quiet -r "$requirements"; then
            cp "$requirements" "$stamp"
        else
            echo "bench-accuracy: could not install $requirements: the real photos are skipped"
            realdata=
        fi
    fi
    [[ -n "$realdata" ]] && realdata_options=(--realdata "$realdata" --realdata-python "$venv/bin/python")
fi

exec python3 "$repo_root/Benchmarks/accuracy/accuracy.py" --bin "$bin_dir" --corpus "$corpus" --out "$out_dir" \
    "${realdata_options[@]}" "$@"
