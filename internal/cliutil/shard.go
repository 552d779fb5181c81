package cliutil

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/match"
	"github.com/urfave/cli/v2"
)

// Shard is part Index (from 0) of Count of a job run on several machines (selfplay, pdn).
// The zero value, Count 0, is no shard: the whole job.
type Shard struct {
	Index, Count int
}

// String writes the shard as ParseShard reads it.
func (s Shard) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count) }

// ParseShard reads "K/N": shard K (from 0) of N, as match.ParseShard.
func ParseShard(s string) (Shard, error) {
	sh, err := match.ParseShard(s)
	return Shard(sh), err
}

// ReadShard reads the shard of a command from its flag --shard K/N, or, when that is not
// given, from the scheduler's environment: Slurm's array task index with
// SLURM_ARRAY_TASK_COUNT (or SLURM_ARRAY_TASK_MIN and MAX, for arrays such as
// --array=1-8, whose task 1 is shard 0), or Kubernetes' JOB_COMPLETION_INDEX with the flag
// --shards N (the Job's completions). It returns the zero Shard when neither gives one. A
// bad value is a usage error.
func ReadShard(c *cli.Context) (Shard, error) {
	if s := c.String("shard"); s != "" {
		sh, err := ParseShard(s)
		if err != nil {
			return sh, Usagef("--shard: %v", err)
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
			return 0, true, Usagef("%s=%q: not a number", name, v)
		}
		return n, true, nil
	}
	id, hasID, err := env("SLURM_ARRAY_TASK_ID")
	if err != nil {
		return Shard{}, err
	}
	if hasID {
		count, hasCount, err := env("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return Shard{}, err
		}
		lo, hasMin, err1 := env("SLURM_ARRAY_TASK_MIN")
		hi, hasMax, err2 := env("SLURM_ARRAY_TASK_MAX")
		if err1 != nil {
			return Shard{}, err1
		}
		if err2 != nil {
			return Shard{}, err2
		}
		switch {
		case hasMin && hasMax && (!hasCount || count == hi-lo+1):
			id, count = id-lo, hi-lo+1 // arrays such as --array=1-8
		case !hasCount:
			return Shard{}, Usagef("SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT or MIN and MAX: give --shard K/N")
		}
		return checkShard(id, count, "SLURM_ARRAY_TASK_ID")
	}
	idx, hasIdx, err := env("JOB_COMPLETION_INDEX")
	if err != nil {
		return Shard{}, err
	}
	switch n := c.Int("shards"); {
	case hasIdx && n < 1:
		return Shard{}, Usagef("JOB_COMPLETION_INDEX is set: give the number of shards with --shards N (the Job's completions)")
	case hasIdx:
		return checkShard(idx, n, "JOB_COMPLETION_INDEX")
	case c.IsSet("shards"):
		return Shard{}, Usagef("--shards needs JOB_COMPLETION_INDEX in the environment (or give --shard K/N)")
	}
	return Shard{}, nil
}

func checkShard(k, n int, from string) (Shard, error) {
	sh, err := ParseShard(fmt.Sprintf("%d/%d", k, n))
	if err != nil {
		return sh, Usagef("%s: %v", from, err)
	}
	return sh, nil
}

// ShardPath is the file of shard s for the file path of the whole job: "{shard}" in path
// becomes the shard's index, or the index is put before the extension (games.pdn becomes
// games.shard-3-of-8.pdn), so that every shard of an array job writes its own files. It
// returns path itself without a shard (Count 0) and, unless all is set, for a single one.
func ShardPath(path string, s Shard, all bool) string {
	if path == "" || s.Count == 0 || (s.Count == 1 && !all) {
		return path
	}
	if strings.Contains(path, "{shard}") {
		return strings.ReplaceAll(path, "{shard}", strconv.Itoa(s.Index))
	}
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s.shard-%d-of-%d%s", strings.TrimSuffix(path, ext), s.Index, s.Count, ext)
}
