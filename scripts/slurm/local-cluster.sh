# A throwaway one-node Slurm (munged, slurmctld and slurmd of Debian's slurm-wlm, run as root) set up and run
# entirely inside a folder, for the scripts that run livescan-array.sh on a real Slurm (test-local-slurm.sh,
# bench-archive.sh). Sourced, not run:
#
#   source scripts/slurm/local-cluster.sh
#   trap 'local_cluster_stop; rm -rf "$work"' EXIT
#   local_cluster_start "$work"       # then sbatch, squeue, sinfo... talk to it through SLURM_CONF
#
# local_cluster_start installs slurm-wlm and munge when missing (scripts/setup.sh), but never reads or writes
# /etc/slurm, /etc/munge or a system service: its daemons have their own key, socket, ports, state and logs in the
# folder. Call it as a plain command in a `set -e` script (not in a subshell, whose daemons the script could not
# stop, nor in an `if` or `||`): on a failure it prints `Error: ...` and exits the script, whose EXIT trap must call
# local_cluster_stop, which stops whatever was started.

local_cluster_repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
local_cluster_work=        # the folder given to local_cluster_start
local_cluster_daemons=()   # pids, in the order started
local_cluster_up=          # set once the node is idle: slurmctld answers clients
local_cluster_node=        # the node's name: this machine's short host name
local_cluster_cpus=        # the node's CPUs

local_cluster_fail() {
    echo "Error: $*" >&2
    exit 1
}

# The last lines of every daemon's log, before an error about the cluster. slurmctld and slurmd copy their log to
# stdout, which is shown only when the log is empty (an error before it was opened); munged --foreground logs there.
local_cluster_show_logs() {
    local file
    for file in "$local_cluster_work"/log/*; do
        if [[ -s "$file" && ! ( "$file" == *.stdout && -s "${file%.stdout}.log" ) ]]; then
            echo "---- $(basename "$file") (last 15 lines)"
            tail -n 15 "$file"
        fi
    done >&2
}

# Ports of our own, not Slurm's 6817 and 6818 that a system slurmctld or slurmd may hold: the first from $1 up that
# nothing listens on (another run of this cluster, say) and that is not $2.
local_cluster_free_port() {
    local port
    for ((port = $1; port < $1 + 100; port++)); do
        [[ "$port" != "${2:-}" ]] && ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && { echo "$port"; return; }
    done
    local_cluster_fail "no free port in $1-$(($1 + 99))"
}

# Whether the munged on socket $1 answers: a credential made and read back.
local_cluster_munge_answers() {
    munge -n --socket="$1" 2>/dev/null | unmunge --socket="$1" >/dev/null 2>&1
}

# local_cluster_start WORK_DIR: installs slurm-wlm and munge when missing, starts munged, slurmctld and slurmd with
# everything they keep in WORK_DIR (an existing folder, made 0711), waits until the node is idle, and exports
# SLURM_CONF, which every client (sinfo, sbatch, squeue, scancel) reads. One partition, `test`, the default.
local_cluster_start() {
    local work socket controller_port node_port memory state
    work=$(cd "$1" 2>/dev/null && pwd) || local_cluster_fail "$1: no such folder"
    local_cluster_work=$work
    bash "$local_cluster_repo_root/scripts/setup.sh" slurm-wlm munge ||
        local_cluster_fail "could not install slurm-wlm and munge"
    mkdir -p "$work/log" "$work/state" "$work/spool"

    # ---- munge: a key, socket and daemon of its own --------------------------------------------------------
    socket=$work/munge.socket
    # munged refuses a socket in a folder that not everyone may pass through (mktemp -d makes it 0700).
    chmod 0711 "$work"
    dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
    chmod 0400 "$work/munge.key"  # munged refuses a key that others may read
    munged --foreground --socket="$socket" --key-file="$work/munge.key" --pid-file="$work/munged.pid" \
        --log-file="$work/log/munged.log" --seed-file="$work/munged.seed" >"$work/log/munged.stdout" 2>&1 &
    local_cluster_daemons+=($!)
    for _ in {1..50}; do
        local_cluster_munge_answers "$socket" || ! kill -0 "${local_cluster_daemons[0]}" 2>/dev/null && break
        sleep 0.2
    done
    local_cluster_munge_answers "$socket" ||
        { local_cluster_show_logs; local_cluster_fail "munged did not answer on $socket within 10 s"; }

    # ---- Slurm: one node, this machine -----------------------------------------------------------------------
    local_cluster_node=$(hostname -s)
    # GNU nproc counts OMP_NUM_THREADS and OMP_THREAD_LIMIT (which the scripts and make set to 1) as a limit on the
    # CPUs.
    local_cluster_cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
    memory=$(free -m | awk '/^Mem:/ { print $2 }')  # what slurmd -C finds; more would leave the node INVALID
    controller_port=$(local_cluster_free_port 46817)
    node_port=$(local_cluster_free_port 46818 "$controller_port")
    export SLURM_CONF=$work/slurm.conf  # slurmctld, slurmd and every client (sinfo, sbatch, squeue, scancel) read it
    cat >"$SLURM_CONF" <<EOF
ClusterName=livescan-test
# By name (slurmctld checks it runs on SlurmctldHost), reached over loopback whatever the name resolves to.
SlurmctldHost=$local_cluster_node(127.0.0.1)
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
NodeName=$local_cluster_node NodeAddr=127.0.0.1 CPUs=$local_cluster_cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$local_cluster_node Default=YES MaxTime=INFINITE State=UP
EOF
    # -D: in the foreground, so that their pids are ours to stop; their own logs go to SlurmctldLogFile/SlurmdLogFile.
    slurmctld -D -f "$SLURM_CONF" >"$work/log/slurmctld.stdout" 2>&1 &
    local_cluster_daemons+=($!)
    slurmd -D -f "$SLURM_CONF" -N "$local_cluster_node" >"$work/log/slurmd.stdout" 2>&1 &
    local_cluster_daemons+=($!)
    for _ in {1..60}; do
        state=$(sinfo -h -N -n "$local_cluster_node" -o %t 2>/dev/null || true)
        [[ "$state" == idle ]] && break
        sleep 0.5
    done
    [[ "$state" == idle ]] || {
        local_cluster_show_logs
        local_cluster_fail "node $local_cluster_node is '${state:-not listed}', not idle, after 30 s"
    }
    local_cluster_up=1
}

# The pids of this cluster's running slurmstepd, one a job step, which slurmd forks away (their parent is init, not
# this shell, so they are not ours to wait for): the processes that keep its slurmd log open, slurmd aside. One that
# has ended is a zombie with no open files until init reaps it (in this project's VM, within a second or so).
local_cluster_step_pids() {
    [[ -n "$local_cluster_work" ]] || return 0
    find /proc/[0-9]*/fd -maxdepth 1 -lname "$local_cluster_work/log/slurmd.log" 2>/dev/null |
        cut -d/ -f3 | sort -u | grep -v -x -F "${local_cluster_daemons[2]:-0}" || true
}

# Cancels what the cluster still runs and stops the daemons (TERM, then KILL after 10 s), the step daemons too; the
# folder is left to the caller. Does what applies when the start failed half-way, and nothing when called again.
local_cluster_stop() {
    local pid steps
    if [[ -n "$local_cluster_up" ]]; then
        # Every job of this throwaway cluster is ours; a killed sbatch may not have written its job id.
        scancel --partition=test 2>/dev/null || true
        for _ in {1..40}; do squeue -h 2>/dev/null | grep -q . || break; sleep 0.5; done
        # A job is over for squeue (and sbatch --wait) before its step daemons have told slurmd and gone.
        for _ in {1..50}; do [[ -z "$(local_cluster_step_pids)" ]] && break; sleep 0.2; done
        local_cluster_up=
    fi
    steps=$(local_cluster_step_pids)
    for pid in "${local_cluster_daemons[@]}" $steps; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${local_cluster_daemons[@]}" $steps; do
        for _ in {1..50}; do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    local_cluster_daemons=()
}

# An event log with each "id":"<uuid>" as "id":N, N counting the ids in order of first appearance, and everything
# else as it is: two scans of one input give the same lines, though each tracker draws its own ids.
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
