#!/usr/bin/env bash
# Writes the journals of a made-up match of GAMES games between two players in N shards, as
# selfplay --shard K/N writes them (pkg/match/journal.go: a Header line, then one Record a
# game), with short move lists, to measure selfplay merge on a large match:
#
#   deploy/measure/journals.sh 1000000 4 DIR
#   /usr/bin/time -v selfplay merge --json --pdn DIR/games.pdn DIR/games.shard-{0,1,2,3}-of-4.pdn
#
# Game g belongs to shard (g/2) mod N; results cycle through win, win, loss, loss, draw.
set -euo pipefail
games=${1:?usage: journals.sh GAMES N DIR} n=${2:?usage: journals.sh GAMES N DIR} dir=${3:-.}
mkdir -p "$dir"
for ((k = 0; k < n; k++)); do
	awk -v games="$games" -v n="$n" -v k="$k" 'BEGIN {
		printf "{\"format\":\"rafle-selfplay-journal/1\",\"variant\":\"english\",\"players\":[\"a\",\"b\"],\"seed\":1,\"games\":%d,\"max_plies\":0,\"openings\":\"0\",\"shard\":\"%d/%d\"}\n", games, k, n
		for (pair = k; 2 * pair < games; pair += n) {
			for (g = 2 * pair; g <= 2 * pair + 1; g++) {
				r = g % 5
				win = r == 4 ? "" : ",\"winner\":\"" (r < 2 ? "white" : "black") "\""
				printf "{\"game\":%d,\"white\":\"%s\",\"black\":\"%s\",\"opening\":\"%d\",\"moves\":[\"11-15\",\"23-19\",\"8-11\",\"22-17\",\"9-13\",\"17x10\",\"6x15\",\"19x10\"],\"opening_plies\":3%s,\"reason\":\"%s\",\"date\":\"2026.12.01\"}\n",
					g, g % 2 ? "b" : "a", g % 2 ? "a" : "b", pair % 156 + 1, win, win == "" ? "repetition" : "no-legal-move"
			}
		}
	}' >"$dir/games.shard-$k-of-$n.pdn.journal"
done
