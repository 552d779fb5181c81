// Package kernelcheck finds, for the tests of a package that keeps its hot code in two
// widths (a 64-bit source and the 128-bit instance widegen generates from it), the calls
// from the package's exported functions and methods to the 64-bit hot code that bypass the
// package's kernel: such a call would play a board of more than 64 bits with the 64-bit
// code. pkg/internal/board and pkg/search/internal/core test themselves with it.
package kernelcheck
