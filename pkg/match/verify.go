package match

import (
	"errors"
	"fmt"

	"github.com/rafle/rafle/pkg/engine"
)

// ErrBadRecord is returned, wrapped, when a journal's record is not a game its match can have
// played: other players or colours, another opening, an illegal move, or an ending the
// moves do not give.
var ErrBadRecord = errors.New("not a game of this match")

// checkRecord replays r, a journal's record of game r.Game of the match cfg, with the rules:
// the players and colours the schedule gives the game, the opening's name, position and
// moves, every move legal, and an ending that fits the position the moves reach (the
// rules' outcome, the ply limit, the endgame database's value, or a forfeit or adjudication
// before the rules ended it).
// With no openings known (a merge of shards' journals: the header holds only their digest),
// the opening is not checked, and the moves are replayed from the record's start position.
func checkRecord(cfg *Config, sched *schedule, r *Record, op *Opening) error {
	v := cfg.Variant
	gm := sched.game(r.Game)
	first, other := cfg.Players[gm.First].Name, cfg.Players[gm.A].Name
	if gm.First == gm.A {
		other = cfg.Players[gm.B].Name
	}
	white, black := first, other
	if v.FirstMover != engine.White {
		white, black = other, first
	}
	if r.White != white || r.Black != black {
		return fmt.Errorf("%s (white) against %s (black), but the schedule gives it to %s against %s", r.White, r.Black, white, black)
	}
	if op == nil {
		return replayRecord(cfg, r, nil)
	}
	fen := ""
	if op.Root != v.Start() {
		fen = v.FEN(op.Root)
	}
	if r.Opening != op.Name || r.FEN != fen || r.OpeningPlies != len(op.Moves) || len(r.Moves) < len(op.Moves) {
		return fmt.Errorf("opening %q of %d plies, but the schedule gives it %q of %d", r.Opening, r.OpeningPlies, op.Name, len(op.Moves))
	}
	return replayRecord(cfg, r, op)
}

// replayRecord plays r's moves from its start position (op's, when op is known; the FEN tag
// of r otherwise) and checks them and its ending against the rules.
func replayRecord(cfg *Config, r *Record, op *Opening) error {
	v := cfg.Variant
	root := v.Start()
	if op != nil {
		root = op.Root
	} else if r.FEN != "" {
		p, err := v.ParseFEN(r.FEN)
		if err != nil {
			return fmt.Errorf("start position: %w", err)
		}
		root = p
	}
	if r.OpeningPlies < 0 || r.OpeningPlies > len(r.Moves) {
		return fmt.Errorf("%d opening plies of %d moves", r.OpeningPlies, len(r.Moves))
	}
	g := engine.NewGame(v, root)
	for i, text := range r.Moves {
		if op != nil && i < len(op.Moves) {
			p := g.Position()
			if want := v.FormatMove(&p, op.Moves[i], false); text != want {
				return fmt.Errorf("ply %d: %q, but the opening plays %q", i+1, text, want)
			}
		}
		if out := g.Outcome(); out.Over {
			return fmt.Errorf("ply %d: %q after the game ended (%s)", i+1, text, out)
		}
		if _, err := g.PlayText(text); err != nil {
			return fmt.Errorf("ply %d: %q: %w", i+1, text, err)
		}
	}
	if len(r.Info) > len(r.Moves)-r.OpeningPlies {
		return fmt.Errorf("%d move comments for %d moves", len(r.Info), len(r.Moves)-r.OpeningPlies)
	}
	winner := func(want string) error {
		if r.Winner != want {
			return fmt.Errorf("%s, but the winner is %q, want %q", r.Reason, r.Winner, want)
		}
		return nil
	}
	out := g.Outcome()
	switch r.Reason {
	case ReasonAdjudicatedDraw:
		return winner("")
	case ReasonAdjudicatedWin:
		if r.Winner != "white" && r.Winner != "black" {
			return winner("white or black")
		}
		return nil
	}
	if out.Over {
		want := ""
		if !out.Draw {
			want = out.Winner.String()
		}
		if r.Reason != out.Reason {
			return fmt.Errorf("ended by %s, but its moves end it by %s", r.Reason, out)
		}
		return winner(want)
	}
	switch r.Reason {
	case ReasonEGDB:
		if cfg.EGDB == nil { // a merge of shards: the header says only that there was one
			if r.Winner != "white" && r.Winner != "black" && r.Winner != "" {
				return winner("white, black or none")
			}
			return nil
		}
		eout, _, err := egdbOutcome(cfg.EGDB, g)
		if err != nil {
			return err
		}
		if !eout.Over {
			return fmt.Errorf("ended by %s, but the database does not hold %s", r.Reason, v.FEN(g.Position()))
		}
		want := ""
		if !eout.Draw {
			want = eout.Winner.String()
		}
		return winner(want)
	case ReasonMaxPlies:
		if plies := len(r.Moves) - r.OpeningPlies; cfg.MaxPlies == 0 || plies != cfg.MaxPlies {
			return fmt.Errorf("max-plies after %d plies, but the match's limit is %d", plies, cfg.MaxPlies)
		}
		return winner("")
	case ReasonIllegalMove, ReasonTimeForfeit, ReasonCrash, ReasonStall, ReasonProtocolError, ReasonResign, ReasonFalseClaim:
		if r.Winner != "white" && r.Winner != "black" {
			return winner("white or black")
		}
		return nil
	}
	return fmt.Errorf("ended by %q, but the game is not over after its moves", r.Reason)
}
