#!/usr/bin/env bash
# Submits the build of an endgame database to Slurm: one job array per stage (pieces 2 to
# N, and for each the slices with 0 to N men), each depending on the one before, then a
# job that verifies the whole database; prints the job ids (stage P/M=ID, verify=ID).
#
#   deploy/slurm/egdb-submit.sh [-n SHARDS] [-c CPUS] [-d DIR] --variant V --pieces N --dir DB
#
#   -n SHARDS  array tasks per stage, one shard each (default 4)
#   -c CPUS    CPUs per task, and threads of each (default 1)
#   -d DIR     working directory of the jobs (their logs; default .)
#
# DB must be on a file system every node sees. The binary is EGDB, or egdb on the PATH of
# the nodes. A stage that fails cancels the stages after it (--kill-on-invalid-dep); submit
# again to resume: slices already built are kept.
set -euo pipefail

usage() {
	sed -n '6,11s/^# \{0,1\}//p' "$0" >&2
	exit 2
}
shards=4 cpus=1 dir=.
min_shards=1
source "$(dirname "$0")/options.sh"
parse_options "$@"
set -- "${rest[@]}"
# --pieces N, --variant V and --dir DB (also as NAME=VALUE); the other flags go to every stage
pieces='' variant='' db='' rest=()
while (($# > 0)); do
	case $1 in
	--pieces | -n | --variant | -v | --dir)
		(($# >= 2)) || usage
		case $1 in --pieces | -n) pieces=$2 ;; --variant | -v) variant=$2 ;; --dir) db=$2 ;; esac
		shift 2
		;;
	--pieces=*) pieces=${1#*=} && shift ;;
	--variant=*) variant=${1#*=} && shift ;;
	--dir=*) db=${1#*=} && shift ;;
	--men | --men=* | --shard | --shard=* | --shards | --shards=*)
		echo "egdb-submit.sh: $1: the stages and shards are the script's" >&2
		exit 2
		;;
	*) rest+=("$1") && shift ;;
	esac
done
[[ $pieces =~ ^[0-9]+$ && $pieces -ge 2 ]] || { echo "egdb-submit.sh: give --pieces N (2 or more)" >&2; exit 2; }
[[ -n $variant && -n $db ]] || { echo "egdb-submit.sh: give --variant V and --dir DB" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir" "$db"

dep=()
for ((n = 2; n <= pieces; n++)); do
	for ((m = 0; m <= n; m++)); do
		id=$(sbatch --parsable --array="0-$((shards - 1))" --cpus-per-task="$cpus" --chdir="$dir" \
			"${dep[@]}" "$here/egdb.sbatch" --variant "$variant" --dir "$db" --pieces "$n" --men "$m" "${rest[@]}")
		id=${id%%;*}
		echo "stage $n/$m=$id"
		dep=(--dependency="afterok:$id" --kill-on-invalid-dep=yes)
	done
done
id=$(sbatch --parsable --cpus-per-task="$cpus" --chdir="$dir" --job-name=rafle-egdb-verify \
	--output=rafle-egdb-verify-%j.out "${dep[@]}" \
	--wrap="exec \"\${EGDB:-egdb}\" verify --quiet -j $cpus --variant $(printf %q "$variant") --dir $(printf %q "$db")")
echo "verify=${id%%;*}"
