#!/usr/bin/env bash
# livescan-array.sh on a real Slurm: a throwaway one-node cluster (munged, slurmctld and slurmd of Debian's
# slurm-wlm, run as root; scripts/slurm/local-cluster.sh) set up and run entirely inside a temporary folder, a 2-task
# array over 3 short rendered videos, then the logs checked: one complete log per input, no partial logs, no
# failures, and each the same as a plain `livescan scan` of its input, ids aside (without_ids, local-cluster.sh).
#
#   scripts/slurm/test-local-slurm.sh BIN_DIR        (make test-slurm: .build/release)
#
# Installs slurm-wlm and munge when missing (scripts/setup.sh), but never reads or writes /etc/slurm, /etc/munge or
# a system service: its daemons have their own key, socket, ports, state and logs, and are stopped, with the
# temporary folder removed, on every exit (Ctrl-C and SIGTERM too). About 30 s on 2 cores, the array 10 s of it.
#
# -E: the ERR trap reports a failure inside local-cluster.sh's functions too.
set -Eeuo pipefail

[[ $# -eq 1 ]] || { echo "Usage: $0 BIN_DIR" >&2; exit 2; }
fail() { echo "Error: $*" >&2; exit 1; }
trap 'echo "Error: line $LINENO: $BASH_COMMAND failed" >&2' ERR
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin_dir=$(cd "$1" 2>/dev/null && pwd) || fail "$1: no such folder"
[[ $(id -u) -eq 0 ]] || fail "run as root: slurmd must be, and this cluster's SlurmUser is root"
for tool in livescan livescan-scenes; do
    [[ -x "$bin_dir/$tool" ]] || fail "$bin_dir/$tool: not built (make build)"
done
started=$SECONDS
# Debian's Tesseract uses OpenMP, which reads this once at load: without it OCR is ~9x slower on 2 cores.
export OMP_THREAD_LIMIT=${OMP_THREAD_LIMIT:-1}
# The array script's jobs per task must come from --cpus-per-task, as on a cluster.
unset LIVESCAN_JOBS

source "$repo_root/scripts/slurm/local-cluster.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/livescan-slurm.XXXXXX")
mkdir -p "$work/videos" "$work/plain" "$work/job"
sbatch_pid=

# Cancels what the cluster still runs, stops the daemons (TERM, then KILL after 10 s) and removes the folder.
cleanup() {
    local status=$?
    trap - EXIT INT TERM ERR
    [[ -z "$sbatch_pid" ]] || kill -TERM "$sbatch_pid" 2>/dev/null || true
    local_cluster_stop
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'echo "Error: interrupted" >&2; exit 130' INT
trap 'echo "Error: terminated" >&2; exit 143' TERM

# ---- The cluster: munged, slurmctld and slurmd, one node, this machine (local-cluster.sh) -------------------
local_cluster_start "$work"
node=$local_cluster_node
cpus=$local_cluster_cpus
version=$(sinfo -V)

# ---- 3 videos, 2 s each, one with a space in its name --------------------------------------------------------
inputs=("$work/videos/demo.mp4" "$work/videos/shelf labels.mp4" "$work/videos/mixed.mp4")
presets=(demo handheld-labels tracking-mixed)
for i in "${!inputs[@]}"; do
    "$bin_dir/livescan-scenes" video "${presets[$i]}" "${inputs[$i]}" --frames 60 >"$work/render.log" 2>&1 ||
        { tail -n 5 "$work/render.log" >&2; fail "livescan-scenes could not render ${presets[$i]}"; }
done
printf '%s\n' "${inputs[@]}" >"$work/inputs.txt"

# ---- The array: task 0 scans inputs 0 and 2, task 1 input 1 --------------------------------------------------
out=$work/logs
export LIVESCAN=$bin_dir/livescan  # sbatch passes the environment on to the tasks (--export=ALL)
array_started=$SECONDS
# From the job folder, where the script's --output=livescan-%A_%a.out puts the tasks' output; in the background,
# so that a signal runs the trap at once rather than when sbatch returns.
(cd "$work/job" && exec timeout 150 sbatch --parsable --wait --array=0-1 --cpus-per-task=1 \
    "$repo_root/scripts/slurm/livescan-array.sh" "$work/inputs.txt" "$out") >"$work/sbatch.out" 2>"$work/sbatch.err" &
sbatch_pid=$!
sbatch_status=0
wait "$sbatch_pid" || sbatch_status=$?
sbatch_pid=
array_seconds=$((SECONDS - array_started))
job=$(cut -d';' -f1 "$work/sbatch.out")
task_output() {
    local file
    for file in "$work"/job/*.out; do echo "---- $(basename "$file")"; cat "$file"; done >&2
}
if [[ $sbatch_status -ne 0 ]]; then
    cat "$work/sbatch.err" >&2
    task_output
    local_cluster_show_logs
    [[ $sbatch_status -eq 124 ]] && fail "the array (job ${job:-?}) did not end within 150 s"
    fail "sbatch --wait exited with $sbatch_status (job ${job:-?}): a task failed"
fi

# ---- The checks ---------------------------------------------------------------------------------------------
for task in 0 1; do
    share=$((task == 0 ? 2 : 1))
    grep -q "task $task of 2: $share of 3 inputs, 1 at a time" "$work/job/livescan-${job}_$task.out" 2>/dev/null ||
        { task_output; fail "task $task of job $job did not say it scanned $share of 3 inputs, 1 at a time"; }
done
[[ ! -e "$out/failures.jsonl" ]] || { cat "$out/failures.jsonl" >&2; fail "$out/failures.jsonl exists"; }
partials=$(find "$out" -name '*.partial')
[[ -z "$partials" ]] || fail "partial logs remain: $partials"
logs=("$out"/*.jsonl)
[[ ${#logs[@]} -eq ${#inputs[@]} ]] || fail "${#logs[@]} logs in $out for ${#inputs[@]} inputs: ${logs[*]}"

for i in "${!inputs[@]}"; do
    input=${inputs[$i]}
    # A log's start line names its input by the absolute path --out gives its scan; the plain scan is given the same
    # path, so `source` needs no normalising.
    mapfile -t matching < <(grep -l -F "\"source\":\"$input\"," "${logs[@]}" || true)
    [[ ${#matching[@]} -eq 1 ]] || fail "$input has ${#matching[@]} logs in $out, not 1"
    log=${matching[0]}
    tail -n 1 "$log" | grep -q '^{"event":"end"' || fail "$log does not end with an end line"
    plain=$work/plain/$i.jsonl
    "$bin_dir/livescan" scan -q --events "$plain" "$input" || fail "livescan scan $input exited with $?"
    if ! diff <(without_ids "$log") <(without_ids "$plain") >"$work/diff.txt"; then
        head -n 10 "$work/diff.txt" >&2
        fail "$(basename "$log") differs from a plain scan of $input, ids aside"
    fi
done

echo "PASS: $version, one node ($node, $cpus CPUs): job $job, 2 array tasks, scanned 3 videos in ${array_seconds} s;" \
    "each log complete and a plain scan's, ids aside (whole test $((SECONDS - started)) s)"
