// Package board implements rafle's rules engine and the hot code of its search, for
// pkg/engine (which names the rules API: its types are aliases of these) and pkg/search
// (which names the search API: Searcher and the evaluation, with its Weights). Being internal, it
// may keep the search next to the representation it needs at full speed (bitboards,
// Position's pieces, Move's captured set, the generator, the draw state) in both widths:
// the 64-bit code and the 128-bit instance that widegen generates from it (wide_gen.go).
//
// Its exported methods on the types pkg/engine aliases are the public API of pkg/engine,
// and must work on every board; users reach no other name of this package.
package board
