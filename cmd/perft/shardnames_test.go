package main

import "github.com/rafle/rafle/pkg/perftshard"

// The names the tests decode the output of a shard and of `perft merge --json` into.
type (
	shardResult = perftshard.Result
	mergeResult = perftshard.Sum
)
