package engine

import "github.com/rafle/rafle/pkg/internal/board"

// The types of the rules engine are declared here, where go doc and a documentation site
// show them with their fields and methods. The work is done by pkg/internal/board, whose
// types have the same memory layout (TestLayouts checks it field by field): a method here
// converts its arguments' pointers and hands the work to board's method, which the
// compiler inlines where it did before.

// Index is a square's bit position in the board's padded layout (0-79; see the package
// documentation). [Variant.Index] and [Variant.Square] convert between an Index and the
// [Square] number used in notation.
type Index uint8

// Square is a 1-based PDN square number.
type Square int

// Color is a side: [White] or [Black].
type Color uint8

// The sides (Color).
const (
	// White is the zero Color.
	White Color = iota
	// Black is the other side.
	Black
)

// Promotion says what happens to a man that reaches the far row in the middle of a capture.
// Outside a capture a man that ends its move on the far row is always crowned.
type Promotion uint8

// What a man does on reaching the far row during a capture (Promotion).
const (
	// PromoteAtEnd: the man goes on capturing as a man; it is crowned only if the move ends
	// on the far row (international, brazilian, pool: docs/rules.md).
	PromoteAtEnd Promotion = iota
	// PromoteAndStop: the man is crowned and the move ends there (english, italian).
	PromoteAndStop
	// PromoteAndContinue: the man is crowned at once and goes on capturing as a king
	// (russian).
	PromoteAndContinue
)

// Duplicates is the convention for capture sequences that take the same pieces, by the
// same piece, from the same square to the same square, in a different order (round a ring
// one way and the other). For the rules of the game they are one move; perft may count
// them apart ([PerftOptions]).
type Duplicates uint8

// The duplicates conventions of perft (Duplicates).
const (
	// Unique counts such sequences once: the rules' view, and the one Generate uses.
	Unique Duplicates = iota
	// Keep counts every order as its own move, as the published english lists do. A flying
	// king that may stop on several squares behind a piece and goes on straight ahead is
	// counted once, not once per square it could have stopped on (docs/rules.md#perft).
	Keep
	// Paths counts every path: every order, and a flying king that may stop on several
	// squares behind a piece and goes on straight ahead once per square it could have
	// stopped on, as the published turkish list (kish) does (docs/rules.md#perft).
	Paths
)

// CaptureSummary describes one complete capture sequence for a [Precedence] rule.
type CaptureSummary struct {
	// King: the capturing piece was a king when the move began.
	King bool
	// Pieces is the number of pieces captured.
	Pieces int
	// Kings is the number of kings among them.
	Kings int
	// Order has bit i set when the i-th piece captured (from 0) was a king.
	Order uint64
}

// Precedence ranks capture sequences: only the sequences of highest rank are legal. A nil
// Precedence is free choice among captures. The built-in ones are [MostPieces],
// [KingFirst], [MostPiecesThenKings], [ItalianPrecedence] and [FrisianPrecedence].
type Precedence func(CaptureSummary) uint64

// Material counts each side's men and kings, indexed by Color.
type Material struct {
	// Men and Kings are the numbers of men and of kings of each side.
	Men, Kings [2]int
}

// EndgameRule is a draw rule that starts counting in the first position where Holds is true
// and keeps counting while it stays true (docs/rules.md#common: a capture or promotion that
// keeps it true does not restart it). The game is drawn when Limit moves have been counted
// with the condition holding; Limit 0 draws at once.
type EndgameRule struct {
	// Reason names the draw, for instance "16-move-ending".
	Reason string
	// Holds reports whether the condition holds for a position with material m and which
	// side is the stronger one. Every special ending of the variants here is a matter of
	// material, which keeps the rule independent of the board's representation.
	Holds func(m Material) (holds bool, strong Color)
	// Limit is the number of counted moves after which the game is drawn.
	Limit int
	// StrongSideOnly counts only the stronger side's moves; otherwise every ply counts as
	// one.
	StrongSideOnly bool
}

// DrawRules are a variant's automatic draws. The zero value has none. Every field may be
// paired with any board: they are read by [Game], never by the move generator.
type DrawRules struct {
	// Repetition draws on the n-th occurrence of the same position with the same side to
	// move (3 in every variant here); 0 disables it. The start position counts as the
	// first.
	Repetition int
	// NoCapturePlies draws after this many consecutive plies without a capture (english:
	// 100).
	NoCapturePlies int
	// KingMovePlies draws after this many consecutive plies made by kings without a
	// capture (international: 50, that is 25 moves each).
	KingMovePlies int
	// Endgames are the special endings (at most four).
	Endgames []EndgameRule
}

// Rules describes a variant as data. The zero value of every field is the most common
// choice, so a variant states only what differs. Fields are read once by [NewVariant],
// which builds the tables the move generator uses; the generator never looks at a
// variant's name. docs/rules.md specifies each built-in variant with its sources.
type Rules struct {
	// Name is the registered name, such as "international".
	Name string
	// Aliases are other names Lookup accepts.
	Aliases []string
	// GameType is the PDN GameType number (PDN 3.0 standard, section GameType); 0 when PDN
	// has none (then rafle writes no GameType tag).
	GameType int
	// Width and Height are the board size in squares (8x8, 10x10, 12x12). The padded
	// layout (see Index) must fit 80 bits.
	Width, Height int
	// Rows is the number of rows of men each side has at the start.
	Rows int
	// FirstMover is the side that moves first (White unless stated).
	FirstMover Color
	// Mirrored boards have square 1 in the top-left corner (italian, spanish): White's
	// lower-left corner is not a playing square.
	Mirrored bool
	// Algebraic notation (c3-d4) instead of PDN square numbers.
	Algebraic bool
	// CaptureSep separates the squares of a capture in notation; 0 means 'x'. Russian uses
	// ':' (PDN 3.0, GameType table). Every separator is accepted on input.
	CaptureSep byte
	// ShortKings move and capture one square at a time; otherwise kings fly.
	ShortKings bool
	// MenCaptureForwardOnly: men capture forward only; otherwise forward and backward.
	MenCaptureForwardOnly bool
	// MenCannotCaptureKings: a man may not capture a king (italian).
	MenCannotCaptureKings bool
	// Promotion is what a man does when it reaches the far row during a capture.
	Promotion Promotion
	// Precedence chooses among capture sequences (nil: free choice).
	Precedence Precedence
	// RemoveAtOnce removes each captured piece as soon as it is jumped (thai); otherwise
	// captured pieces stay on the board until the move ends, block, and cannot be jumped
	// twice.
	RemoveAtOnce bool
	// LandRightBehind: a flying king that captures must land on the square right behind
	// the captured piece (thai).
	LandRightBehind bool
	// OrthogonalCaptures: pieces also capture along rows and columns (frisian).
	OrthogonalCaptures bool
	// Orthogonal: every square of the board is played, and pieces move and capture along
	// rows and columns only, never diagonally (turkish, docs/rules.md#turkish): men one
	// square forward or sideways (and capture so too under MenCaptureForwardOnly, otherwise
	// also backward), kings along the rows and columns. It needs OrthogonalCaptures, and a
	// board whose layout (every square, one ghost after each row) fits 80 bits.
	Orthogonal bool
	// DiagonalSteps: on an Orthogonal board, pieces also move along the diagonals without
	// capturing so (armenian, docs/rules.md#armenian): men one square diagonally forward
	// besides forward and sideways, kings any distance along the diagonals besides the rows
	// and columns; every capture stays along the rows and columns. It needs Orthogonal.
	DiagonalSteps bool
	// EmptyBackRow: each side's Rows rows of men start one row in from its edge, the back
	// row left empty (turkish: rows 2 and 3).
	EmptyBackRow bool
	// NoTurnBack: a king never turns back 180 degrees between two jumps of a capture, even
	// where captured pieces are removed at once (turkish); otherwise a flying king may then
	// capture back along the line it came from (thai).
	NoTurnBack bool
	// HaltBehindKing: a flying king whose capture ends by taking a king must stop on the
	// first free square behind that last king (killer draughts: "the king must stop on the
	// first vacant square after the last captured piece, if and only if that piece is also
	// a king", Christian Freeling, mindsports.nl). The king may still land further on to go
	// on capturing.
	HaltBehindKing bool
	// PromotionWins: the first side to crown a man wins (breakthrough). A position where
	// the side that just moved has a king is over: the side to move has no legal move.
	PromotionWins bool
	// NoMoveWins: a side with no legal move (no piece left, or every piece blocked) wins
	// instead of losing (antidraughts). It excludes PromotionWins.
	NoMoveWins bool
	// KingMoveLimit: a side that still has men may make at most this many non-capturing
	// moves in a row with the same king (frisian: 3); 0 is no limit. The limit depends on
	// the moves before, so Generate ignores it: Game, the searcher and the PDN replayer
	// apply it (see KingRun).
	KingMoveLimit int
	// Draw holds the automatic draw rules.
	Draw DrawRules
	// PerftDuplicates is the duplicate-capture convention of the variant's published perft
	// lists, the default of the perft command. It is not a rule of the game: for the rules
	// the orders are one move (see Duplicates).
	PerftDuplicates Duplicates
}

// Variant is a Rules value with the tables the move generator needs. Build one with
// NewVariant or take a registered one with Lookup; a Variant is immutable and safe for
// concurrent use. Its methods generate and play moves, count them (perft), and read and
// write positions and moves in text.
type Variant struct {
	// Rules are the rules the variant was built from; do not change them.
	Rules
	t board.Tables
}

// Position is a board and the side to move: a small comparable value. Positions are
// copy-make: Play returns a new Position and leaves its receiver untouched. Position does
// not know its variant; the Variant that generated a move knows the board.
//
// The zero Position is an empty board with White to move. [Variant.Start] and
// [Variant.ParseFEN] give real ones; [Position.At] and [Position.Material] read the
// pieces on every board.
type Position struct {
	pieces [2]uint64 // each side's pieces of index below 64
	kings  uint64    // the kings of both sides, index below 64
	// Side is the side to move.
	Side Color
	high [3]uint16 // the squares of index 64 to 79: white, black, kings
	// Hash is the Zobrist key of the position, kept up to date by Play.
	Hash uint64
}

// Move is a move: the piece on From goes to To and the captured pieces are removed. Two
// capture paths that take the same pieces from the same square to the same square are the
// same Move; [Variant.Paths] recovers the paths for notation. Moves are comparable: two
// moves of a position are equal when they are the same move.
type Move struct {
	// From and To are the squares the piece starts and ends on (equal for a capture that
	// comes back to its square).
	From, To Index
	flags    uint32 // crowned, and the captured squares of index 64 and above
	captured uint64 // the captured squares of index below 64
}

// SquarePair is a move written with two square numbers, a capture when Capture is set, as
// [Variant.PlaySquarePairs] plays it.
type SquarePair struct {
	// From and To are the square numbers (at most 255).
	From, To uint8
	// Capture is set for a capture ("x" in notation).
	Capture bool
}

// Outcome is the state of a game under its variant's rules.
type Outcome struct {
	// Over is set when the game has ended.
	Over bool
	// Draw is set for a drawn game; otherwise Winner won.
	Draw   bool
	Winner Color
	// Reason says why: "no-legal-move" for the side to move without a legal move (a loss,
	// or a win where Rules.NoMoveWins), "promotion" for a man crowned where
	// Rules.PromotionWins, or the draw rule that applied ("repetition", "no-capture-100",
	// "king-moves-50", or an EndgameRule's Reason).
	Reason string
}

// Game is a position with its history: the moves played, and the state the draw rules need
// (repetitions, the move counters). Positions do not carry that state; games do. Start one
// with [NewGame].
type Game struct{ g board.Game }

// KingRun is the state of Rules.KingMoveLimit for both sides: where the king that made a
// side's last moves stands, and how many non-capturing moves in a row it has made. A
// Position does not hold it, since it depends on the moves before; Game, the searcher and
// the PDN replayer carry it along. The zero value is the state at the start of a game.
type KingRun struct{ r board.KingRun }

// FENError is a FEN that cannot be read. It unwraps to [ErrInvalidFEN].
type FENError struct {
	// FEN is the text read.
	FEN string
	// Token is the offending part ("" when the FEN as a whole is wrong).
	Token string
	// Msg says what is wrong.
	Msg string
}

// MoveError is a move text that cannot be resolved. It unwraps to Err.
type MoveError struct {
	// Text is the move as written.
	Text string
	// Err is ErrInvalidMove, ErrIllegalMove or ErrAmbiguousMove.
	Err error
	// Detail says more, or is "".
	Detail string
	// Candidates lists, for an ambiguous move, the full paths of the legal moves it fits.
	Candidates []string
}

// PerftOptions are the settings of a perft run. The zero value counts unique moves on one
// thread without a hash table.
type PerftOptions struct {
	// Duplicates is the duplicate-capture convention.
	Duplicates Duplicates
	// Threads is the number of goroutines (0 or 1: one).
	Threads int
	// HashMB is the size of the transposition table in MiB, one table for all the threads
	// (0: none).
	HashMB int
	// Table, when not nil, is the transposition table, instead of a new one of HashMB.
	Table *PerftTable
}

// PerftTable is a transposition table that several perft runs share (see
// PerftOptions.Table), made once by [NewPerftTable]: each run finds the counts of the runs
// before it. The runs that share a table must have the same variant and the same duplicate
// convention.
type PerftTable struct{ t board.PerftTable }

// DivideEntry is one root move and the number of leaves below it ([Variant.Divide]).
type DivideEntry struct {
	// Move is the root move, Nodes the number of leaves below it.
	Move  Move
	Nodes uint64
}

// PerftCase is one row of a perft suite: a published count with its source
// ([ReadPerftSuite]).
type PerftCase struct {
	// Variant is the variant of the row.
	Variant *Variant
	// Position names the position: "start", "Woldouby", ...
	Position string
	// FEN is the position.
	FEN string
	// Depth is the depth counted, Nodes the count published.
	Depth int
	Nodes uint64
	// Duplicates is "keep", "unique", "paths" or "both" (the count holds for keep and
	// unique).
	Duplicates string
	// Source names the publisher, Confidence how sure the count is.
	Source     string
	Confidence string
	// Line is the line of the row in the suite file.
	Line int
}

// The errors of the engine, which its error values wrap (errors.Is).
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
