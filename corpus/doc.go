// Package corpus holds the data rafle ships with its binaries: the published perft suites
// (perft/*.tsv, each row with its source) and small opening sets. Every file starts with a
// header saying where its facts come from.
package corpus
