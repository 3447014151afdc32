#!/usr/bin/env bash
# livescan-array.sh on a real Slurm: a throwaway one-node cluster (munged, slurmctld and slurmd of Debian's
# slurm-wlm, run as root) set up and run entirely inside a temporary folder, a 2-task array over 3 short rendered
# videos, then the logs checked: one complete log per input, no partial logs, no failures, and each the same as a
# plain `livescan scan` of its input, ids aside.
#
#   scripts/slurm/test-local-slurm.sh BIN_DIR        (make test-slurm: .build/release)
#
# Installs slurm-wlm and munge when missing (scripts/setup.sh), but never reads or writes /etc/slurm, /etc/munge or
# a system service: its daemons have their own key, socket, ports, state and logs, and are stopped, with the
# temporary folder removed, on every exit (Ctrl-C and SIGTERM too). About 30 s on 2 cores, the array 10 s of it.
set -euo pipefail

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

bash "$repo_root/scripts/setup.sh" slurm-wlm munge || fail "could not install slurm-wlm and munge"

work=$(mktemp -d "${TMPDIR:-/tmp}/livescan-slurm.XXXXXX")
mkdir -p "$work/log" "$work/state" "$work/spool" "$work/videos" "$work/plain" "$work/job"
daemons=()  # pids, in the order started
sbatch_pid=
submitted=

# Cancels what the cluster still runs, stops the daemons (TERM, then KILL after 10 s) and removes the folder.
cleanup() {
    local status=$? pid
    trap - EXIT INT TERM ERR
    [[ -z "$sbatch_pid" ]] || kill -TERM "$sbatch_pid" 2>/dev/null || true
    if [[ -n "$submitted" ]]; then
        # Every job of this throwaway cluster is ours; a killed sbatch may not have written its job id.
        scancel --partition=test 2>/dev/null || true
        for _ in {1..40}; do squeue -h 2>/dev/null | grep -q . || break; sleep 0.5; done
    fi
    for pid in "${daemons[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${daemons[@]}"; do
        for _ in {1..50}; do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'echo "Error: interrupted" >&2; exit 130' INT
trap 'echo "Error: terminated" >&2; exit 143' TERM

# The last lines of every daemon's log, before an error about the cluster. slurmctld and slurmd copy their log to
# stdout, which is shown only when the log is empty (an error before it was opened); munged --foreground logs there.
show_logs() {
    local file
    for file in "$work"/log/*; do
        if [[ -s "$file" && ! ( "$file" == *.stdout && -s "${file%.stdout}.log" ) ]]; then
            echo "---- $(basename "$file") (last 15 lines)"
            tail -n 15 "$file"
        fi
    done >&2
}
# Ports of our own, not Slurm's 6817 and 6818 that a system slurmctld or slurmd may hold: the first from $1 up that
# nothing listens on (another run of this test, say) and that is not $2.
free_port() {
    local port
    for ((port = $1; port < $1 + 100; port++)); do
        [[ "$port" != "${2:-}" ]] && ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && { echo "$port"; return; }
    done
    fail "no free port in $1-$(($1 + 99))"
}

# ---- munge: a key, socket and daemon of its own ------------------------------------------------------------
socket=$work/munge.socket
# munged refuses a socket in a folder that not everyone may pass through (mktemp -d makes it 0700).
chmod 0711 "$work"
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 0400 "$work/munge.key"  # munged refuses a key that others may read
munged --foreground --socket="$socket" --key-file="$work/munge.key" --pid-file="$work/munged.pid" \
    --log-file="$work/log/munged.log" --seed-file="$work/munged.seed" >"$work/log/munged.stdout" 2>&1 &
daemons+=($!)
munge_answers() { munge -n --socket="$socket" 2>/dev/null | unmunge --socket="$socket" >/dev/null 2>&1; }
for _ in {1..50}; do
    munge_answers || ! kill -0 "${daemons[0]}" 2>/dev/null && break
    sleep 0.2
done
munge_answers || { show_logs; fail "munged did not answer on $socket within 10 s"; }

# ---- Slurm: one node, this machine ---------------------------------------------------------------------------
node=$(hostname -s)
# GNU nproc counts OMP_NUM_THREADS and OMP_THREAD_LIMIT (set to 1 above, and by make) as a limit on the CPUs.
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
memory=$(free -m | awk '/^Mem:/ { print $2 }')  # what slurmd -C finds; more would leave the node INVALID
controller_port=$(free_port 46817)
node_port=$(free_port 46818 "$controller_port")
export SLURM_CONF=$work/slurm.conf  # slurmctld, slurmd and every client (sinfo, sbatch, squeue, scancel) read it
cat >"$SLURM_CONF" <<EOF
ClusterName=livescan-test
# By name (slurmctld checks it runs on SlurmctldHost), reached over loopback whatever the name resolves to.
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$controller_port
SlurmdPort=$node_port
# The daemons run as root here; no slurm user need own the state folder.
SlurmUser=root
# Our munged, not the system's /run/munge socket.
AuthType=auth/munge
AuthInfo=socket=$socket
# Everything the daemons keep or write, in the temporary folder.
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
# No cgroups: a container or CI runner seldom lets us create them; tasks are tracked by their parent pids.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
# CPUs are the resource, so the two 1-CPU tasks run side by side on 2 cores; memory is not counted (the array
# script asks 512M a CPU).
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# The node is DOWN until slurmd first registers; this lets it come up by itself.
ReturnToService=2
# The tasks are plain processes, not MPI ranks (slurmd still logs that it cannot load PMIx: harmless).
MpiDefault=none
# No slurmdbd: no accounting, no sacct.
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
# Finished jobs are forgotten after 5 s, which keeps sbatch --wait polling every 2 s; at the default (300) it waits 2,
# 8, then 32 s between polls (a 1 s job returned after 10 s, not 4).
MinJobAge=5
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
# -D: in the foreground, so that their pids are ours to stop; their own logs go to SlurmctldLogFile/SlurmdLogFile.
slurmctld -D -f "$SLURM_CONF" >"$work/log/slurmctld.stdout" 2>&1 &
daemons+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >"$work/log/slurmd.stdout" 2>&1 &
daemons+=($!)
for _ in {1..60}; do
    state=$(sinfo -h -N -n "$node" -o %t 2>/dev/null || true)
    [[ "$state" == idle ]] && break
    sleep 0.5
done
[[ "$state" == idle ]] || { show_logs; fail "node $node is '${state:-not listed}', not idle, after 30 s"; }
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
submitted=1
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
    show_logs
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

# Each "id":"<uuid>" as "id":N, N counting the ids in order of first appearance; everything else as it is.
without_ids() {
    awk '{
        rest = $0; line = ""
        while (match(rest, /"id":"[^"]*"/)) {
            id = substr(rest, RSTART, RLENGTH)
            if (!(id in number)) number[id] = ++count
            line = line substr(rest, 1, RSTART - 1) "\"id\":" number[id]
            rest = substr(rest, RSTART + RLENGTH)
        }
        print line rest
    }' "$1"
}
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
