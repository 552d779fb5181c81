// Package filelock takes the advisory locks by which rafle's long runs keep a file to one
// writer: a match's journal and PDN file (pkg/match), an annotation journal (pkg/annotate),
// a report folder (pkg/report). A lock is exclusive, taken without waiting, and held until
// the file is closed or the process ends, so that a run killed with kill -9 leaves no lock.
package filelock
