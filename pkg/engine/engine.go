package engine

import (
	"io"
	"unsafe"

	"github.com/rafle/rafle/pkg/internal/board"
)

// NewVariant checks r and builds the tables the move generator reads; an error says what
// is wrong, and wraps ErrUnsupported for rules the generator cannot play yet. The variant is
// not registered (see Register).
func NewVariant(r Rules) (*Variant, error) {
	v, err := board.NewVariant(*brules(&r))
	return ev(v), err
}

// NewGame starts a game of v from start (v.Start() for the initial position). The start
// position counts as the first occurrence for repetitions.
func NewGame(v *Variant, start Position) *Game { return eg(board.NewGame(bv(v), bpos(start))) }

// GameTypeName returns the name of the game PDN GameType n stands for: the
// PDN 3.0 table's name, else the name of the variant registered under n
// (lidraughts' 96-98, which the table lacks), else "".
func GameTypeName(n int) string { return board.GameTypeName(n) }

// NewPerftTable returns a table of mb MiB (at least 1).
func NewPerftTable(mb int) *PerftTable {
	return (*PerftTable)(unsafe.Pointer(board.NewPerftTable(mb)))
}

// KingFirst: when a king can capture, a king must capture; otherwise free choice (czech).
func KingFirst(s CaptureSummary) uint64 { return board.KingFirst(board.CaptureSummary(s)) }

// MostPiecesThenKings: the most pieces, then among those the most kings (spanish).
func MostPiecesThenKings(s CaptureSummary) uint64 {
	return board.MostPiecesThenKings(board.CaptureSummary(s))
}

// ItalianPrecedence ranks captures by the Italian rules (FID regolamento, art. 6): the most
// pieces; then a capture by a king rather than by a man; then the most kings; then the
// sequence that meets the kings first (compared capture by capture).
func ItalianPrecedence(s CaptureSummary) uint64 {
	return board.ItalianPrecedence(board.CaptureSummary(s))
}

// FrisianPrecedence ranks captures by the frisian rules (KNDB spelregels, art. 11): the
// highest value, where n kings are worth more than 2n-1 men and less than 2n men (here a
// man counts 64 and a king 127, exact up to 64 kings); at equal value, a capture by a king.
func FrisianPrecedence(s CaptureSummary) uint64 {
	return board.FrisianPrecedence(board.CaptureSummary(s))
}

// MostPieces is the majority rule: the sequence that captures the largest number of pieces,
// men and kings counting the same (international, brazilian, canadian: docs/rules.md).
func MostPieces(s CaptureSummary) uint64 { return board.MostPieces(board.CaptureSummary(s)) }

// ReadPerftSuite reads a perft suite in the tab-separated format of corpus/perft: a header
// line "position fen depth nodes duplicates source confidence", rows, and '#' comments.
// variant names the variant of every row; name is used in error messages.
func ReadPerftSuite(r io.Reader, name string, variant *Variant) ([]PerftCase, error) {
	cases, err := board.ReadPerftSuite(r, name, bv(variant))
	return ecases(cases), err
}

// Register adds v to the registry under its name, its aliases and its GameType. It panics
// when a name or GameType is already taken (a programming error).
func Register(v *Variant) { board.Register(bv(v)) }

// Lookup returns the variant registered under name (case-insensitive, aliases accepted) or
// under a PDN GameType number given as a string ("20", or a full "20,W,10,10,N2,0"). The
// board size of a full GameType must be the variant's; "0,0" counts as no size, as some
// programs write it. The other fields of a full GameType are not checked.
func Lookup(name string) (*Variant, error) {
	v, err := board.Lookup(name)
	return ev(v), err
}

// Variants returns the registered variants in registration order.
func Variants() []*Variant { return evariants(board.Variants()) }

// Names returns the names of the registered variants.
func Names() []string { return board.Names() }

// MustLookup is Lookup for names known to exist; it panics otherwise.
func MustLookup(name string) *Variant { return ev(board.MustLookup(name)) }
