#!/usr/bin/env bash
# Submits a selfplay match to Slurm as an array of shards and a merge job that runs once
# every shard has succeeded, and prints the two job ids (array=ID and merge=ID on stdout).
#
#   deploy/slurm/submit.sh [-n SHARDS] [-c CPUS] [-d DIR] SELFPLAY-FLAGS...
#
#   -n SHARDS  array tasks, one shard each (default 8)
#   -c CPUS    CPUs per task, and games played at once by each (default 1)
#   -d DIR     working directory of the jobs, on a file system every node sees (default .)
#
# A --seed is added when the flags have none (the seed is printed): every shard must play
# the same match. The binary is SELFPLAY, or selfplay on the PATH of the nodes.
set -euo pipefail

usage() {
	sed -n '5,10s/^# \{0,1\}//p' "$0" >&2
	exit 2
}
shards=8 cpus=1 dir=.
min_shards=2
source "$(dirname "$0")/options.sh"
parse_options "$@"
set -- "${rest[@]}"
[[ $# -gt 0 ]] || usage
case " $* " in
*" --seed "* | *" --seed="*) ;;
*)
	seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	echo "submit.sh: seed $seed" >&2
	set -- "$@" --seed "$seed"
	;;
esac
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"

array=$(sbatch --parsable --array="0-$((shards - 1))" --cpus-per-task="$cpus" --chdir="$dir" \
	"$here/match.sbatch" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --chdir="$dir" \
	"$here/merge.sbatch" "$shards")
merge=${merge%%;*}
echo "array=$array"
echo "merge=$merge"
