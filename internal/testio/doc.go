// Package testio gives tests the inputs that cannot be opened twice, as a user hands them
// to a command: a FIFO (mkfifo) and the /dev/fd/N name of a pipe (a shell's <(...)).
package testio
