// Widegen generates the 128-bit instance of the engine's hot code.
//
// The engine keeps one source of its move generation, perft, evaluation and search,
// written for a 64-bit bitboard: a named type with underlying uint64 (board.bitboard)
// used with Go's integer operators. Boards with more than 64 squares (12x12 needs 77
// bits) need a second instance of that code over a 128-bit set, a hand-written struct
// type with methods (board's wide: And, Or, Xor, AndNot, Not, Shl, Shr, Sub, Add,
// IsZero, ClearFirst, and Has, Count, First like Bitboard's). Widegen writes that
// instance, so that the hot code is edited in one place only.
//
// It loads the package with full type information, copies the top-level declarations of
// the listed files and rewrites them, deciding from the types of the original code:
// every expression of the narrow type becomes an expression of the wide type.
//
//	x & y, x | y, x ^ y, x &^ y   x.And(y), x.Or(y), x.Xor(y), x.AndNot(y)
//	x + y, x - y, -x              x.Add(y), x.Sub(y), wide{}.Sub(x)
//	x & (x - 1)                   x.ClearFirst()
//	x << n, x >> n                x.Shl(uint(n)), x.Shr(uint(n))
//	^x                            x.Not()
//	x == 0, x != 0                x.IsZero(), !x.IsZero()
//	x op= y, x++, x--             x = x.Op(y), x = x.Add(wide{lo: 1}), ...
//	constant c                    wide{lo: c} (wide{} for 0)
//	1 << i                        wide{lo: 1}.Shl(uint(i))
//	Bitboard(e)                   e, or wide{lo: uint64(e)} for other integer types
//	Bitboard (as a type)          wide
//
// The copy means the source read with a 128-bit Bitboard: constants are folded with the
// narrow type only where the width cannot matter (a complement ^c or a reference to a
// renamed constant is rewritten instead). Package-level types, functions and (with
// -copy) constants and variables that are copied, or named in -rename, are referred to
// by their new names; everything else is shared with the narrow code. Constructs that
// cannot be rewritten faithfully (multiplication, ordered comparisons, conversions to
// other integer types, op-assignments to targets with side effects, ...) are errors
// reported with their position, never silently wrong output.
//
// Only the unexported code is copied: exported functions and methods are the public API,
// which works on every width and hands the work to one instance or the other, so they
// are shared; so are exported types, with their methods, and exported functions, unless
// -rename names them (an exported function so named is copied under its new name).
//
// The hot code may also live in another package than the representation it works on:
// with -narrow pkg.N -wide pkg.W, the bitboard types are those of the imported package
// pkg, and -rename pkg.Old=pkg.New entries give the wide twins of its objects that the
// copy uses (types, functions, constants). An object of pkg the copy refers to whose type
// is made with pkg.N or with a renamed type must be renamed so; the rest (pkg.Color,
// pkg.Game, ...) is shared. The wide type of another package has no exported low word,
// so the copy may use its zero value only (pkg.W{}): other constants, conversions of
// integers to N and ++/-- on N are errors there.
//
// Usage, from pkg/internal/board:
//
//	//go:generate go run ../widegen -narrow bitboard -wide wide -files movegen.go,perft.go -rename Position=widePosition -o wide_gen.go
//	//go:generate go run ../widegen -config widegen.conf
//
// Flags (the list flags may be repeated; their values add up):
//
//	-dir DIR          the package directory (default ".")
//	-narrow NAME      the narrow bitboard type (default Bitboard), or p.NAME: imported
//	-wide NAME        the hand-written 128-bit type (default wide), or p.NAME
//	-files a.go,...   the files whose top-level declarations are copied
//	-skip f,T,T.m,... unexported declarations of those files that stay shared (not copied)
//	-copy c,v,...     package-level consts and vars of those files to copy (shared otherwise)
//	-rename old=new   package-level objects to rename in the copy, copied or not
//	-rename p.Old=p.New  objects of the imported package p to refer to by another name
//	-prefix wide      the prefix of copied objects not in -rename (dedupe -> wideDedupe)
//	-o FILE           the output file, relative to -dir (default wide_gen.go)
//	-check            compare with FILE instead of writing it; exit status 1 if stale
//	-config FILE      read flags from FILE, relative to -dir: whitespace-separated
//	                  words, # to the end of a line is a comment
//
// Run with -check (in a test or CI) to verify that the committed file is up to date.
//
// The wide type must be a struct whose low 64 bits are the field lo: constants become
// wide{lo: c}. A conversion of a signed integer to the narrow type becomes
// wide{lo: uint64(e)}, without sign extension into the high word: the hot code converts
// non-negative values only.
//
// The output starts with the constraint //go:build !widegen, and the package is loaded
// with -tags=widegen, so that a stale generated file never takes part in its own
// generation. Type errors outside the copied declarations (hand-written code calling
// generated functions) are tolerated for the same reason.
package main
