#!/usr/bin/env bash
# Fetches the learned models LiveScan loads into models/ (run by scripts/setup.sh; see models/README.md).
# Idempotent: a model whose file already has its pinned SHA-256 is left alone. Downloads are cached in
# ${XDG_CACHE_HOME:-~/.cache}/livescan, so a second clone or a deleted models/ costs no download.
set -euo pipefail

repository=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
models="$repository/models"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/livescan"

# ---- PP-OCRv4 DB text detector (Apache-2.0), from the PyPI wheel rapidocr-onnxruntime 1.4.4 ------------------
# The wheel is the pinned artefact; the model inside it is checked too, then rewritten for OpenCV 4.6's dnn
# (scripts/ppocr-det-for-opencv.py, Debian's python3-onnx), and the result is checked against its own pin: the
# rewrite is deterministic (the same bytes from onnx 1.12 and 1.20).
wheel_version=1.4.4
wheel=rapidocr_onnxruntime-$wheel_version-py3-none-any.whl
wheel_sha256=971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf
det_member=rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx
det_member_sha256=d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9
det_model="$models/ppocr-v4-det-opencv.onnx"
det_model_sha256=400e03d2f19cf9289ca4ea109231cd4854467c238acac685346e265b9a13eca6

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

if [[ -f "$det_model" && "$(sha256_of "$det_model")" == "$det_model_sha256" ]]; then
    exit 0
fi

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
/usr/bin/python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])' \
    "$cache/$wheel" "$det_member" "$work"
actual=$(sha256_of "$work/$det_member")
if [[ "$actual" != "$det_member_sha256" ]]; then
    echo "Error: $det_member in $wheel has SHA-256 $actual, expected $det_member_sha256" >&2
    exit 1
fi
/usr/bin/python3 "$repository/scripts/ppocr-det-for-opencv.py" "$work/$det_member" "$work/det.onnx" >/dev/null ||
    { echo "Error: rewriting the PP-OCR detector for OpenCV failed (is python3-onnx installed?)" >&2; exit 1; }
actual=$(sha256_of "$work/det.onnx")
if [[ "$actual" != "$det_model_sha256" ]]; then
    echo "Error: the rewritten PP-OCR detector has SHA-256 $actual, expected $det_model_sha256" >&2
    exit 1
fi
mv "$work/det.onnx" "$det_model"
echo "setup: PP-OCRv4 text detector installed as $det_model"
