package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/match"
)

// shardFlags are the flags of a match played in shards.
func shardFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "shard", Usage: "play shard K/N of the match: the game pairs whose number is K modulo N " +
			"(default: from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX with --shards)"},
		&cli.IntFlag{Name: "shards", Usage: "the number of shards, when the index comes from Kubernetes' JOB_COMPLETION_INDEX"},
	}
}

// readShard reads --shard, or the scheduler's environment: Slurm's array task index and
// count (or its minimum and maximum), or Kubernetes' completion index with --shards.
func readShard(c *cli.Context) (match.Shard, error) {
	if s := c.String("shard"); s != "" {
		sh, err := match.ParseShard(s)
		if err != nil {
			return sh, cliutil.Usagef("--shard: %v", err)
		}
		return sh, nil
	}
	env := func(name string) (int, bool, error) {
		v, ok := os.LookupEnv(name)
		if !ok {
			return 0, false, nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return 0, true, cliutil.Usagef("%s=%q: not a number", name, v)
		}
		return n, true, nil
	}
	id, hasID, err := env("SLURM_ARRAY_TASK_ID")
	if err != nil {
		return match.Shard{}, err
	}
	if hasID {
		count, hasCount, err := env("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return match.Shard{}, err
		}
		lo, hasMin, err1 := env("SLURM_ARRAY_TASK_MIN")
		hi, hasMax, err2 := env("SLURM_ARRAY_TASK_MAX")
		if err := cmpErr(err1, err2); err != nil {
			return match.Shard{}, err
		}
		switch {
		case hasMin && hasMax && (!hasCount || count == hi-lo+1):
			id, count = id-lo, hi-lo+1 // arrays such as --array=1-8
		case !hasCount:
			return match.Shard{}, cliutil.Usagef("SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT or MIN and MAX: give --shard K/N")
		}
		return checkShard(id, count, "SLURM_ARRAY_TASK_ID")
	}
	idx, hasIdx, err := env("JOB_COMPLETION_INDEX")
	if err != nil {
		return match.Shard{}, err
	}
	switch n := c.Int("shards"); {
	case hasIdx && n < 1:
		return match.Shard{}, cliutil.Usagef("JOB_COMPLETION_INDEX is set: give the number of shards with --shards N (the Job's completions)")
	case hasIdx:
		return checkShard(idx, n, "JOB_COMPLETION_INDEX")
	case c.IsSet("shards"):
		return match.Shard{}, cliutil.Usagef("--shards needs JOB_COMPLETION_INDEX in the environment (or give --shard K/N)")
	}
	return match.Shard{}, nil
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func checkShard(k, n int, from string) (match.Shard, error) {
	sh, err := match.ParseShard(fmt.Sprintf("%d/%d", k, n))
	if err != nil {
		return sh, cliutil.Usagef("%s: %v", from, err)
	}
	return sh, nil
}

// shardPath is the file of shard s for the file path of the whole match: "{shard}" in path
// becomes the shard's index, or the index is put before the extension (games.pdn becomes
// games.shard-3-of-8.pdn), so that every shard of an array job writes its own files.
func shardPath(path string, s match.Shard) string {
	if path == "" || s.Count <= 1 {
		return path
	}
	if strings.Contains(path, "{shard}") {
		return strings.ReplaceAll(path, "{shard}", strconv.Itoa(s.Index))
	}
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s.shard-%d-of-%d%s", strings.TrimSuffix(path, ext), s.Index, s.Count, ext)
}

// mergeCommand joins the journals of a match's shards.
func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "join the shards of a match: check that every game is there once, print the statistics, write the games in order",
		UsageText: "selfplay merge [--pdn OUT] [--json] [--anchor NAME=ELO] SHARD.pdn|SHARD.journal ...",
		Description: "Each shard of a match (--shard K/N) writes its PDN and journal. merge reads the\n" +
			"journals (FILE.journal beside each FILE.pdn given), refuses shards of other matches,\n" +
			"a shard missing or given twice and a game missing or recorded twice, and prints the\n" +
			"tables (or JSON) the match played on one machine prints, with an SPRT stopped where\n" +
			"it would have stopped in game order. --pdn writes every game in game order.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "pdn", Usage: "write the games of every shard, in game order, to `FILE`"},
			&cli.BoolFlag{Name: "json", Usage: "print the results as JSON"},
			&cli.StringFlag{Name: "anchor", Usage: "rating anchor NAME=ELO for three or more players"},
			&cli.StringFlag{Name: "event", Value: "rafle selfplay", Usage: "PDN Event tag"},
		},
		Action:       merge,
		OnUsageError: cliutil.OnUsageError,
	}
}

func merge(c *cli.Context) error {
	if !c.Args().Present() {
		return cliutil.Usagef("merge: give the shards' PDN or journal files")
	}
	var paths []string
	for _, a := range c.Args().Slice() {
		if !strings.HasSuffix(a, ".journal") {
			a += ".journal"
		}
		paths = append(paths, a)
	}
	m, err := match.Merge(paths)
	if err != nil {
		return err
	}
	defer m.Close()
	anchor, elo, err := parseAnchor(c.String("anchor"), m.Header.Players)
	if err != nil {
		return err
	}
	res := m.Result(anchor, elo)
	if out := c.String("pdn"); out != "" {
		if _, err := os.Stat(out); err == nil {
			return cliutil.Usagef("--pdn %s: the file exists (merge never overwrites)", out)
		}
		host, _ := os.Hostname()
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		err = m.WritePDN(w, c.String("event"), host)
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return printResult(c, res)
}
