// Package jsonl is the file under rafle's resumable runs (a match's journal in pkg/match,
// an annotation journal in pkg/annotate): JSON lines appended one at a time, each synced
// before the run goes on, by one process at a time (an advisory lock, pkg/internal/filelock),
// and read back on resume up to the last whole line, where appending starts again.
package jsonl
