#!/usr/bin/env bash
# Measures what playing a match in two shards, as two processes of one worker each, costs
# against one process with two workers on the same machine: wall and CPU seconds of each
# (GNU time), the merge's time, and whether the merge equals the one-process run byte for
# byte. The two ways run in turn, REPS times, alternating which goes first.
#
#   SELFPLAY=./selfplay deploy/measure/shards.sh [REPS] [SELFPLAY-FLAGS...]
#
# Default flags: -p medium,easy --games 400 --seed 11 (a few hundred fast games).
set -euo pipefail
reps=${1:-11}
shift || true
flags=("$@")
((${#flags[@]})) || flags=(-p "medium,easy" --games 400 --seed 11)
sp=${SELFPLAY:-selfplay}
timed() { /usr/bin/time -f "%e %U %S" -o "$1" "${@:2}"; }
one() { timed one.time "$sp" "${flags[@]}" -q -j 2 --json --pdn one.pdn >one.json 2>/dev/null; }
two() {
	local t=$EPOCHREALTIME
	timed a.time "$sp" "${flags[@]}" -q -j 1 --shard 0/2 --pdn s.pdn >/dev/null 2>&1 &
	timed b.time "$sp" "${flags[@]}" -q -j 1 --shard 1/2 --pdn s.pdn >/dev/null 2>&1 &
	wait
	echo "$t $EPOCHREALTIME" | awk '{printf "%.2f\n", $2 - $1}' >two.time
}
echo "rep one-wall one-cpu two-wall two-cpu merge-wall one/two equal load"
for ((r = 1; r <= reps; r++)); do
	d=$(mktemp -d)
	(
		cd "$d"
		if ((r % 2)); then one && two; else two && one; fi
		timed merge.time "$sp" merge --json --pdn merged.pdn s.shard-0-of-2.pdn s.shard-1-of-2.pdn >merged.json
		equal=no
		cmp -s one.json merged.json && cmp -s one.pdn merged.pdn && equal=yes
		read -r ow ou os <one.time
		read -r _ au as <a.time
		read -r _ bu bs <b.time
		read -r mw _ <merge.time
		awk -v r="$r" -v ow="$ow" -v oc="$(echo "$ou $os" | awk '{print $1+$2}')" -v tw="$(cat two.time)" \
			-v tc="$(echo "$au $as $bu $bs" | awk '{print $1+$2+$3+$4}')" -v mw="$mw" -v eq="$equal" \
			-v load="$(cut -d' ' -f1 /proc/loadavg)" \
			'BEGIN {printf "%d %.2f %.2f %.2f %.2f %.2f %.3f %s %s\n", r, ow, oc, tw, tc, mw, ow / tw, eq, load}'
	)
	rm -rf "$d"
done
