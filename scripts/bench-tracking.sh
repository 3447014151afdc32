#!/usr/bin/env bash
# Tracking benchmark: renders the tracking scenes, scans each with livescan, scores the event logs against the
# ground truth (Benchmarks/tracking/score_tracking.py) and prints one summary table.
#
#   scripts/bench-tracking.sh BIN_DIR OUT_DIR        (make bench-tracking: .build/release .build/bench)
#
# BENCH_QUALITY=fast|balanced|accurate scans at that quality level (default balanced).
#
# Unmet targets are reported (PASS/FAIL lines, "targets" column), not fatal: the exit status is 0 unless a tool is
# missing or crashes. Scenes are re-rendered only when livescan-scenes is newer than them; the scorer's virtualenv
# (OUT_DIR/venv, pinned by Benchmarks/tracking/requirements.txt) is installed once, so later runs work offline.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "Usage: $0 BIN_DIR OUT_DIR" >&2
    exit 2
fi
bin_dir=$1
out_dir=$2
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench_src="$repo_root/Benchmarks/tracking"
requirements="$bench_src/requirements.txt"
venv="$out_dir/venv"
scenes=(tracking-barcodes tracking-text tracking-mixed)

# Debian's Tesseract uses OpenMP, which reads this once at load: without it OCR is ~9x slower on 2 cores.
export OMP_THREAD_LIMIT=1

fail() {
    echo "bench-tracking: error: $*" >&2
    exit 1
}

for tool in livescan livescan-scenes; do
    [[ -x "$bin_dir/$tool" ]] || fail "$bin_dir/$tool not found: build it first (make build)"
done
mkdir -p "$out_dir"

# --- The scorer's Python environment -------------------------------------------------------------------------------
python=${PYTHON:-python3}
command -v "$python" >/dev/null || fail "$python not found (apt-get install python3)"
stamp="$venv/.requirements.txt"
if ! cmp -s "$requirements" "$stamp" || ! "$venv/bin/python" -c "import motmetrics" 2>/dev/null; then
    echo "bench-tracking: installing the scorer's environment in $venv"
    if ! "$python" -c "import ensurepip, venv" 2>/dev/null; then
        # Debian splits venv/ensurepip out of python3; install it the way scripts/setup.sh installs packages.
        [[ $(id -u) -eq 0 ]] || fail "python3 has no venv module: apt-get install python3-venv"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
    fi
    rm -rf "$venv"
    "$python" -m venv "$venv" || fail "cannot create a virtualenv in $venv"
    "$venv/bin/pip" install --disable-pip-version-check --quiet -r "$requirements" \
        || fail "pip could not install $requirements"
    cp "$requirements" "$stamp"
fi

# --- Render, scan, score each scene ----------------------------------------------------------------------------------
available=$("$bin_dir/livescan-scenes" list) || fail "livescan-scenes list failed"
scores=()
for scene in "${scenes[@]}"; do
    grep -qw -- "$scene" <<<"$available" || fail "livescan-scenes has no preset '$scene'"
    video="$out_dir/$scene.mp4"
    truth="$out_dir/$scene.truth.json"
    events="$out_dir/$scene.events.jsonl"
    score="$out_dir/$scene.score.json"

    if [[ "$video" -nt "$bin_dir/livescan-scenes" && "$truth" -nt "$bin_dir/livescan-scenes" ]]; then
        echo "bench-tracking: $scene: rendered scene is up to date"
    else
        echo "bench-tracking: $scene: rendering"
        rm -f "$video" "$truth"
        "$bin_dir/livescan-scenes" video "$scene" "$video" --truth "$truth" \
            || fail "livescan-scenes video $scene failed"
    fi

    echo "bench-tracking: $scene: scanning"
    rm -f "$events" "$score"
    start=$(date +%s.%N)
    if ! "$bin_dir/livescan" scan "$video" --quality "${BENCH_QUALITY:-balanced}" --events "$events" \
        >"$out_dir/$scene.scan.log" 2>&1; then
        tail -n 20 "$out_dir/$scene.scan.log" >&2
        fail "livescan scan $video failed (full output: $out_dir/$scene.scan.log)"
    fi
    end=$(date +%s.%N)
    seconds=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')

    echo
    "$venv/bin/python" "$bench_src/score_tracking.py" "$truth" "$events" --name "$scene" \
        --scan-seconds "$seconds" --json "$score" || fail "scoring $scene failed"
    echo
    scores+=("$score")
done

echo "== tracking benchmark summary (quality ${BENCH_QUALITY:-balanced}; IoU >= 0.5; add latency in frames;" \
    "fps = frames / scan wall seconds)"
"$venv/bin/python" "$bench_src/score_tracking.py" --summary "${scores[@]}" | tee "$out_dir/summary.txt"
echo "bench-tracking: event logs, scores (*.score.json) and summary.txt are in $out_dir"
