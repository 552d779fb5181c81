// Package testio gives tests the inputs that cannot be opened twice, as a user hands them
// to a command: a FIFO (mkfifo) and the /dev/fd/N name of a pipe (a shell's <(...)); and the
// engines started through a wrapper script whose other child outlives it (Wrapper), with the
// pid files they write read back (ReadPID).
package testio
