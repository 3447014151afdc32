#!/usr/bin/env bash
# Installs the Debian 12 packages LiveScan builds, tests and demos with, or with arguments the given
# packages (the fuzz and benchmark scripts use it so).
# Idempotent: asks apt only for what dpkg says is missing; sudo only when not root.
set -euo pipefail

default_packages=(
    pkg-config
    libopencv-dev          # cv::VideoCapture, QRCodeDetector, imgproc, freetype (contrib)
    libtesseract-dev libleptonica-dev tesseract-ocr-eng
    libzxing-dev           # zxing-cpp 1.4: decoding and, for generated test scenes, encoding
    libavformat-dev libavcodec-dev libavutil-dev libswscale-dev  # FFmpeg 5.1: video files and streams
    fonts-dejavu-core      # the real font generated scenes render their text lines with
    ffmpeg                 # tests serve live streams on 127.0.0.1 with it
)
if [[ $# -gt 0 ]]; then
    packages=("$@")
else
    packages=("${default_packages[@]}")
fi

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

echo "setup: installing ${missing[*]}"
run_as_root=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "Error: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
    run_as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${run_as_root[@]}" apt-get update -qq
"${run_as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
