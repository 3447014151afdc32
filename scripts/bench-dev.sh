#!/usr/bin/env bash
# Dev-scene benchmark: scans every ../shared/dev-scenes video at each quality level (fast, balanced, accurate), the
# BoofCV hand-held videos of ../shared/corpus/boofcv-fiducial-video (qrcode, microqr, aztec) at balanced, and ICDAR
# 2015's dev photos of ../shared/realdata as a drifting video and as stills (Benchmarks/dev/scene_text_video.py; the
# video is built with ffmpeg once, under OUT_DIR), scores them with ../shared/tools/score_scene.py, the videos' silver
# labels (Benchmarks/dev/silver.py) and score_realdata.py's word rules, and prints one report of PASS/FAIL per target
# and the scan fps (Benchmarks/dev/bench_dev.py; targets in Benchmarks/dev/report.py). About 7 minutes on 2 cores.
#
#   scripts/bench-dev.sh BIN_DIR OUT_DIR [bench_dev.py options]   (make bench-dev: .build/release .build/bench/dev)
#
# The shared folder is $LIVESCAN_SHARED, else ../shared next to the repository; when it is absent the benchmark is
# skipped (exit 0). Unmet targets are reported, not fatal: the exit status is 0 unless a tool is missing or a scan or
# scorer fails. The scorer's virtualenv (OUT_DIR/venv, pinned by Benchmarks/dev/requirements.txt) is installed once,
# so later runs work offline.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "Usage: $0 BIN_DIR OUT_DIR [bench_dev.py options]" >&2
    exit 2
fi
bin_dir=$1
out_dir=$2
shift 2
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench_src="$repo_root/Benchmarks/dev"
requirements="$bench_src/requirements.txt"
venv="$out_dir/venv"
shared=${LIVESCAN_SHARED:-$repo_root/../shared}

# Debian's Tesseract uses OpenMP, which reads this once at load: without it OCR is ~9x slower on 2 cores.
export OMP_THREAD_LIMIT=1

fail() {
    echo "bench-dev: error: $*" >&2
    exit 1
}

if [[ ! -d "$shared/dev-scenes" ]]; then
    echo "bench-dev: dev scenes not found at $shared/dev-scenes; skipped"
    exit 0
fi
shared=$(cd "$shared" && pwd)
[[ -f "$shared/tools/score_scene.py" ]] || fail "$shared/tools/score_scene.py not found"
[[ -x "$bin_dir/livescan" ]] || fail "$bin_dir/livescan not found: build it first (make build)"
mkdir -p "$out_dir"

# --- The scorer's Python environment (as scripts/bench-tracking.sh's, with rapidfuzz) --------------------------------
python=${PYTHON:-python3}
command -v "$python" >/dev/null || fail "$python not found (apt-get install python3)"
stamp="$venv/.requirements.txt"
if ! cmp -s "$requirements" "$stamp" \
    || ! "$venv/bin/python" -c "import motmetrics, numpy, rapidfuzz" 2>/dev/null; then
    echo "bench-dev: installing the scorer's environment in $venv"
    if ! "$python" -c "import ensurepip, venv" 2>/dev/null; then
        # Debian splits venv/ensurepip out of python3; install it the way scripts/setup.sh installs packages.
        bash "$repo_root/scripts/setup.sh" python3-venv \
            || fail "python3 has no venv module: apt-get install python3-venv"
    fi
    rm -rf "$venv"
    "$python" -m venv "$venv" || fail "cannot create a virtualenv in $venv"
    "$venv/bin/pip" install --disable-pip-version-check --quiet -r "$requirements" \
        || fail "pip could not install $requirements"
    cp "$requirements" "$stamp"
fi

exec "$venv/bin/python" -u "$bench_src/bench_dev.py" --bin "$bin_dir" --shared "$shared" --out "$out_dir" "$@"
