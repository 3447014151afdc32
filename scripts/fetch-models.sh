#!/usr/bin/env bash
# Fetches the learned models LiveScan loads into models/ (run by scripts/setup.sh; see models/README.md).
# Idempotent: a model whose file already has its pinned SHA-256 is left alone. Downloads are cached in
# ${XDG_CACHE_HOME:-~/.cache}/livescan, so a second clone or a deleted models/ costs no download.
set -euo pipefail

repository=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
models="$repository/models"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/livescan"

# ---- PP-OCRv4's DB text detector and SVTR line recogniser (Apache-2.0), from the PyPI wheel rapidocr-onnxruntime ----
# The wheel is the pinned artefact; each model inside it is checked too, then rewritten for OpenCV 4.6's dnn
# (scripts/ppocr-for-opencv.py, Debian's python3-onnx), and each result is checked against its own pin: the
# rewrite is deterministic (the same bytes from onnx 1.12 and 1.20). The recogniser is written once per input
# width it runs at (OpenCV 4.6 fixes its shapes at import), with its character list beside it.
wheel_version=1.4.4
wheel=rapidocr_onnxruntime-$wheel_version-py3-none-any.whl
wheel_sha256=971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf
det_member=rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx
det_member_sha256=d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9
rec_member=rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx
rec_member_sha256=48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b
# Each installed file and its SHA-256.
installed=(
    "ppocr-v4-det-opencv.onnx 400e03d2f19cf9289ca4ea109231cd4854467c238acac685346e265b9a13eca6"
    "ppocr-v4-rec-opencv-320.onnx 6c15cf1175d1c8cf1424bd8e04269fc542532b3f95b50584616f691ad4a13fc2"
    "ppocr-v4-rec-opencv-640.onnx ebd9a898ead69a17de9fe3c314c56aadb3d460aa170fe63118fbd3bd2b9b2aeb"
    "ppocr-v4-rec-keys.txt a1c84d9bdb9ab29043c58896224d32941783eb821629618416dcb08f12886492"
)

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

is_installed() {
    local entry
    for entry in "${installed[@]}"; do
        set -- $entry
        [[ -f "$models/$1" && "$(sha256_of "$models/$1")" == "$2" ]] || return 1
    done
}
is_installed && exit 0

mkdir -p "$cache" "$models"
if [[ ! -f "$cache/$wheel" || "$(sha256_of "$cache/$wheel")" != "$wheel_sha256" ]]; then
    echo "setup: downloading $wheel from PyPI (15 MB) into $cache"
    rm -f "$cache/$wheel"
    # By full path: Debian's python3-pip, not whichever python3 comes first in PATH.
    /usr/bin/python3 -m pip download --quiet --disable-pip-version-check "rapidocr-onnxruntime==$wheel_version" \
        --no-deps --only-binary :all: -d "$cache" ||
        { echo "Error: could not download rapidocr-onnxruntime $wheel_version from PyPI" >&2; exit 1; }
fi
actual=$(sha256_of "$cache/$wheel")
if [[ "$actual" != "$wheel_sha256" ]]; then
    echo "Error: $wheel has SHA-256 $actual, expected $wheel_sha256; not using it" >&2
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for member in "$det_member $det_member_sha256" "$rec_member $rec_member_sha256"; do
    set -- $member
    /usr/bin/python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])' \
        "$cache/$wheel" "$1" "$work"
    actual=$(sha256_of "$work/$1")
    if [[ "$actual" != "$2" ]]; then
        echo "Error: $1 in $wheel has SHA-256 $actual, expected $2" >&2
        exit 1
    fi
done
rewrite() {
    /usr/bin/python3 "$repository/scripts/ppocr-for-opencv.py" "$@" >/dev/null ||
        { echo "Error: rewriting a PP-OCR model for OpenCV failed (is python3-onnx installed?)" >&2; exit 1; }
}
rewrite det "$work/$det_member" "$work/ppocr-v4-det-opencv.onnx"
rewrite rec "$work/$rec_member" "$work/ppocr-v4-rec-opencv-320.onnx" 320 "$work/ppocr-v4-rec-keys.txt"
rewrite rec "$work/$rec_member" "$work/ppocr-v4-rec-opencv-640.onnx" 640
for entry in "${installed[@]}"; do
    set -- $entry
    actual=$(sha256_of "$work/$1")
    if [[ "$actual" != "$2" ]]; then
        echo "Error: the rewritten $1 has SHA-256 $actual, expected $2" >&2
        exit 1
    fi
done
for entry in "${installed[@]}"; do
    set -- $entry
    mv "$work/$1" "$models/$1"
done
echo "setup: PP-OCRv4 text detector and line recogniser installed in $models"
