// Package board implements rafle's rules engine for pkg/engine, which declares the public
// types with the memory layout of this package's (pkg/engine's TestLayouts checks it) and
// hands the work of each method to this package's method of the same name. Those methods
// are pkg/engine's API and must work on every board; users reach no other name of this
// package.
//
// The search (pkg/search/internal/core) works on this package's representation at full
// speed: bitboards, Position's pieces, Move's captured set, the generator, the draw
// state. shared.go exports what it reads as package-level functions, in both widths: the
// 64-bit code and the twins widegen generates for the 128-bit instance (wide_gen.go).
package board
