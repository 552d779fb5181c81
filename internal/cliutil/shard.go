package cliutil

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/shard"
	"github.com/urfave/cli/v2"
)

// ReadShard reads the shard of a command from its flag --shard K/N, or, when that is not
// given, from the scheduler's environment: Slurm's array task index with
// SLURM_ARRAY_TASK_COUNT (or SLURM_ARRAY_TASK_MIN and MAX, for arrays such as
// --array=1-8, whose task 1 is shard 0), or Kubernetes' JOB_COMPLETION_INDEX with the flag
// --shards N (the Job's completions). It returns the zero Shard when neither gives one. A
// bad value is a usage error.
func ReadShard(c *cli.Context) (shard.Shard, error) {
	if s := c.String("shard"); s != "" {
		sh, err := shard.Parse(s)
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
		return shard.Shard{}, err
	}
	if hasID {
		count, hasCount, err := env("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return shard.Shard{}, err
		}
		lo, hasMin, err1 := env("SLURM_ARRAY_TASK_MIN")
		hi, hasMax, err2 := env("SLURM_ARRAY_TASK_MAX")
		if err1 != nil {
			return shard.Shard{}, err1
		}
		if err2 != nil {
			return shard.Shard{}, err2
		}
		switch {
		case hasMin && hasMax && (!hasCount || count == hi-lo+1):
			id, count = id-lo, hi-lo+1 // arrays such as --array=1-8
		case !hasCount:
			return shard.Shard{}, Usagef("SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT or MIN and MAX: give --shard K/N")
		}
		return checkShard(id, count, "SLURM_ARRAY_TASK_ID")
	}
	idx, hasIdx, err := env("JOB_COMPLETION_INDEX")
	if err != nil {
		return shard.Shard{}, err
	}
	switch n := c.Int("shards"); {
	case hasIdx && n < 1:
		return shard.Shard{}, Usagef("JOB_COMPLETION_INDEX is set: give the number of shards with --shards N (the Job's completions)")
	case hasIdx:
		return checkShard(idx, n, "JOB_COMPLETION_INDEX")
	case c.IsSet("shards"):
		return shard.Shard{}, Usagef("--shards needs JOB_COMPLETION_INDEX in the environment (or give --shard K/N)")
	}
	return shard.Shard{}, nil
}

func checkShard(k, n int, from string) (shard.Shard, error) {
	sh, err := shard.Parse(fmt.Sprintf("%d/%d", k, n))
	if err != nil {
		return sh, Usagef("%s: %v", from, err)
	}
	return sh, nil
}
