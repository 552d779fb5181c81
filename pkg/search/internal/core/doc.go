// Package core is the implementation of pkg/search: the alpha-beta search and the
// evaluation, written over the representation of pkg/internal/board (its bitboards,
// positions, moves generated in place and draw state, which board exports for it as
// package-level functions: board/shared.go), in both widths: this 64-bit code and the
// 128-bit instance that widegen generates from it (wide_gen.go, see wide.go). It picks
// the instance once, per Searcher and per call of Features or Evaluate (kernelOf);
// pkg/search names its API and never sees the width.
package core
