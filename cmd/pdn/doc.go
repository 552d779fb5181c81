// Command pdn validates, converts, filters, deduplicates, splits and
// summarises PDN game archives. It streams: any number of files (plain or
// .gz) or standard input, one game in memory at a time.
//
// validate and stats replay every move with pkg/engine (unless
// --syntax-only); convert --to fen|csv, --notation, --captures, filter
// --fen and book replay the games they use. The variant of a game without
// a GameType tag is --variant, or inferred from its whole file.
//
// Files: main.go (the app and shared flags), input.go (inputs, inference,
// progress), status.go (errors and exit status), commands.go and book.go
// (the subcommands), report.go (stats --report).
package main
