// Package board implements rafle's rules engine for pkg/engine, which names its API: its
// types are aliases of these. Its exported methods on those types are the public API of
// pkg/engine, and must work on every board; users reach no other name of this package.
//
// The search (pkg/search/internal/core) works on this package's representation at full
// speed: bitboards, Position's pieces, Move's captured set, the generator, the draw
// state. shared.go exports what it reads as package-level functions, which pkg/engine's
// aliases do not carry, in both widths: the 64-bit code and the twins widegen generates
// for the 128-bit instance (wide_gen.go).
package board
