package board

import "math/bits"

// Color is a side: White or Black.
type Color uint8

const (
	// White is the zero Color.
	White Color = iota
	// Black is the other side.
	Black
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Promotion says what happens to a man that reaches the far row in the middle of a capture.
// Outside a capture a man that ends its move on the far row is always crowned.
type Promotion uint8

const (
	// PromoteAtEnd: the man goes on capturing as a man; it is crowned only if the move ends on
	// the far row (international, brazilian, pool: docs/rules.md).
	PromoteAtEnd Promotion = iota
	// PromoteAndStop: the man is crowned and the move ends there (english, italian).
	PromoteAndStop
	// PromoteAndContinue: the man is crowned at once and goes on capturing as a king (russian).
	PromoteAndContinue
)

// CaptureSummary describes one complete capture sequence for a precedence rule.
type CaptureSummary struct {
	King   bool   // the capturing piece was a king when the move began
	Pieces int    // number of pieces captured
	Kings  int    // number of kings among them
	Order  uint64 // bit i set when the i-th piece captured (from 0) was a king
}

// Precedence ranks capture sequences: only the sequences of highest rank are legal. A nil
// Precedence is free choice among captures.
type Precedence func(CaptureSummary) uint64

// KingFirst: when a king can capture, a king must capture; otherwise free choice (czech).
func KingFirst(s CaptureSummary) uint64 {
	if s.King {
		return 1
	}
	return 0
}

// MostPiecesThenKings: the most pieces, then among those the most kings (spanish).
func MostPiecesThenKings(s CaptureSummary) uint64 { return uint64(s.Pieces)<<32 | uint64(s.Kings) }

// ItalianPrecedence ranks captures by the Italian rules (FID regolamento, art. 6): the most
// pieces; then a capture by a king rather than by a man; then the most kings; then the
// sequence that meets the kings first (compared capture by capture).
func ItalianPrecedence(s CaptureSummary) uint64 {
	king := uint64(0)
	if s.King {
		king = 1
	}
	first := uint64(bits.Reverse32(uint32(s.Order))) // earlier kings give a larger number
	return uint64(s.Pieces)<<48 | king<<40 | uint64(s.Kings)<<32 | first
}

// FrisianPrecedence ranks captures by the frisian rules (KNDB spelregels, art. 11): the
// highest value, where n kings are worth more than 2n-1 men and less than 2n men (here a
// man counts 64 and a king 127, exact up to 64 kings); at equal value, a capture by a king.
func FrisianPrecedence(s CaptureSummary) uint64 {
	king := uint64(0)
	if s.King {
		king = 1
	}
	return (uint64(s.Pieces-s.Kings)*64+uint64(s.Kings)*127)<<1 | king
}

// MostPieces is the majority rule: the sequence that captures the largest number of pieces,
// men and kings counting the same (international, brazilian, canadian: docs/rules.md).
func MostPieces(s CaptureSummary) uint64 { return uint64(s.Pieces) }

// EndgameRule is a draw rule that starts counting in the first position where Holds is true
// and keeps counting while it stays true (docs/rules.md#common: a capture or promotion that keeps it true
// does not restart it). The game is drawn when Limit moves have been counted with the
// condition holding; Limit 0 draws at once.
type EndgameRule struct {
	// Reason names the draw, for instance "16-move-ending".
	Reason string
	// Holds reports whether the condition holds for a position with material m and which
	// side is the stronger one. Every special ending of the variants here is a matter of
	// material, which keeps the rule independent of the board's representation.
	Holds func(m Material) (holds bool, strong Color)
	// Limit is the number of counted moves after which the game is drawn.
	Limit int
	// StrongSideOnly counts only the stronger side's moves; otherwise every ply counts as one.
	StrongSideOnly bool
}

// Material counts each side's men and kings, indexed by Color.
type Material struct {
	Men, Kings [2]int
}

// Pieces returns c's men and kings together.
func (m Material) Pieces(c Color) int { return m.Men[c] + m.Kings[c] }

// DrawRules are a variant's automatic draws. The zero value has none. Every field may be
// paired with any board: they are read by Game, never by the move generator.
type DrawRules struct {
	// Repetition draws on the n-th occurrence of the same position with the same side to
	// move (3 in every variant here); 0 disables it. The start position counts as the first.
	Repetition int
	// NoCapturePlies draws after this many consecutive plies without a capture (english: 100).
	NoCapturePlies int
	// KingMovePlies draws after this many consecutive plies made by kings without a capture
	// (international: 50, that is 25 moves each).
	KingMovePlies int
	// Endgames are the special endings (at most four).
	Endgames []EndgameRule
}

// Rules describes a variant as data. The zero value of every field is the most common
// choice, so a variant states only what differs. Fields are read once by NewVariant, which
// builds the tables the move generator uses; the generator never looks at a variant's name.
type Rules struct {
	// Name is the registered name, such as "international".
	Name string
	// Aliases are other names Lookup accepts.
	Aliases []string
	// GameType is the PDN GameType number (PDN 3.0 standard, section GameType).
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
	// captured pieces stay on the board until the move ends, block, and cannot be jumped twice.
	RemoveAtOnce bool
	// LandRightBehind: a flying king that captures must land on the square right behind
	// the captured piece (thai).
	LandRightBehind bool
	// OrthogonalCaptures: pieces also capture along rows and columns (frisian).
	OrthogonalCaptures bool
	// Orthogonal: every square of the board is played, and pieces move and capture along
	// rows and columns only, never diagonally (turkish, docs/rules.md#turkish): men one
	// square forward or sideways (and capture so too under MenCaptureForwardOnly, otherwise
	// also backward), kings along the rows and columns. It needs OrthogonalCaptures, whose
	// capture search it uses, and a board whose layout (every square, one ghost after each
	// row) fits 80 bits; such a board is always played by the 128-bit instance.
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
	// a king", Christian Freeling, mindsports.nl). Only where the capture ends is
	// restricted: the king may still land further on to go on capturing, and since the
	// square right behind is always free the precedence rule is unchanged.
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

// KingCanReverse reports whether a flying king may capture back along the line it came from
// during a sequence: only when captured pieces are removed at once, so that the square of
// the piece just taken is free again, and the rules do not forbid it (NoTurnBack).
func (r *Rules) KingCanReverse() bool { return r.RemoveAtOnce && !r.ShortKings && !r.NoTurnBack }
