package engine

import (
	"io"

	"github.com/rafle/rafle/pkg/internal/board"
)

// The rules engine is implemented in pkg/internal/board, on whose representation the
// search (pkg/search/internal/core) works; this package names its public API. The types are aliases, so their methods
// and fields are board's, documented there (go doc ./pkg/internal/board Variant).

// Index is a square's bit position in the board's padded layout (0-79; see the package
// documentation). Square is the PDN square number used at the API; Variant.Index and
// Variant.Square convert between them.
type Index = board.Index

// Square is a 1-based PDN square number.
type Square = board.Square

// Variant is a Rules value with the tables the move generator needs. Build one with
// NewVariant or take a registered one with Lookup; a Variant is immutable and safe for
// concurrent use.
//
// Fields: Rules (embedded).
//
// Methods (go doc ./pkg/internal/board Variant): AlgebraicName, CheckKingRun, Count,
// Divide, FEN, FormatMove, FormatPath, Generate, GenerateDup, HasCapture, HasMoves, Index,
// IsPath, MovesFromTo, ParseFEN, ParseMove, ParseSquare, Paths, Perft, PlayJump, PlayPath,
// PlayQuiet, PlaySquarePairs, PlaySquares, PositionOutcome, QuietMove, Square, SquareName,
// Squares, Start.
type Variant = board.Variant

// SquarePair is a move written with two square numbers, a capture when Capture is set
// (Variant.PlaySquarePairs).
//
// Fields: From, To, Capture.
type SquarePair = board.SquarePair

// FENError is a FEN that cannot be read; Token is the offending part.
//
// Fields: FEN, Token, Msg.
//
// Methods (go doc ./pkg/internal/board FENError): Error, Unwrap.
type FENError = board.FENError

// Outcome is the state of a game under its variant's rules.
//
// Fields: Over, Draw, Winner, Reason.
//
// Methods (go doc ./pkg/internal/board Outcome): String.
type Outcome = board.Outcome

// Game is a position with its history: the moves played, and the state the draw rules need
// (repetitions, the move counters). Positions do not carry that state; games do.
//
// Methods (go doc ./pkg/internal/board Game): Legal, Moves, Outcome, Play, PlayText, Ply,
// Position, Positions, Start, Variant.
type Game = board.Game

// KingRun is the state of Rules.KingMoveLimit for both sides: where the king that made a
// side's last moves stands, and how many non-capturing moves in a row it has made. A
// Position does not hold it, since it depends on the moves before; Game, the searcher and
// the PDN replayer carry it along. The zero value is the state at the start of a game.
//
// Methods (go doc ./pkg/internal/board KingRun): Next.
type KingRun = board.KingRun

// Duplicates is the convention for capture sequences that take the same pieces, by the
// same piece, from the same square to the same square, in a different order (round a ring
// one way and the other). For the rules of the game they are one move.
//
// Methods (go doc ./pkg/internal/board Duplicates): String.
type Duplicates = board.Duplicates

// MoveError is a move text that cannot be resolved. Candidates lists, for an ambiguous
// move, the full paths of the legal moves it fits.
//
// Fields: Text, Err, Detail, Candidates.
//
// Methods (go doc ./pkg/internal/board MoveError): Error, Unwrap.
type MoveError = board.MoveError

// PerftOptions are the settings of a perft run. The zero value counts unique moves on one
// thread without a hash table.
//
// Fields (go doc ./pkg/internal/board PerftOptions): Duplicates, Threads, HashMB, Table.
type PerftOptions = board.PerftOptions

// PerftTable is a transposition table that several perft runs share (see
// PerftOptions.Table), made once: each run finds the counts of the runs before it. The runs
// that share a table must have the same variant and the same duplicate convention.
//
// Methods (go doc ./pkg/internal/board PerftTable): Clear.
type PerftTable = board.PerftTable

// DivideEntry is one root move and the number of leaves below it.
//
// Fields (go doc ./pkg/internal/board DivideEntry): Move, Nodes.
type DivideEntry = board.DivideEntry

// Position is a board and the side to move: a small comparable value. Positions are
// copy-make: Play returns a new Position and leaves its receiver untouched. Position does
// not know its variant; the Variant that generated a move knows the board.
//
// At, Material and Equal read the pieces on every board.
//
// Fields: Side, Hash.
//
// Methods (go doc ./pkg/internal/board Position): At, ComputeHash, Equal, Material, Play, Put,
// Sets.
type Position = board.Position

// Move is a move: the piece on From goes to To and the captured pieces are removed. Two
// capture paths that take the same pieces from the same square to the same square are the
// same Move; Variant.Paths recovers the paths for notation.
//
// Fields: From, To.
//
// Methods (go doc ./pkg/internal/board Move): CaptureCount, Captured, IsCapture, Promotes.
type Move = board.Move

// Color is a side: White or Black.
//
// Methods (go doc ./pkg/internal/board Color): Other, String.
type Color = board.Color

// Promotion says what happens to a man that reaches the far row in the middle of a capture.
// Outside a capture a man that ends its move on the far row is always crowned.
type Promotion = board.Promotion

// CaptureSummary describes one complete capture sequence for a precedence rule.
//
// Fields (go doc ./pkg/internal/board CaptureSummary): King, Pieces, Kings, Order.
type CaptureSummary = board.CaptureSummary

// Precedence ranks capture sequences: only the sequences of highest rank are legal. A nil
// Precedence is free choice among captures.
type Precedence = board.Precedence

// EndgameRule is a draw rule that starts counting in the first position where Holds is true
// and keeps counting while it stays true (docs/rules.md#common: a capture or promotion that keeps it true
// does not restart it). The game is drawn when Limit moves have been counted with the
// condition holding; Limit 0 draws at once.
//
// Fields (go doc ./pkg/internal/board EndgameRule): Reason, Holds, Limit, StrongSideOnly.
type EndgameRule = board.EndgameRule

// Material counts each side's men and kings, indexed by Color.
//
// Fields: Men, Kings.
//
// Methods (go doc ./pkg/internal/board Material): Pieces.
type Material = board.Material

// DrawRules are a variant's automatic draws. The zero value has none. Every field may be
// paired with any board: they are read by Game, never by the move generator.
//
// Fields (go doc ./pkg/internal/board DrawRules): Repetition, NoCapturePlies,
// KingMovePlies, Endgames.
type DrawRules = board.DrawRules

// Rules describes a variant as data. The zero value of every field is the most common
// choice, so a variant states only what differs. Fields are read once by NewVariant, which
// builds the tables the move generator uses; the generator never looks at a variant's name.
//
// Fields: Name, Aliases, GameType, Width, Height, Rows, FirstMover, Mirrored, Algebraic,
// CaptureSep, ShortKings, MenCaptureForwardOnly, MenCannotCaptureKings, Promotion,
// Precedence, RemoveAtOnce, LandRightBehind, OrthogonalCaptures, Orthogonal, DiagonalSteps,
// EmptyBackRow, NoTurnBack, HaltBehindKing, PromotionWins, NoMoveWins, KingMoveLimit, Draw,
// PerftDuplicates.
//
// Methods (go doc ./pkg/internal/board Rules): KingCanReverse.
type Rules = board.Rules

// PerftCase is one row of a perft suite: a published count with its source.
//
// Fields: Variant, Position, FEN, Depth, Nodes, Duplicates, Source, Confidence, Line.
//
// Methods (go doc ./pkg/internal/board PerftCase): Conventions.
type PerftCase = board.PerftCase

// The duplicates conventions of perft (Duplicates).
const (
	// Unique counts such sequences once: the rules' view, and the one Generate uses.
	Unique = board.Unique
	// Keep counts every order as its own move, as the published english lists do. A flying
	// king that may stop on several squares behind a piece and goes on straight ahead is
	// counted once, not once per square it could have stopped on (docs/rules.md#perft).
	Keep = board.Keep
	// Paths counts every path: every order, and a flying king that may stop on several
	// squares behind a piece and goes on straight ahead once per square it could have
	// stopped on, as the published turkish list (kish) does (docs/rules.md#perft).
	Paths = board.Paths
)

// The sides (Color).
const (
	// White is the zero Color.
	White = board.White
	// Black is the other side.
	Black = board.Black
)

// What a man does on reaching the far row during a capture (Promotion).
const (
	// PromoteAtEnd: the man goes on capturing as a man; it is crowned only if the move ends
	// on the far row (international, brazilian, pool: docs/rules.md).
	PromoteAtEnd = board.PromoteAtEnd
	// PromoteAndStop: the man is crowned and the move ends there (english, italian).
	PromoteAndStop = board.PromoteAndStop
	// PromoteAndContinue: the man is crowned at once and goes on capturing as a king
	// (russian).
	PromoteAndContinue = board.PromoteAndContinue
)

var (
	// ErrUnsupported is returned by NewVariant for rules the generator cannot play yet.
	ErrUnsupported = board.ErrUnsupported
	// ErrInvalidFEN is the sentinel every FEN error unwraps to.
	ErrInvalidFEN = board.ErrInvalidFEN
	// ErrInvalidMove: the text is not a move (syntax, unknown square).
	ErrInvalidMove = board.ErrInvalidMove
	// ErrIllegalMove: a well-formed move that is not legal in the position.
	ErrIllegalMove = board.ErrIllegalMove
	// ErrAmbiguousMove: a short capture that fits more than one legal capture.
	ErrAmbiguousMove = board.ErrAmbiguousMove
)

// NewVariant checks r and builds the tables the move generator reads; an error says what
// is wrong, and wraps ErrUnsupported for rules the generator cannot play yet. The variant is
// not registered (see Register).
func NewVariant(r Rules) (*Variant, error) { return board.NewVariant(r) }

// NewGame starts a game of v from start (v.Start() for the initial position). The start
// position counts as the first occurrence for repetitions.
func NewGame(v *Variant, start Position) *Game { return board.NewGame(v, start) }

// GameTypeName returns the name of the game PDN GameType n stands for: the
// PDN 3.0 table's name, else the name of the variant registered under n
// (lidraughts' 96-98, which the table lacks), else "".
func GameTypeName(n int) string { return board.GameTypeName(n) }

// NewPerftTable returns a table of mb MiB (at least 1).
func NewPerftTable(mb int) *PerftTable { return board.NewPerftTable(mb) }

// KingFirst: when a king can capture, a king must capture; otherwise free choice (czech).
func KingFirst(s CaptureSummary) uint64 { return board.KingFirst(s) }

// MostPiecesThenKings: the most pieces, then among those the most kings (spanish).
func MostPiecesThenKings(s CaptureSummary) uint64 { return board.MostPiecesThenKings(s) }

// ItalianPrecedence ranks captures by the Italian rules (FID regolamento, art. 6): the most
// pieces; then a capture by a king rather than by a man; then the most kings; then the
// sequence that meets the kings first (compared capture by capture).
func ItalianPrecedence(s CaptureSummary) uint64 { return board.ItalianPrecedence(s) }

// FrisianPrecedence ranks captures by the frisian rules (KNDB spelregels, art. 11): the
// highest value, where n kings are worth more than 2n-1 men and less than 2n men (here a
// man counts 64 and a king 127, exact up to 64 kings); at equal value, a capture by a king.
func FrisianPrecedence(s CaptureSummary) uint64 { return board.FrisianPrecedence(s) }

// MostPieces is the majority rule: the sequence that captures the largest number of pieces,
// men and kings counting the same (international, brazilian, canadian: docs/rules.md).
func MostPieces(s CaptureSummary) uint64 { return board.MostPieces(s) }

// ReadPerftSuite reads a perft suite in the tab-separated format of corpus/perft: a header
// line "position fen depth nodes duplicates source confidence", rows, and '#' comments.
// variant names the variant of every row; name is used in error messages.
func ReadPerftSuite(r io.Reader, name string, variant *Variant) ([]PerftCase, error) {
	return board.ReadPerftSuite(r, name, variant)
}

// Register adds v to the registry under its name, its aliases and its GameType. It panics
// when a name or GameType is already taken (a programming error).
func Register(v *Variant) { board.Register(v) }

// Lookup returns the variant registered under name (case-insensitive, aliases accepted) or
// under a PDN GameType number given as a string ("20", or a full "20,W,10,10,N2,0"). The
// board size of a full GameType must be the variant's; "0,0" counts as no size, as some
// programs write it. The other fields of a full GameType are not checked.
func Lookup(name string) (*Variant, error) { return board.Lookup(name) }

// Variants returns the registered variants in registration order.
func Variants() []*Variant { return board.Variants() }

// Names returns the names of the registered variants.
func Names() []string { return board.Names() }

// MustLookup is Lookup for names known to exist; it panics otherwise.
func MustLookup(name string) *Variant { return board.MustLookup(name) }
