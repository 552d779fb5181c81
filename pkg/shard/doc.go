// Package shard names one part of a job split over several machines (a match, a perft
// count, a pass over a PDN archive): Shard, part Index of Count, read from and written as
// "K/N", with the items it holds (Has, Len) and the file each part writes (Path).
//
// It is a package of its own, standard library only, because both the libraries that run
// a part of a job (pkg/match, pkg/archive) and the commands' shared helpers
// (internal/cliutil, which reads a shard from a flag or a scheduler's environment) need
// the one type: kept in pkg/match, it made internal/cliutil import the match runner, the
// only arrow of the package graph that ran from a helper back up to a library above it.
package shard
