#!/usr/bin/env bash
# Plays a selfplay match as a Slurm job array on a one-node cluster started on this machine,
# and checks that the merged results and games equal those of the same match played by one
# process, byte for byte.
#
# It installs Debian's slurm-wlm and munge when they are missing (as root, with apt-get),
# starts munged, slurmctld and slurmd on the loopback interface with a configuration in a
# temporary directory, submits the match with submit.sh (3 shards), waits for the merge job,
# and compares games.json and games.pdn with the one-process run. Then it checks the
# recovery documented in docs/cluster.md (a shard whose journal lost games is run again with
# sbatch --array=K ... --shard K/N, and merged again; an array of one task without --shard
# is refused) and that merge refuses a shard of another match. Last, an archive job: pdn
# dedupe over three files (one repeating another) as an array of sbatch --wrap tasks and a
# merge job, whose output and message equal one run's. Then an endgame database (egdb
# english up to 3 pieces) built by egdb-submit.sh, stage after stage, each an array of 2
# shards, and verified by its last job: its files equal one build's. It stops the daemons it
# started, by their process ids, however it ends, and prints its wall time. The temporary
# directory is kept when a check fails.
set -euo pipefail

t0=$(date +%s%N)
repo=$(cd "$(dirname "$0")/../.." && pwd)
slurm=$repo/deploy/slurm
match=(--variant english --players "depth=1,depth=2" --games 24 --seed 2026)
shards=3

log() { echo "test-cluster: $*" >&2; }
fail() {
	log "FAIL: $*"
	exit 1
}
elapsed() { echo "$((($(date +%s%N) - t0) / 1000000)) ms"; }

[[ $(id -u) == 0 ]] || fail "needs root (to install the packages and run slurmd)"
unset SLURM_CONF # this cluster only, never one configured on this machine

# --- packages, installed once
missing=0
for cmd in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
	command -v "$cmd" >/dev/null || missing=1
done
if ((missing)); then
	log "installing slurm-wlm and munge"
	export DEBIAN_FRONTEND=noninteractive
	aptlog=$(mktemp /tmp/rafle-apt.XXXXXX)
	if ! timeout 120 apt-get update -qq >"$aptlog" 2>&1 ||
		! timeout 300 apt-get install -y -qq --no-install-recommends slurm-wlm munge >>"$aptlog" 2>&1; then
		tail -n 20 "$aptlog" >&2
		fail "apt-get could not install slurm-wlm and munge (log: $aptlog)"
	fi
	rm -f "$aptlog"
fi
log "packages ready after $(elapsed)"

# --- a one-node cluster in a temporary directory
tmp=$(mktemp -d /tmp/rafle-slurm.XXXXXX)
chmod 755 "$tmp" # slurmd's job steps and munge's clients reach their sockets through it
pids=()
ok=0
cleanup() {
	local pid i t j
	if [[ -f $tmp/slurm.conf ]]; then # jobs of this cluster only
		export SLURM_CONF=$tmp/slurm.conf
		for j in $(timeout 5 squeue -h -o %A 2>/dev/null); do timeout 5 scancel "$j" 2>/dev/null || true; done
	fi
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do # slurmd, slurmctld, then munged
		pid=${pids[i]}
		kill -TERM "$pid" 2>/dev/null || continue
		for ((t = 0; t < 50; t++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || true
	done
	if ((ok)); then
		rm -rf "$tmp"
	else
		for f in "$tmp"/*.stderr "$tmp"/run/*.out; do # the daemons log to stderr too
			[[ -s $f ]] && { log "--- last lines of $f"; tail -n 15 "$f" >&2; }
		done
		log "kept $tmp"
	fi
}
trap cleanup EXIT
trap 'log interrupted; exit 130' INT TERM

# freeport prints a TCP port on the loopback interface that nothing listens on.
freeport() {
	local p
	for ((i = 0; i < 100; i++)); do
		p=$((20000 + RANDOM % 20000))
		if ! (: </dev/tcp/127.0.0.1/$p) 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	fail "no free port found"
}
ctldport=$(freeport)
slurmdport=$(freeport)
while [[ $slurmdport == "$ctldport" ]]; do slurmdport=$(freeport); done

mkdir -p "$tmp"/{munge,state,spool,bin,ref,run,foreign}
chmod 700 "$tmp/munge"
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
munged -F --force --socket="$tmp/munge.socket" --key-file="$tmp/munge/munge.key" \
	--pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" \
	--log-file="$tmp/munge/munged.log" >"$tmp/munged.stderr" 2>&1 &
pids+=($!)

cpus=$(nproc)
mem=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) * 9 / 10240)) # MiB, below what slurmd finds
: >"$tmp/plugstack.conf"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=rafletest
SlurmctldHost=localhost
SlurmctldPort=$ctldport
SlurmdPort=$slurmdport
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
PlugStackConfig=$tmp/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf

# wait_for DESCRIPTION SECONDS COMMAND...: runs COMMAND every 0.2 s until it succeeds.
wait_for() {
	local what=$1 secs=$2
	shift 2
	local end=$(($(date +%s) + secs))
	until "$@" >/dev/null 2>&1; do
		(($(date +%s) < end)) || fail "timed out after ${secs}s waiting for $what"
		sleep 0.2
	done
}
wait_for munged 10 test -S "$tmp/munge.socket"
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.stderr" 2>&1 &
pids+=($!)
wait_for slurmctld 20 scontrol ping
slurmd -D -N localhost -f "$SLURM_CONF" >"$tmp/slurmd.stderr" 2>&1 &
pids+=($!)
idle() { [[ $(sinfo -h -n localhost -o %T) == idle ]]; }
wait_for "node localhost to be idle (sinfo)" 30 idle
log "cluster up after $(elapsed): slurmctld on 127.0.0.1:$ctldport, slurmd on :$slurmdport, $cpus CPUs"

# --- the binary, and the match played by one process
(cd "$repo" && go build -o "$tmp/bin/selfplay" ./cmd/selfplay) || fail "go build ./cmd/selfplay failed"
export SELFPLAY=$tmp/bin/selfplay
(cd "$tmp/ref" && timeout 120 "$SELFPLAY" "${match[@]}" -j 1 -q --json --pdn games.pdn >games.json 2>stderr) ||
	fail "the one-process match failed: $(tail -n 3 "$tmp/ref/stderr")"

# wait_job ID SECONDS waits until the job and every task of an array has ended, and fails
# unless every one COMPLETED (exit status 0).
wait_job() {
	local id=$1 secs=$2 end=$(($(date +%s) + $2))
	while [[ -n $(squeue -h -j "$id" -o %i 2>/dev/null) ]]; do
		(($(date +%s) < end)) || fail "job $id still queued or running after ${secs}s: $(squeue -h -j "$id" -o '%i %T %r' | tr '\n' ';')"
		sleep 0.2
	done
	local states
	states=$(scontrol show job "$id" 2>/dev/null | sed -n "s/.*JobState=\([A-Z_]*\).*/\1/p")
	if [[ -z $states ]] || grep -qv "^COMPLETED\$" <<<"$states"; then
		fail "job $id ended: $(tr "\n" " " <<<"$states")(logs in $tmp/run)"
	fi
}

# same FILE1 FILE2 WHAT fails unless the files are equal byte for byte.
same() {
	cmp -s "$1" "$2" || {
		diff "$1" "$2" | head -n 20 >&2 || true
		fail "$3: $1 differs from $2"
	}
}

# --- the match as a job array and a merge job
ids=$(timeout 30 "$slurm/submit.sh" -n "$shards" -c 1 -d "$tmp/run" "${match[@]}") || fail "submit.sh failed"
array=$(sed -n 's/^array=//p' <<<"$ids")
merge=$(sed -n 's/^merge=//p' <<<"$ids")
[[ -n $array && -n $merge ]] || fail "submit.sh printed no job ids: $ids"
log "submitted array job $array ($shards shards) and merge job $merge after $(elapsed)"
wait_job "$array" 120
wait_job "$merge" 60
same "$tmp/ref/games.json" "$tmp/run/games.json" "merged results"
same "$tmp/ref/games.pdn" "$tmp/run/games.pdn" "merged games (the Date tags differ if the run crossed midnight)"
games=$(grep -c '^\[Event ' "$tmp/run/games.pdn")
log "merge of $shards shards equals the one-process match: games.json and games.pdn ($games games) after $(elapsed)"

# --- a shard that lost games is run again on its own, then merged again
cd "$tmp/run"
files=()
for ((k = 0; k < shards; k++)); do files+=("games.shard-$k-of-$shards.pdn"); done
j=games.shard-1-of-$shards.pdn.journal
head -n 3 "$j" >"$j.tmp" && mv "$j.tmp" "$j" # the header and two games: as if killed
if "$SELFPLAY" merge "${files[@]}" >/dev/null 2>merge.err; then
	fail "merge accepted a shard that lacks games"
fi
grep -q "missing.*shard 1/$shards" merge.err || fail "merge's error does not name shard 1/$shards: $(cat merge.err)"
mkdir first && mv games.pdn games.json first/
if SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=1 bash "$slurm/match.sbatch" "${match[@]}" >/dev/null 2>&1; then
	fail "match.sbatch in an array of one task without --shard did not refuse"
fi
rerun=$(sbatch --parsable --array=1 --chdir="$tmp/run" "$slurm/match.sbatch" "${match[@]}" --shard "1/$shards")
wait_job "${rerun%%;*}" 60
merge=$(sbatch --parsable --dependency="afterok:${rerun%%;*}" --chdir="$tmp/run" "$slurm/merge.sbatch" "$shards")
wait_job "${merge%%;*}" 60
same "$tmp/ref/games.json" games.json "results merged after the re-run of shard 1"
same "$tmp/ref/games.pdn" games.pdn "games merged after the re-run of shard 1"
log "shard 1 run again with sbatch --array=1 ... --shard 1/$shards and merged again: equal after $(elapsed)"

# --- a shard of another match (another seed) is refused
(cd "$tmp/foreign" && timeout 60 "$SELFPLAY" "${match[@]}" --seed 2027 --shard "2/$shards" -j 1 -q --pdn games.pdn >/dev/null 2>stderr) ||
	fail "the foreign shard failed to play: $(tail -n 3 "$tmp/foreign/stderr")"
if "$SELFPLAY" merge "${files[@]:0:2}" "$tmp/foreign/games.shard-2-of-$shards.pdn" >/dev/null 2>merge.err; then
	fail "merge accepted a shard of another match"
fi
grep -q "seed" merge.err || fail "merge's error does not name the seed: $(cat merge.err)"
log "merge refuses a shard of another seed: $(cat merge.err)"

# --- an archive job: pdn dedupe as an array of shards and a merge, equal to one run
(cd "$repo" && go build -o "$tmp/bin/pdn" ./cmd/pdn) || fail "go build ./cmd/pdn failed"
mkdir "$tmp/pdn" && cd "$tmp/pdn"
cp "$tmp/ref/games.pdn" a.pdn && cp a.pdn b.pdn && cp "$repo/cmd/pdn/testdata/games.pdn" c.pdn
inputs=(a.pdn b.pdn c.pdn) # b repeats a: dedupe must drop all of it across the shards
"$tmp/bin/pdn" dedupe "${inputs[@]}" >one.pdn 2>one.err || fail "pdn dedupe failed: $(cat one.err)"
pdnarray=$(sbatch --parsable --array="0-$((shards - 1))" --chdir="$tmp/pdn" \
	--wrap "$tmp/bin/pdn dedupe --out d.pdn ${inputs[*]}")
pdnarray=${pdnarray%%;*}
pdnmerge=$(sbatch --parsable --dependency="afterok:$pdnarray" --kill-on-invalid-dep=yes --chdir="$tmp/pdn" \
	--output=merge.out --error=merge.err --wrap "$tmp/bin/pdn merge d.shard-*-of-$shards.pdn")
pdnmerge=${pdnmerge%%;*}
wait_job "$pdnarray" 60
wait_job "$pdnmerge" 60
same one.pdn merge.out "pdn dedupe merged from $shards shards"
same one.err merge.err "pdn dedupe's message merged from $shards shards"
log "pdn dedupe of $(grep -c '^\[Event ' one.pdn) games kept (of 3 files) as $shards array tasks and a merge job equals one run: $(cat one.err) after $(elapsed)"

# --- an endgame database: each stage a job array after the one before, then a verify job;
# the slice files equal those of one build, byte for byte
(cd "$repo" && go build -o "$tmp/bin/egdb" ./cmd/egdb) || fail "go build ./cmd/egdb failed"
export EGDB=$tmp/bin/egdb
timeout 120 "$EGDB" build -v english -n 3 -j 1 -q --dir "$tmp/egdb-ref" >/dev/null 2>"$tmp/egdb-ref.err" ||
	fail "the one-process egdb build failed: $(tail -n 3 "$tmp/egdb-ref.err")"
ids=$(timeout 60 "$slurm/egdb-submit.sh" -n 2 -d "$tmp/egdb-run" --variant english --pieces 3 --dir "$tmp/egdb") ||
	fail "egdb-submit.sh failed"
verify=$(sed -n 's/^verify=//p' <<<"$ids")
stages=$(sed -n 's/^stage [0-9]*\/[0-9]*=//p' <<<"$ids")
[[ -n $verify && $(wc -w <<<"$stages") == 7 ]] || fail "egdb-submit.sh printed $ids"
for id in $stages; do wait_job "$id" 120; done
wait_job "$verify" 60
n=0
for f in "$tmp/egdb-ref"/*.egdb; do
	same "$f" "$tmp/egdb/${f##*/}" "egdb slice ${f##*/} built in stages of 2 shards"
	n=$((n + 1))
done
((n == 16)) || fail "the one-process egdb build wrote $n slices, want 16"
grep -q "every checksum and value verified" "$tmp/egdb-run"/rafle-egdb-verify-*.out ||
	fail "the egdb verify job did not verify: $(cat "$tmp/egdb-run"/rafle-egdb-verify-*.out)"
log "egdb english up to 3 pieces in 7 stages of 2 shards equals one build ($n slices) and verifies, after $(elapsed)"

ok=1
log "passed in $(elapsed) (wall time)"
