#!/bin/bash
# An archive scan on a Slurm cluster: each task of a job array scans its share of a list of inputs into one folder of
# event logs, with `livescan scan --out` (docs/archives.md). Submit it as:
#
#   find /data/recordings -type f -name '*.mp4' | sort > inputs.txt
#   sbatch --array=0-19 scripts/slurm/livescan-array.sh inputs.txt /data/logs --types qr,text
#
# INPUTS is a file of input paths, one a line (absolute, or relative to the folder sbatch is run from, where each task
# starts); DIR the folder of logs, on storage every node sees; the rest are `livescan scan` options. Task k of n takes
# lines k, k+n, k+2n, ... (a sorted list's long and short files are dealt out evenly, as cards are). The shares do not
# overlap, so no two tasks ever scan one input; the log names come from the inputs' absolute paths, so every node
# names a file's log alike. Resubmit the same command after a failure, a timeout or `scancel`: each task skips the
# inputs whose complete log is in DIR (a different --array size deals the shares differently; the skip rule holds
# all the same). Do not run two submissions over one DIR at once.
#
# Each task runs `--jobs` scans at once: LIVESCAN_JOBS, else the CPUs Slurm gave it (--cpus-per-task), else 1.
# LIVESCAN names the binary (default: livescan on PATH). A task's exit status is livescan's: 1 when any of its inputs
# failed (DIR/failures.jsonl says which), so `sacct` shows the task FAILED.
#
#SBATCH --job-name=livescan
#SBATCH --cpus-per-task=2
#SBATCH --mem-per-cpu=512M
#SBATCH --output=livescan-%A_%a.out
set -euo pipefail

if [ "$#" -lt 2 ]; then
    echo "Usage: sbatch --array=0-N scripts/slurm/livescan-array.sh INPUTS DIR [scan options...]" >&2
    exit 2
fi
inputs=$1
out=$2
shift 2
if [ ! -r "$inputs" ]; then
    echo "Error: $inputs: no such list of inputs" >&2
    exit 2
fi

# Not an array task (run by hand): one task, all the inputs.
task=$(( ${SLURM_ARRAY_TASK_ID:-0} - ${SLURM_ARRAY_TASK_MIN:-0} ))
tasks=${SLURM_ARRAY_TASK_COUNT:-1}
jobs=${LIVESCAN_JOBS:-${SLURM_CPUS_PER_TASK:-1}}

share=()
line=0
while IFS= read -r input || [ -n "$input" ]; do
    if [ -n "$input" ] && [ $(( line % tasks )) -eq "$task" ]; then
        share+=("$input")
    fi
    [ -n "$input" ] && line=$(( line + 1 ))
done < "$inputs"

if [ "${#share[@]}" -eq 0 ]; then
    echo "livescan-array: task $task of $tasks has no inputs ($line in $inputs)" >&2
    exit 0
fi
echo "livescan-array: task $task of $tasks: ${#share[@]} of $line inputs, $jobs at a time" >&2
exec "${LIVESCAN:-livescan}" scan --out "$out" --jobs "$jobs" "$@" -- "${share[@]}"
