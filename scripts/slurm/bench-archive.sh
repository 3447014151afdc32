#!/usr/bin/env bash
# An archive scan of 20 one-minute 720p videos (1800 frames at 30 fps, rendered by livescan-scenes from the presets
# that hold both barcodes and text), three ways, one after another, each into a fresh folder of logs:
#
#   jobs 1   livescan scan --out LOGS --jobs 1 VIDEOS/
#   jobs 2   livescan scan --out LOGS --jobs 2 VIDEOS/
#   Slurm    sbatch --wait --array=0-1 --cpus-per-task=1 scripts/slurm/livescan-array.sh inputs.txt LOGS, on a
#            throwaway one-node Slurm (local-cluster.sh): 2 tasks of 1 CPU, so 2 scans at once, as with --jobs 2
#
# For each: wall seconds, files a minute, the CPU seconds of the scans (not for Slurm: the test cluster keeps no
# accounting, and its tasks are not this script's children) and the load average before and after, since the
# machine may be shared. Then the checks: every run left 20 complete logs (each ends with its `end` line), no
# partial log and no failures.jsonl, and the three runs' logs are the same, ids aside. A Markdown table on stdout
# and in OUT_DIR/archive-bench.txt; exit status 1 when a check failed.
#
#   scripts/slurm/bench-archive.sh BIN_DIR OUT_DIR     (make bench-archive: .build/release .build/bench/archive)
#
# The videos are kept in OUT_DIR/videos and rendered only when missing, 2 at once; the runs' logs go to
# OUT_DIR/logs-jobs1, logs-jobs2 and logs-slurm, their progress lines to OUT_DIR/*.stderr. Run as root (slurmd must
# be, as in test-local-slurm.sh). On a shared 2-core machine: 16 min of rendering, then 41 min of runs.
#
# -E: the ERR trap reports a failure inside local-cluster.sh's functions too.
set -Eeuo pipefail

[[ $# -eq 2 ]] || { echo "Usage: $0 BIN_DIR OUT_DIR" >&2; exit 2; }
fail() { echo "Error: $*" >&2; exit 1; }
trap 'echo "Error: line $LINENO: $BASH_COMMAND failed" >&2' ERR
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin_dir=$(cd "$1" 2>/dev/null && pwd) || fail "$1: no such folder"
mkdir -p "$2"
out_dir=$(cd "$2" && pwd)
[[ $(id -u) -eq 0 ]] || fail "run as root: slurmd must be, and the local cluster's SlurmUser is root"
for tool in livescan livescan-scenes; do
    [[ -x "$bin_dir/$tool" ]] || fail "$bin_dir/$tool: not built (make build)"
done
# Debian's Tesseract uses OpenMP, which reads this once at load: without it OCR is ~9x slower on 2 cores.
export OMP_THREAD_LIMIT=${OMP_THREAD_LIMIT:-1}
# The array script's jobs per task must come from --cpus-per-task, as on a cluster.
unset LIVESCAN_JOBS

source "$repo_root/scripts/slurm/local-cluster.sh"
# Now rather than after the two plain runs: a missing package fails in seconds, not in half an hour.
bash "$repo_root/scripts/setup.sh" slurm-wlm munge || fail "could not install slurm-wlm and munge"

videos=$out_dir/videos
count=20
frames=1800
presets=(demo handheld-labels tracking-mixed)
# The cluster's folder is a short one of its own: munged's socket path must fit in 108 bytes.
work=$(mktemp -d "${TMPDIR:-/tmp}/livescan-bench-archive.XXXXXX")
running_pid=  # the scan or sbatch being waited for
renders=()    # "pid video" of the renders running, oldest first

# Stops what runs (a scan removes its partial logs on SIGTERM), the cluster and its folder.
cleanup() {
    local status=$?
    trap - EXIT INT TERM ERR
    for pid in $running_pid "${renders[@]%% *}"; do
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    local_cluster_stop
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'echo "Error: interrupted" >&2; exit 130' INT
trap 'echo "Error: terminated" >&2; exit 143' TERM

# ---- The videos: 20 x 1 min, the presets in turn, rendered when missing, 2 at once -------------------------
mkdir -p "$videos"
inputs=()
# Each is rendered under a hidden name, which a folder scan skips, and renamed when whole.
partial_of() { echo "$(dirname "$1")/.$(basename "$1" .mp4).partial.mp4"; }
finish_oldest_render() {
    local pid video partial
    read -r pid video <<<"${renders[0]}"
    renders=("${renders[@]:1}")
    partial=$(partial_of "$video")
    wait "$pid" || { tail -n 5 "$partial.log" >&2; fail "livescan-scenes could not render $partial"; }
    mv "$partial" "$video"
    rm -f "$partial.log"
}
for ((i = 0; i < count; i++)); do
    preset=${presets[$((i % ${#presets[@]}))]}
    video=$videos/$(printf '%02d' $((i + 1)))-$preset.mp4
    inputs+=("$video")
    [[ -s "$video" ]] && continue
    [[ ${#renders[@]} -lt 2 ]] || finish_oldest_render
    echo "rendering $video ($preset, $frames frames)" >&2
    partial=$(partial_of "$video")
    "$bin_dir/livescan-scenes" video "$preset" "$partial" --frames "$frames" >"$partial.log" 2>&1 &
    renders+=("$! $video")
done
while [[ ${#renders[@]} -gt 0 ]]; do finish_oldest_render; done
extra=$(find "$videos" -mindepth 1 -not -name '.*' -not -name '[0-9][0-9]-*.mp4')
[[ -z "$extra" ]] || fail "$videos holds more than the benchmark's videos, which a scan of it would read: $extra"
printf '%s\n' "${inputs[@]}" >"$out_dir/inputs.txt"

# ---- The runs ------------------------------------------------------------------------------------------------
names=() walls=() cpu_seconds=() loads_before=() loads_after=()
load() { local one five fifteen rest; read -r one five fifteen rest </proc/loadavg; echo "$one $five $fifteen"; }
# CPU seconds, user + system, of the children this shell has waited for, from `times` written to file $1 (here,
# not in a $(...) subshell, whose counts start at zero).
children_cpu_seconds() {
    awk 'function seconds(t) { split(t, part, /[ms]/); return part[1] * 60 + part[2] }
         NR == 2 { printf "%.1f", seconds($1) + seconds($2) }' "$1"
}
# run NAME LOGS COMMAND...: COMMAND in the background (a signal stops it at once), timed, into a fresh LOGS.
run() {
    local name=$1 logs=$2 started ended status=0
    shift 2
    rm -rf "$logs"
    loads_before+=("$(load)")
    echo "$name: $* (load ${loads_before[-1]})" >&2
    times >"$work/times.before"
    started=$EPOCHREALTIME
    "$@" >"$out_dir/$name.stderr" 2>&1 &
    running_pid=$!
    wait "$running_pid" || status=$?
    ended=$EPOCHREALTIME
    times >"$work/times.after"
    running_pid=
    loads_after+=("$(load)")
    walls+=("$(awk -v from="$started" -v to="$ended" 'BEGIN { printf "%.1f", to - from }')")
    cpu_seconds+=("$(awk -v before="$(children_cpu_seconds "$work/times.before")" \
        -v after="$(children_cpu_seconds "$work/times.after")" 'BEGIN { printf "%.1f", after - before }')")
    names+=("$name")
    echo "$name: ${walls[-1]} s, exit status $status (load ${loads_after[-1]})" >&2
    if [[ $status -ne 0 ]]; then
        tail -n 20 "$out_dir/$name.stderr" >&2
        return 1
    fi
}

run jobs1 "$out_dir/logs-jobs1" "$bin_dir/livescan" scan --out "$out_dir/logs-jobs1" --jobs 1 "$videos/" ||
    fail "livescan scan --jobs 1 failed (see $out_dir/jobs1.stderr)"
run jobs2 "$out_dir/logs-jobs2" "$bin_dir/livescan" scan --out "$out_dir/logs-jobs2" --jobs 2 "$videos/" ||
    fail "livescan scan --jobs 2 failed (see $out_dir/jobs2.stderr)"

local_cluster_start "$work"
export LIVESCAN=$bin_dir/livescan  # sbatch passes the environment on to the tasks (--export=ALL)
rm -rf "$out_dir/slurm-job"
mkdir -p "$out_dir/slurm-job"
# From the job folder, where the script's --output=livescan-%A_%a.out puts the tasks' output. Finished jobs are
# forgotten after 5 s (MinJobAge), so sbatch --wait sees the end within 2 s of it.
run slurm "$out_dir/logs-slurm" bash -c 'cd "$1" && shift && exec timeout 3600 "$@"' bash "$out_dir/slurm-job" \
    sbatch --parsable --wait --array=0-1 --cpus-per-task=1 \
    "$repo_root/scripts/slurm/livescan-array.sh" "$out_dir/inputs.txt" "$out_dir/logs-slurm" || {
    for file in "$out_dir"/slurm-job/*.out; do echo "---- $(basename "$file")"; cat "$file"; done >&2
    local_cluster_show_logs
    fail "the Slurm array failed or did not end within 3600 s (see $out_dir/slurm.stderr)"
}
slurm_version=$(sinfo -V)
local_cluster_stop
cpu_seconds[2]="n/a"

# ---- The checks ------------------------------------------------------------------------------------------------
problems=()
share="$((count / 2)) of $count inputs, 1 at a time"
for task in 0 1; do
    grep -q "task $task of 2: $share" "$out_dir"/slurm-job/livescan-*_"$task".out ||
        problems+=("Slurm task $task did not say it scanned $share")
done
verdicts=()
for name in "${names[@]}"; do
    logs=$out_dir/logs-$name
    complete=0
    for log in "$logs"/*.jsonl; do
        [[ "$log" == */failures.jsonl ]] && continue
        tail -n 1 "$log" | grep -q '^{"event":"end"' && complete=$((complete + 1))
    done
    verdict="$complete of $count complete"
    [[ $complete -eq $count ]] || problems+=("$name: $complete of $count logs complete")
    [[ ! -e "$logs/failures.jsonl" ]] || problems+=("$name: $logs/failures.jsonl exists")
    [[ -z "$(find "$logs" -name '*.partial')" ]] || problems+=("$name: partial logs remain in $logs")
    if [[ $name != jobs1 ]]; then
        differing=0
        for log in "$out_dir"/logs-jobs1/*.jsonl; do
            other=$logs/$(basename "$log")
            cmp -s <(without_ids "$log") <(without_ids "$other" 2>/dev/null) || differing=$((differing + 1))
        done
        if [[ $differing -eq 0 ]]; then
            verdict+=", same as jobs 1"
        else
            verdict+=", $differing differ from jobs 1"
            problems+=("$name: $differing logs differ from jobs 1's, ids aside")
        fi
    fi
    verdicts+=("$verdict")
done

# ---- The table -------------------------------------------------------------------------------------------------
labels=("\`--jobs 1\`" "\`--jobs 2\`" "Slurm, 2 tasks x 1 CPU")
seconds_of_video=$((count * frames / 30))
{
    echo "livescan archive scan: $count x $((frames / 30)) s 720p videos ($((seconds_of_video / 60)) min;" \
        "presets ${presets[*]} in turn), default options (barcodes and text, balanced)"
    echo "$("$bin_dir/livescan" --version), $slurm_version, $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)" \
        "CPUs ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "| run | wall (s) | CPU (s) | files/min | load before | load after | logs (ids aside) |"
    echo "|---|---|---|---|---|---|---|"
    for i in "${!names[@]}"; do
        files_a_minute=$(awk -v wall="${walls[$i]}" -v n="$count" 'BEGIN { printf "%.2f", n * 60 / wall }')
        echo "| ${labels[$i]} | ${walls[$i]} | ${cpu_seconds[$i]} | $files_a_minute | ${loads_before[$i]} |" \
            "${loads_after[$i]} | ${verdicts[$i]} |"
    done
    echo
    echo "Load: the 1, 5 and 15 min load averages (/proc/loadavg) just before and just after each run."
    for problem in "${problems[@]}"; do echo "FAILED: $problem"; done
} | tee "$out_dir/archive-bench.txt"
[[ ${#problems[@]} -eq 0 ]] || exit 1
