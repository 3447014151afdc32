#!/usr/bin/env bash
# Installs the Debian 12 packages LiveScan builds, tests and demos with, then builds zxing-cpp 3.1.1 from its
# upstream source (below); with arguments, only the given packages (the fuzz and benchmark scripts use it so).
# Idempotent: asks apt only for what dpkg says is missing, builds zxing-cpp only when its stamp differs;
# sudo only when not root.
set -euo pipefail

default_packages=(
    pkg-config
    libopencv-dev          # cv::VideoCapture, QRCodeDetector, imgproc, freetype (contrib)
    libtesseract-dev libleptonica-dev tesseract-ocr-eng
    cmake g++ python3-pip  # to fetch and build zxing-cpp 3.1.1 (below); Debian's libzxing-dev is 1.4
    libavformat-dev libavcodec-dev libavutil-dev libswscale-dev  # FFmpeg 5.1: video files and streams
    fonts-dejavu-core      # the real font generated scenes render their text lines with
    fonts-wqy-microhei     # ... and their Chinese, Japanese and Korean lines
    # Tesseract's Japanese, Chinese, Korean, Russian and Arabic: a rendered test reads each script (12 MB in all)
    tesseract-ocr-jpn tesseract-ocr-chi-sim tesseract-ocr-kor tesseract-ocr-rus tesseract-ocr-ara
    ffmpeg                 # tests serve live streams on 127.0.0.1 with it
    tmux                   # tests drive the live listing's --preview in it
    libmicrohttpd-dev      # the HTTP server of scan --serve (the live view)
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

run_as_root=()
# as_root WHAT COMMAND...: runs COMMAND as root (through sudo when not root); WHAT names it if that is impossible.
as_root() {
    local what=$1
    shift
    if [[ $(id -u) -ne 0 && ${#run_as_root[@]} -eq 0 ]]; then
        command -v sudo >/dev/null || { echo "Error: not root and no sudo; $what" >&2; exit 1; }
        run_as_root=(sudo)
    fi
    "${run_as_root[@]}" "$@"
}

if [[ ${#missing[@]} -gt 0 ]]; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    as_root "install: ${missing[*]}" apt-get update -qq
    as_root "install: ${missing[*]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[[ $# -eq 0 ]] || exit 0

# ---- OpenCV's include folder, for SwiftPM --------------------------------------------------------------------
# OpenCV is linked module by module (Package.swift): opencv4.pc names all 55, and loading them costs 0.35-0.65 s
# at every start. Its headers' folder comes from a .pc file of LiveScan's own, which carries nothing else: a
# package that depends on LiveScan by URL and version may not use unsafe flags such as -I.
opencv_pc=/usr/local/lib/pkgconfig/livescan-opencv.pc
opencv_pc_text="Name: livescan-opencv
Description: OpenCV 4 headers for LiveScan (its modules are linked one by one, see Package.swift)
Version: $(pkg-config --modversion opencv4)
Cflags: $(pkg-config --cflags-only-I opencv4)"
if [[ "$(cat "$opencv_pc" 2>/dev/null)" != "$opencv_pc_text" ]]; then
    printf '%s\n' "$opencv_pc_text" >"${TMPDIR:-/tmp}/livescan-opencv.pc.$$"
    as_root "install $opencv_pc" install -D -m 644 "${TMPDIR:-/tmp}/livescan-opencv.pc.$$" "$opencv_pc"
    rm -f "${TMPDIR:-/tmp}/livescan-opencv.pc.$$"
fi

# ---- Learned models into models/ (PP-OCRv4's text detector): pinned, checksummed, cached ---------------------
bash "$(dirname "${BASH_SOURCE[0]}")/fetch-models.sh"

# ---- zxing-cpp 3.1.1 (Apache-2.0) -------------------------------------------------------------------------
# Debian 12 packages only 1.4. Built once from the PyPI source distribution, which holds the whole C++ core:
# a static, position-independent libZXing.a with the readers and the legacy MultiFormatWriter (generated test
# scenes; WRITERS=OLD needs no zint), without the C or experimental API, installed into a prefix of its own with
# upstream's LICENSE. LiveScan finds it through `livescan-zxing.pc` only, so it is never confused with a
# libzxing-dev that may still be installed (whose zxing.pc, /usr/include/ZXing and libZXing.so stay as they are).
zxing_version=3.1.1
zxing_sha256=1051a521b21a9fe206702ad4186aeb195154e3e1badcd99576d030723f36382b
zxing_prefix=/usr/local/lib/livescan/zxing-cpp-$zxing_version
zxing_pc=/usr/local/lib/pkgconfig/livescan-zxing.pc  # a directory pkg-config and SwiftPM search by default
zxing_cmake_flags=(-DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DZXING_WRITERS=OLD -DZXING_READERS=ON
    -DZXING_C_API=OFF -DZXING_EXPERIMENTAL_API=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON)
# What was built, and how: another version, source or flag builds again.
zxing_stamp="zxing-cpp $zxing_version sha256 $zxing_sha256 ${zxing_cmake_flags[*]}"
if [[ -f "$zxing_pc" && "$(cat "$zxing_prefix/livescan-build-stamp" 2>/dev/null)" == "$zxing_stamp" ]]; then
    exit 0
fi

echo "setup: building zxing-cpp $zxing_version into $zxing_prefix (about a minute on 2 cores)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
archive="$work/zxing_cpp-$zxing_version.tar.gz"
# By full path: Debian's python3-pip, not whichever python3 comes first in PATH.
/usr/bin/python3 -m pip download --quiet --disable-pip-version-check "zxing-cpp==$zxing_version" \
    --no-binary zxing-cpp --no-deps -d "$work" ||
    { echo "Error: could not download the zxing-cpp $zxing_version source distribution from PyPI" >&2; exit 1; }
actual=$(sha256sum "$archive" | cut -d' ' -f1)
if [[ "$actual" != "$zxing_sha256" ]]; then
    echo "Error: $(basename "$archive") has SHA-256 $actual, expected $zxing_sha256; not building it" >&2
    exit 1
fi
tar -xzf "$archive" -C "$work"
source_dir="$work/zxing_cpp-$zxing_version"
started=$SECONDS
cmake -S "$source_dir/core" -B "$work/build" "${zxing_cmake_flags[@]}" -DCMAKE_INSTALL_PREFIX="$zxing_prefix" \
    -DCMAKE_INSTALL_LIBDIR=lib >"$work/cmake.log" 2>&1 ||
    { tail -n 20 "$work/cmake.log" >&2; echo "Error: configuring zxing-cpp $zxing_version failed" >&2; exit 1; }
cmake --build "$work/build" --parallel "$(nproc)" >"$work/build.log" 2>&1 ||
    { grep -E -A3 'error' "$work/build.log" | head -n 30 >&2; echo "Error: building zxing-cpp failed" >&2; exit 1; }

# -l:libZXing.a names the archive itself: a -L/usr/lib/x86_64-linux-gnu that another package's flags put first
# cannot make the linker take Debian's libZXing.so (1.4) instead.
{
    echo "prefix=$zxing_prefix"
    echo 'libdir=${prefix}/lib'
    echo 'includedir=${prefix}/include'
    echo
    echo 'Name: livescan-zxing'
    echo "Description: zxing-cpp $zxing_version (Apache-2.0), static, built by LiveScan's scripts/setup.sh"
    echo "Version: $zxing_version"
    echo 'Libs: -L${libdir} -l:libZXing.a'
    echo 'Cflags: -I${includedir}'
} >"$work/livescan-zxing.pc"
printf '%s\n' "$zxing_stamp" >"$work/livescan-build-stamp"
installing="install zxing-cpp into $zxing_prefix"
as_root "$installing" rm -rf "$zxing_prefix"
as_root "$installing" cmake --install "$work/build" >"$work/install.log"
as_root "$installing" install -m 644 "$source_dir/LICENSE" "$zxing_prefix/LICENSE"
as_root "install $zxing_pc" install -D -m 644 "$work/livescan-zxing.pc" "$zxing_pc"
# The stamp last: an interrupted install is done again next time.
as_root "$installing" install -m 644 "$work/livescan-build-stamp" "$zxing_prefix/livescan-build-stamp"
echo "setup: zxing-cpp $zxing_version built and installed in $((SECONDS - started)) s"
