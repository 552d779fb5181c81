#!/usr/bin/env bash
# Measures pdn COMMAND over an archive on one machine (-j 1) against the same command in N
# shards (-j 1 each, one after the other, as N machines would run them) and their merge:
# wall and CPU seconds of each (GNU time), the merge's wall, CPU and peak memory, and
# whether the merge equals the one-process output byte for byte. REPS rounds, alternating
# which way goes first.
#
#   PDN=./pdn deploy/measure/pdn-shards.sh REPS N ARCHIVE COMMAND [FLAGS...]
#
# e.g. deploy/measure/pdn-shards.sh 5 3 ../shared/pdn/corpus/mzuluaga__checkers/OCA_2.0.pdn validate
set -euo pipefail
reps=$1 n=$2 archive=$(realpath "$3")
shift 3
pdn=$(realpath "${PDN:-$(command -v pdn)}")
timed() { /usr/bin/time -f "%e %U %S %M" -o "$1" "${@:2}"; }
secs() { awk '{printf "%.2f %.2f", $1, $2 + $3}' "$1"; }
echo "rep one-wall one-cpu shard-wall-max shards-cpu merge-wall merge-cpu merge-maxrss-MiB equal load"
for ((r = 1; r <= reps; r++)); do
	d=$(mktemp -d)
	(
		cd "$d"
		one() { timed one.time "$pdn" "$@" -j 1 -q "$archive" >one.out 2>one.err || true; }
		shards() {
			for ((k = 0; k < n; k++)); do
				timed "s$k.time" "$pdn" "$@" -j 1 -q --shard "$k/$n" --out s "$archive" 2>/dev/null
			done
		}
		if ((r % 2)); then one "$@" && shards "$@"; else shards "$@" && one "$@"; fi
		timed merge.time "$pdn" merge s.shard-*-of-"$n" >m.out 2>m.err || true
		equal=no
		cmp -s one.out m.out && cmp -s one.err m.err && equal=yes
		max=$(cat s*.time | awk '$1 > m {m = $1} END {printf "%.2f", m}')
		cpu=$(cat s*.time | awk '{c += $2 + $3} END {printf "%.2f", c}')
		echo "$r $(secs one.time) $max $cpu $(secs merge.time) $(awk '{printf "%.0f", $4 / 1024}' merge.time) $equal $(cut -d' ' -f1 /proc/loadavg)"
	)
	rm -rf "$d"
done
