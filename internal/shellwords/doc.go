// Package shellwords splits a command line into words as a POSIX shell does for quoting,
// without expanding anything: single quotes keep everything up to the next single quote,
// double quotes keep everything but a backslash before ", \, $ or `, and outside quotes a
// backslash keeps the next character. Commands that run another program from a flag
// (perft diff --engine, selfplay --engine args=) read it with Split.
package shellwords
