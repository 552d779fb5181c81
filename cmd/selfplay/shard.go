package main

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
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

// mergeCommand joins the journals of a match's shards.
func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "join the shards of a match: check that every game is there once, print the statistics, write the games in order",
		UsageText: "selfplay merge [--output OUT] [--format text|json] [--anchor NAME=ELO] SHARD.pdn|SHARD.journal ...",
		Description: "Each shard of a match (--shard K/N) writes its PDN and journal. merge reads the\n" +
			"journals (FILE.journal beside each FILE.pdn given), refuses shards of other matches,\n" +
			"a shard missing or given twice and a game missing or recorded twice, and prints the\n" +
			"tables (or JSON) the match played on one machine prints, with an SPRT stopped where\n" +
			"it would have stopped in game order. --output writes every game in game order.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o", "pdn"}, Usage: "write the games of every shard, in game order, to `FILE`"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text (tables) or json"},
			&cli.BoolFlag{Name: "json", Usage: "the same as --format json"},
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
	if _, err := cliutil.JSONOutput(c); err != nil {
		return err
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
		host, _ := os.Hostname()
		if err := mergeOut(out, paths, func(w io.Writer) error { return m.WritePDN(w, c.String("event"), host) }); err != nil {
			return err
		}
	}
	return printResult(c, res)
}

// mergeOut writes the merged games to out, a new file (merge never writes over one: an
// existing regular file is refused, an input above all), or a character device or FIFO
// (a pipe), or a name under /dev (/dev/stdout, appended to). A new file that could not be
// written whole is removed.
func mergeOut(out string, inputs []string, write func(io.Writer) error) (err error) {
	if err := cliutil.NotAnInput(out, inputs...); err != nil {
		return cliutil.UsageError{Err: fmt.Errorf("--pdn: %w", err)}
	}
	if match.DevicePath(out) { // /dev/stdout, even redirected to a file: appended to
		f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 64<<10)
		err = write(w)
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	if st, err := os.Stat(out); err == nil && st.Mode().IsRegular() {
		return cliutil.Usagef("--pdn %s: the file exists (merge never overwrites)", out)
	} else if err == nil && st.Mode()&(fs.ModeCharDevice|fs.ModeNamedPipe) != 0 {
		return cliutil.WriteFile(out, write)
	} else if err == nil {
		return cliutil.Usagef("--pdn %s: not a regular file, character device or FIFO", out)
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(out)
		}
	}()
	w := bufio.NewWriterSize(f, 64<<10)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
