package board

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The built-in variants are specified in docs/rules.md, one section per variant
// (docs/rules.md#english ...), each rule with its source: the rules specification written
// from the seed texts for english, international, russian and brazilian, the official rules
// where it is silent; for the others the perft rule points (docs/rules.md#perft), proved by
// the published perft counts, and the PDN 3.0 GameType table; their draw rules are cited at
// each variant. Every variant draws on the third occurrence of a position (the start
// counting as the first): where a federation's text was not found, that is the only
// automatic draw (docs/rules.md#common).
var builtin = []Rules{
	{
		// English draughts / American checkers (docs/rules.md#english: seeds 001 and 003).
		Name:                  "english",
		Aliases:               []string{"checkers", "american", "en"},
		GameType:              21,
		Width:                 8,
		Height:                8,
		Rows:                  3,
		FirstMover:            Black, // decision (docs/rules.md#english): Black (dark) moves first (PDN standard)
		ShortKings:            true,
		MenCaptureForwardOnly: true,
		Promotion:             PromoteAndStop,
		Draw: DrawRules{
			Repetition:     3,   // seed 003: third occurrence, the start counting as the first
			NoCapturePlies: 100, // seed 003: 50 moves each without a capture
		},
		PerftDuplicates: Keep, // the published lists (OEIS A133046, Bik, Cake, dctl) count every order
	},
	{
		// International draughts (docs/rules.md#international: seed 002).
		Name:       "international",
		Aliases:    []string{"intl", "10x10", "polish"},
		GameType:   20,
		Width:      10,
		Height:     10,
		Rows:       4,
		Precedence: MostPieces,
		Draw: DrawRules{
			Repetition:    3,
			KingMovePlies: 50, // 25 moves each with kings only and no capture
			Endgames: []EndgameRule{{
				Reason:         "16-move-ending",
				Holds:          loneKingAgainstThree,
				Limit:          32, // 16 moves each
				StrongSideOnly: false,
			}},
		},
		PerftDuplicates: Unique, // the published lists (BikDam, dctl, damforum t=2308) count once
	},
	{
		// Russian draughts, shashki (docs/rules.md#russian: seed 004).
		Name:       "russian",
		Aliases:    []string{"shashki", "ru"},
		GameType:   25,
		Width:      8,
		Height:     8,
		Rows:       3,
		Algebraic:  true,
		CaptureSep: ':', // PDN 3.0 GameType table: ':' for russian
		Promotion:  PromoteAndContinue,
		Draw: DrawRules{
			Repetition: 3,
			Endgames: []EndgameRule{{
				Reason:         "three-kings-15-moves",
				Holds:          threeKingsAgainstLoneKing,
				Limit:          15, // the stronger side's 15th move
				StrongSideOnly: true,
			}},
		},
		// Both lists are published; rafle's default is keep, the list with most sources at
		// depth 8 (dctl, Kallisto, Kodra: corpus/perft/russian.tsv).
		PerftDuplicates: Keep,
	},
	{
		// Brazilian draughts: the international rules on 8x8 (docs/rules.md#brazilian: seed 000).
		Name:       "brazilian",
		Aliases:    []string{"brazil", "br"},
		GameType:   26,
		Width:      8,
		Height:     8,
		Rows:       3,
		Algebraic:  true,
		Precedence: MostPieces,
		Draw: DrawRules{
			Repetition: 3,
			Endgames: []EndgameRule{{
				Reason: "one-king-each",
				Holds:  oneKingEach,
				Limit:  0, // an immediate draw
			}},
		},
		// Both lists are published (dctl); rafle's default is keep, as for russian.
		PerftDuplicates: Keep,
	},
	{
		// American pool checkers: PDN GameType 23 ("23,B,8,8,N1,0": Black first, numbered as
		// english). Men capture backward, kings fly, free choice, and a man that passes the
		// crown row during a capture stays a man (docs/rules.md#pool: perft rule points 2-4).
		Name:       "pool",
		Aliases:    []string{"american-pool"},
		GameType:   23,
		Width:      8,
		Height:     8,
		Rows:       3,
		FirstMover: Black,
		Draw: DrawRules{
			Repetition: 3,
			// APCA Playing Rules: a player with three kings against a lone king must win
			// within thirteen moves (even if the fourteenth would be a capture).
			Endgames: []EndgameRule{{
				Reason:         "three-kings-13-moves",
				Holds:          kingsAgainstLoneKing(3),
				Limit:          13,
				StrongSideOnly: true,
			}},
		},
		PerftDuplicates: Keep, // both lists are published (dctl); keep as for russian
	},
	{
		// Czech draughts: GameType 29 ("29,W,8,8,A0,0"). Men capture forward only, kings fly,
		// and when a king can capture a king must (docs/rules.md#czech: perft rule point 4).
		Name:                  "czech",
		GameType:              29,
		Width:                 8,
		Height:                8,
		Rows:                  3,
		Algebraic:             true,
		MenCaptureForwardOnly: true,
		Precedence:            KingFirst,
		// The ČFD rules end a game as a draw when neither side can capture any more with
		// careful play: a judgement, not a count, so only repetition is automatic here.
		Draw:            DrawRules{Repetition: 3},
		PerftDuplicates: Keep,
	},
	{
		// Spanish draughts: GameType 24, on the mirrored board numbered 1=a8 ... 32=h1 with
		// White on 21-32 (docs/rules.md#numbering; the perft suites use it). Men capture forward
		// only, kings fly; the most pieces, then the most kings.
		Name:                  "spanish",
		GameType:              24,
		Width:                 8,
		Height:                8,
		Rows:                  3,
		Mirrored:              true,
		MenCaptureForwardOnly: true,
		Precedence:            MostPiecesThenKings,
		Draw: DrawRules{
			Repetition: 3,
			// The rules of Spanish (classic) draughts as published by section64port.online
			// ("Spanish Draughts, or Classic Draughts"): 40 successive king moves, 20 each,
			// without a capture is a draw. (No FEDA text was found.)
			KingMovePlies: 40,
		},
		PerftDuplicates: Keep,
	},
	{
		// Portuguese draughts (damas clássicas): GameType 28 ("28,W,8,8,N1,1", the same
		// board and numbering as spanish). The rules are spanish's: "the position of the main
		// diagonal may differ in Portugal but the rules are the same" (mindsports.nl, Dama);
		// BrainKing calls spanish "portuguese with the board rotated". No perft counts are
		// published for it: corpus/perft/portuguese.tsv checks spanish's on these rules.
		Name:                  "portuguese",
		Aliases:               []string{"damas-classicas"},
		GameType:              28,
		Width:                 8,
		Height:                8,
		Rows:                  3,
		Mirrored:              true,
		MenCaptureForwardOnly: true,
		Precedence:            MostPiecesThenKings,
		// No text of the Federação Portuguesa de Damas on draws was found: repetition only.
		Draw:            DrawRules{Repetition: 3},
		PerftDuplicates: Keep,
	},
	{
		// Italian draughts: GameType 22 ("22,W,8,8,N2,1"), mirrored board. Men move and
		// capture forward only and may not capture kings; kings are short; a man that reaches
		// the far row is crowned and the move ends; the Italian precedence rules.
		Name:                  "italian",
		GameType:              22,
		Width:                 8,
		Height:                8,
		Rows:                  3,
		Mirrored:              true,
		ShortKings:            true,
		MenCaptureForwardOnly: true,
		MenCannotCaptureKings: true,
		Promotion:             PromoteAndStop,
		Precedence:            ItalianPrecedence,
		// No FID text on draws was found: repetition only (see above).
		Draw:            DrawRules{Repetition: 3},
		PerftDuplicates: Keep,
	},
	{
		// Thai draughts (mak-hos): GameType 31 ("31,B,8,8,N2,0": Black first), eight men each
		// on two rows. Men capture forward only; kings fly but land right behind the piece
		// they take; each captured piece is removed at once (docs/rules.md#thai: perft rule point 1).
		Name:                  "thai",
		Aliases:               []string{"makhos"},
		GameType:              31,
		Width:                 8,
		Height:                8,
		Rows:                  2,
		FirstMover:            Black,
		MenCaptureForwardOnly: true,
		RemoveAtOnce:          true,
		LandRightBehind:       true,
		// No Thai federation text on draws was found: repetition only (see above).
		Draw:            DrawRules{Repetition: 3},
		PerftDuplicates: Keep,
	},
	{
		// Frisian draughts: GameType 40 ("40,W,10,10,N2,0"), the international board and
		// start. Men and kings also capture along rows and columns (over the next square of
		// the same colour), kings fly; the capture of highest value (FrisianPrecedence).
		Name:               "frisian",
		GameType:           40,
		Width:              10,
		Height:             10,
		Rows:               4,
		OrthogonalCaptures: true,
		Precedence:         FrisianPrecedence,
		// Official Rules for Frisian Draughts (2011), section C: a player who also has men
		// may not move the same king more than three times in a row without capturing.
		KingMoveLimit: 3,
		Draw: DrawRules{
			Repetition: 3,
			Endgames: []EndgameRule{{
				// Official Rules (2011), section C: two kings against one king must win
				// within seven moves.
				Reason:         "two-kings-7-moves",
				Holds:          kingsAgainstLoneKing(2),
				Limit:          7,
				StrongSideOnly: true,
			}, {
				// Official Rules (2011): one king against one king is drawn unless a side
				// wins by force at once. Decision (as lidraughts plays it): the game is
				// drawn after two moves each, time for any forced capture to be played.
				Reason: "one-king-each",
				Holds:  oneKingEach,
				Limit:  4,
			}},
		},
		PerftDuplicates: Keep,
	},
	{
		// Canadian draughts (le grand jeu de dames), PDN GameType 27 ("27,W,12,12,N2,0",
		// docs/rules.md#canadian): international draughts on a 12x12 board with 30 men each
		// ("the same rules and conventions as international draughts, the only differences
		// are the larger gameboard and more checkers per player": Wikipedia, Canadian
		// checkers; likewise Ludii). The board needs 77 bits: see wide.go. Its evaluation
		// weights (pkg/search/weights/canadian.json) are international's, for the same rules.
		Name:       "canadian",
		Aliases:    []string{"12x12", "grand-jeu"},
		GameType:   27,
		Width:      12,
		Height:     12,
		Rows:       5,
		Precedence: MostPieces, // the most pieces, kings counting as men (docs/rules.md#perft)
		// No text of the Fédération québécoise des jeux de dames was found. Decision: the
		// draw rules of international draughts, which the game follows; windames.free.fr
		// (Canadian 12x12 checkers) gives the third repetition and three kings against one
		// after 16 moves each, both among them.
		Draw: DrawRules{
			Repetition:    3,
			KingMovePlies: 50,
			Endgames: []EndgameRule{{
				Reason: "16-move-ending",
				Holds:  loneKingAgainstThree,
				Limit:  32,
			}},
		},
		PerftDuplicates: Unique, // dctl's published list (corpus/perft/canadian.tsv) counts once
	},
	// The variants of Hub engines (Scan 3.1 plays normal, killer, bt, frisian and losing) and
	// of lidraughts (frysk!, antidraughts, breakthrough). Sources: docs/variants.md.
	{
		// Killer draughts (Christian Freeling): international draughts, except that a king
		// whose capture ends by taking a king stops right behind it (mindsports.nl, "Killer
		// Draughts"; the same rule in Scan 3.1, gen.cpp, and dctl, rules/killer.hpp). No
		// PDN GameType exists: rafle writes none (give --variant killer to read such games).
		// The draw rules are international's: killer changes nothing else.
		Name:           "killer",
		Width:          10,
		Height:         10,
		Rows:           4,
		Precedence:     MostPieces,
		HaltBehindKing: true,
		Draw: DrawRules{
			Repetition:    3,
			KingMovePlies: 50,
			Endgames: []EndgameRule{{
				Reason: "16-move-ending",
				Holds:  loneKingAgainstThree,
				Limit:  32,
			}},
		},
		PerftDuplicates: Unique, // dctl's published killer lists count once
	},
	{
		// Breakthrough: international moves; the first side to crown a man wins, and a side
		// without a move loses ("There are no draws in breakthrough": lidraughts.org/variant/
		// breakthrough; Scan's bt). GameType 96 is lidraughts' number, not in PDN 3.0.
		Name:          "breakthrough",
		Aliases:       []string{"bt"},
		GameType:      96,
		Width:         10,
		Height:        10,
		Rows:          4,
		Precedence:    MostPieces,
		PromotionWins: true,
		// No draw rule: every move is a man's (a king ends the game), so no position repeats.
		PerftDuplicates: Unique,
	},
	{
		// Antidraughts (giveaway, Scan's losing): international moves; a side with no legal
		// move, having lost all its pieces or with all of them blocked, wins
		// (lidraughts.org/variant/antidraughts). lidraughts keeps only the threefold
		// repetition among the draw rules (Antidraughts.scala). GameType 98 is lidraughts'.
		Name:            "antidraughts",
		Aliases:         []string{"losing", "giveaway"},
		GameType:        98,
		Width:           10,
		Height:          10,
		Rows:            4,
		Precedence:      MostPieces,
		NoMoveWins:      true,
		Draw:            DrawRules{Repetition: 3},
		PerftDuplicates: Unique,
	},
	{
		// Frysk!: frisian draughts from five men each on the back row ("W:W46,47,48,49,50:
		// B1,2,3,4,5", lidraughts Frysk.scala), with frisian's rules and draws (see frisian).
		// GameType 97 is lidraughts' number, not in PDN 3.0.
		Name:               "frysk",
		Aliases:            []string{"frysk!"},
		GameType:           97,
		Width:              10,
		Height:             10,
		Rows:               1,
		OrthogonalCaptures: true,
		Precedence:         FrisianPrecedence,
		KingMoveLimit:      3,
		Draw: DrawRules{
			Repetition: 3,
			Endgames: []EndgameRule{
				{Reason: "two-kings-7-moves", Holds: kingsAgainstLoneKing(2), Limit: 7, StrongSideOnly: true},
				{Reason: "one-king-each", Holds: oneKingEach, Limit: 4},
			},
		},
		PerftDuplicates: Unique, // its only perft rows (computed: corpus/perft/frysk.tsv) count once
	},
	{
		// Turkish draughts, dama (docs/rules.md#turkish): every square of the 8x8 board,
		// men on rows 2-3 and 6-7 moving and capturing forward and sideways, flying kings
		// along the rows and columns, the most pieces compulsory, pieces removed as they are
		// jumped, no 180-degree turn within a capture. PDN 3.0 GameType table: 30,W,8,8,A0,0.
		Name:                  "turkish",
		Aliases:               []string{"dama", "tr"},
		GameType:              30,
		Width:                 8,
		Height:                8,
		Rows:                  2,
		EmptyBackRow:          true,
		Orthogonal:            true,
		OrthogonalCaptures:    true, // (Orthogonal's capture search: along the lines only)
		Algebraic:             true,
		MenCaptureForwardOnly: true, // forward and sideways, never backward
		Precedence:            MostPieces,
		RemoveAtOnce:          true,
		NoTurnBack:            true,
		Promotion:             PromoteAndContinue, // decision (docs/rules.md#turkish): crowned at once, goes on as a king
		Draw: DrawRules{
			Repetition: 3,
			Endgames: []EndgameRule{
				// two moves each, so that a capture on the way still wins (pydraughts' reading)
				{Reason: "one-piece-each", Holds: onePieceEach, Limit: 4},
			},
		},
		PerftDuplicates: Paths, // the published list (kish) counts every path
	},
	{
		// Armenian draughts, tama (docs/rules.md#armenian): turkish, but men also step one
		// square diagonally forward and kings also move along the diagonals, like a chess
		// queen; every capture stays along the rows and columns. Not in PDN 3.0's table.
		Name:                  "armenian",
		Aliases:               []string{"tama"},
		Width:                 8,
		Height:                8,
		Rows:                  2,
		EmptyBackRow:          true,
		Orthogonal:            true,
		OrthogonalCaptures:    true,
		DiagonalSteps:         true,
		Algebraic:             true,
		MenCaptureForwardOnly: true, // forward and sideways, never backward or diagonally
		Precedence:            MostPieces,
		RemoveAtOnce:          true,
		NoTurnBack:            true,
		Promotion:             PromoteAndContinue,
		Draw:                  DrawRules{Repetition: 3}, // decision: no source gives another draw
		PerftDuplicates:       Paths,                    // as turkish (no published list)
	},
}

// onePieceEach: each side has one piece left, man or king (docs/rules.md#turkish).
func onePieceEach(m Material) (bool, Color) {
	return m.Pieces(White) == 1 && m.Pieces(Black) == 1, White
}

// loneKingAgainstThree: one side has a lone king, the other at most three pieces of which at
// least one king (docs/rules.md#international).
func loneKingAgainstThree(m Material) (bool, Color) {
	for weak := White; weak <= Black; weak++ {
		strong := weak.Other()
		if m.Men[weak] == 0 && m.Kings[weak] == 1 && m.Pieces(strong) <= 3 && m.Kings[strong] > 0 {
			return true, strong
		}
	}
	return false, White
}

// threeKingsAgainstLoneKing: one side has three kings or more (men allowed), the other a lone
// king and nothing else (docs/rules.md#russian).
func threeKingsAgainstLoneKing(m Material) (bool, Color) {
	for weak := White; weak <= Black; weak++ {
		strong := weak.Other()
		if m.Men[weak] == 0 && m.Kings[weak] == 1 && m.Kings[strong] >= 3 {
			return true, strong
		}
	}
	return false, White
}

// kingsAgainstLoneKing returns the condition "one side has exactly n kings and nothing
// else, the other a lone king" (pool: 3, frisian: 2).
func kingsAgainstLoneKing(n int) func(m Material) (bool, Color) {
	return func(m Material) (bool, Color) {
		for weak := White; weak <= Black; weak++ {
			strong := weak.Other()
			if m.Men[weak] == 0 && m.Kings[weak] == 1 && m.Men[strong] == 0 && m.Kings[strong] == n {
				return true, strong
			}
		}
		return false, White
	}
}

// oneKingEach: a single king on each side and nothing else (docs/rules.md#brazilian).
func oneKingEach(m Material) (bool, Color) {
	return m.Men == [2]int{} && m.Kings == [2]int{1, 1}, White
}

var registry = map[string]*Variant{}
var byGameType = map[int]*Variant{}
var ordered []*Variant

func init() {
	for _, r := range builtin {
		v, err := NewVariant(r)
		if err != nil {
			panic(err) // the built-in rules are checked by the tests
		}
		Register(v)
	}
}

// Register adds v to the registry under its name, its aliases and its GameType. It panics
// when a name or GameType is already taken (a programming error).
func Register(v *Variant) {
	for _, name := range append([]string{v.Name}, v.Aliases...) {
		key := strings.ToLower(name)
		if _, dup := registry[key]; dup {
			panic("engine: variant name registered twice: " + name)
		}
		registry[key] = v
	}
	if v.GameType != 0 {
		if _, dup := byGameType[v.GameType]; dup {
			panic("engine: GameType registered twice: " + strconv.Itoa(v.GameType))
		}
		byGameType[v.GameType] = v
	}
	ordered = append(ordered, v)
}

// Lookup returns the variant registered under name (case-insensitive, aliases accepted) or
// under a PDN GameType number given as a string ("20", or a full "20,W,10,10,N2,0"). The
// board size of a full GameType must be the variant's; "0,0" counts as no size, as some
// programs write it. The other fields of a full GameType are not checked.
func Lookup(name string) (*Variant, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	if v, ok := registry[key]; ok {
		return v, nil
	}
	num, rest, full := strings.Cut(key, ",")
	if n, err := strconv.Atoi(num); err == nil {
		v, ok := byGameType[n]
		if !ok {
			return nil, fmt.Errorf("engine: unknown GameType %d (known: %s)", n, strings.Join(gameTypes(), ", "))
		}
		if full {
			if err := checkBoardSize(name, v, rest); err != nil {
				return nil, err
			}
		}
		return v, nil
	}
	return nil, fmt.Errorf("engine: unknown variant %q (known: %s)", name, strings.Join(Names(), ", "))
}

// checkBoardSize checks the fields after the number of a full GameType: StartColour,
// Width, Height, ... (PDN 3.0; the size may be left out with the rest).
func checkBoardSize(gameType string, v *Variant, fields string) error {
	f := strings.Split(fields, ",")
	if len(f) < 2 {
		return nil
	}
	if len(f) < 3 {
		return fmt.Errorf("engine: GameType %q: board size: want width and height", gameType)
	}
	var size [2]int
	for i, s := range f[1:3] {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 0 {
			return fmt.Errorf("engine: GameType %q: board size %q: want a number", gameType, s)
		}
		size[i] = n
	}
	if size != [2]int{0, 0} && size != [2]int{v.Width, v.Height} {
		return fmt.Errorf("engine: GameType %q: board %dx%d, but GameType %d (%s) is played on %dx%d",
			gameType, size[0], size[1], v.GameType, v.Name, v.Width, v.Height)
	}
	return nil
}

// Variants returns the registered variants in registration order.
func Variants() []*Variant { return append([]*Variant(nil), ordered...) }

// Names returns the names of the registered variants.
func Names() []string {
	names := make([]string, len(ordered))
	for i, v := range ordered {
		names[i] = v.Name
	}
	return names
}

func gameTypes() []string {
	var out []string
	for n, v := range byGameType {
		out = append(out, fmt.Sprintf("%d=%s", n, v.Name))
	}
	sort.Strings(out)
	return out
}

// MustLookup is Lookup for names known to exist; it panics otherwise.
func MustLookup(name string) *Variant {
	v, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return v
}
