package engine

import (
	"iter"
	"unsafe"

	"github.com/rafle/rafle/pkg/internal/board"
)

// The conversions between this package's types and board's. Each pair has the same memory
// layout, field for field (TestLayouts), so that a pointer to one is a valid pointer to the
// other (rule 1 of unsafe.Pointer): a conversion costs nothing, and a slice of moves or
// positions is shared, not copied.

func bv(v *Variant) *board.Variant            { return (*board.Variant)(unsafe.Pointer(v)) }
func ev(v *board.Variant) *Variant            { return (*Variant)(unsafe.Pointer(v)) }
func bp(p *Position) *board.Position          { return (*board.Position)(unsafe.Pointer(p)) }
func bpos(p Position) board.Position          { return *(*board.Position)(unsafe.Pointer(&p)) }
func epos(p board.Position) Position          { return *(*Position)(unsafe.Pointer(&p)) }
func bmove(m Move) board.Move                 { return *(*board.Move)(unsafe.Pointer(&m)) }
func emove(m board.Move) Move                 { return *(*Move)(unsafe.Pointer(&m)) }
func bg(g *Game) *board.Game                  { return &g.g }
func eg(g *board.Game) *Game                  { return (*Game)(unsafe.Pointer(g)) }
func brules(r *Rules) *board.Rules            { return (*board.Rules)(unsafe.Pointer(r)) }
func boutcome(o Outcome) board.Outcome        { return *(*board.Outcome)(unsafe.Pointer(&o)) }
func eoutcome(o board.Outcome) Outcome        { return *(*Outcome)(unsafe.Pointer(&o)) }
func bopts(o PerftOptions) board.PerftOptions { return *(*board.PerftOptions)(unsafe.Pointer(&o)) }
func bcase(c PerftCase) board.PerftCase       { return *(*board.PerftCase)(unsafe.Pointer(&c)) }

// The slices: the same slice header over elements of the same layout.

func bmoves(s []Move) []board.Move                { return *(*[]board.Move)(unsafe.Pointer(&s)) }
func emoves(s []board.Move) []Move                { return *(*[]Move)(unsafe.Pointer(&s)) }
func epositions(s []board.Position) []Position    { return *(*[]Position)(unsafe.Pointer(&s)) }
func bsquares(s []Square) []board.Square          { return *(*[]board.Square)(unsafe.Pointer(&s)) }
func bindices(s []Index) []board.Index            { return *(*[]board.Index)(unsafe.Pointer(&s)) }
func bpairs(s []SquarePair) []board.SquarePair    { return *(*[]board.SquarePair)(unsafe.Pointer(&s)) }
func epaths(s [][]board.Square) [][]Square        { return *(*[][]Square)(unsafe.Pointer(&s)) }
func edivide(s []board.DivideEntry) []DivideEntry { return *(*[]DivideEntry)(unsafe.Pointer(&s)) }
func edups(s []board.Duplicates) []Duplicates     { return *(*[]Duplicates)(unsafe.Pointer(&s)) }
func ecases(s []board.PerftCase) []PerftCase      { return *(*[]PerftCase)(unsafe.Pointer(&s)) }
func evariants(s []*board.Variant) []*Variant     { return *(*[]*Variant)(unsafe.Pointer(&s)) }

// eindices is seq over this package's Index.
func eindices(seq iter.Seq[board.Index]) iter.Seq[Index] {
	return func(yield func(Index) bool) {
		for i := range seq {
			if !yield(Index(i)) {
				return
			}
		}
	}
}

// eerr returns err with board's error types as this package's, for errors.As.
func eerr(err error) error {
	switch e := err.(type) {
	case *board.FENError:
		return (*FENError)(e)
	case *board.MoveError:
		return (*MoveError)(e)
	}
	return err
}
