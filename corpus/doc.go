// Package corpus holds the data rafle ships with its binaries: the published perft suites
// (perft/*.tsv, each row with its source), small opening sets, and a test suite per variant
// (suites/*.epd, each line with its source; suites/README.md says how they were made). Every
// file starts with a header saying where its facts come from.
package corpus
