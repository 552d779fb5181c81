package pdn

import (
	"strings"

	"github.com/rafle/rafle/pkg/engine"
)

// Replaying while reading
//
// Validation needs of a game its verdict, its warnings and its counts,
// not its moves. A Reader given a Replayer (SetReplayer) replays the main
// line of each game as it reads it, with the Replayer's rules and code
// (lineReplay: quickMove, move, variation), instead of building it into
// Move and Node values to be replayed afterwards: the commonest moves,
// read by plainMovetext, go from the scanner's buffer to the board
// without being stored. Variations are still built (the replay of a
// variation looks at its first move before playing it) and replayed when
// they close. The replay is the one Replay would make of the game built
// as usual: same variant, positions, warnings and error.
//
// The variant must be known before the moves: a game with neither a
// GameType tag nor Replayer.Default nor Replayer.Inferred (inferred from
// its own squares) is built and replayed as usual.

// stream is the replay of the game a Reader is reading (see
// Reader.SetReplayer). It belongs to its Replayer, whose res it fills.
type stream struct {
	rp *Replayer
	// g is the game last returned that was replayed while read: Replay of
	// it returns rp.res and err.
	g *Game
	// The replay of the main line: lr and its line s; done once it ended
	// on an error (err), or when there is nothing to replay (the variant
	// is not supported, or the FEN tag is bad: started is then false).
	lr      lineReplay
	s       lineState
	started bool
	done    bool
	err     error
	// read is what a game keeps of its main line (Game.read).
	read readInfo
	// lastPlain is set when the main line ends with a move replayed from
	// plainMovetext, not built: last stands for it in Reader.lastMove (its
	// strength), cleared when lastGen falls behind plainGen.
	lastPlain         bool
	plainGen, lastGen uint32
	last              Move
	// m and sq hold a plain move that quickMove does not play.
	m  Move
	sq [2]Square
}

// readInfo is what a game replayed while read keeps of its main line,
// which it does not hold: its number of moves (Game.Plies) and the
// evidence of its squares (Evidence.Add).
type readInfo struct {
	plies int
	ev    gameEvidence
}

// SetReplayer makes Next replay the main line of each game with rp as it
// reads it, rather than building it, when rp keeps only the verdict
// (CountOnly, set before) and the game's variant is known before its moves
// (a GameType tag, rp.Default or rp.Inferred). Such a game comes without
// its main line (Moves is nil; Plies counts its moves, and Evidence.Add
// takes its squares), and until the next call of Next, rp.Replay of it
// returns the replay made while reading, the one it would make of the
// game read as usual. Other games are read and replayed as usual. nil
// turns it off. Walk ignores it.
func (r *Reader) SetReplayer(rp *Replayer) {
	if rp == nil || !rp.CountOnly {
		r.ml = nil
		return
	}
	if rp.stream == nil {
		rp.stream = &stream{rp: rp}
	}
	r.ml = rp.stream
}

// gatherEvidence makes Next keep of each game's main line only what
// Evidence.Add takes (Moves is nil, Plies counts the moves), as
// SetReplayer does, but without a replay: what InferVariant reads.
func (r *Reader) gatherEvidence() { r.ml = &stream{} }

// reset prepares the stream for the next game.
func (st *stream) reset() {
	st.g, st.started, st.done, st.err = nil, false, false, nil
	st.read = readInfo{}
	st.lastPlain = false
}

// take starts the replay of g at its first main-line move or variation,
// all its tags read (a tag section after movetext starts the next game),
// cur the main line so far: it reports whether g is replayed while read.
func (st *stream) take(g *Game, cur []Node) bool {
	rp := st.rp
	if rp == nil { // the evidence alone (gatherEvidence)
		st.done = true
		st.read.ev.nodes(cur, true)
		return true
	}
	// (A game inferred from the other games' tags may be inferred from its own
	// first move instead: Replayer.variant needs the whole game.)
	if !rp.CountOnly || rp.Default == nil && (rp.Inferred == nil || rp.Inferred.Variant == nil || rp.Inferred.tags) &&
		strings.TrimSpace(g.Get("GameType")) == "" {
		return false
	}
	st.lr, st.err, st.started = rp.begin(g)
	st.done = !st.started
	if st.started {
		st.s = st.lr.start()
	}
	// What the main line holds so far: comments, setup commands.
	st.read.ev.nodes(cur, true)
	return true
}

// plies returns the number of main-line moves read.
func (st *stream) plies() int { return st.read.plies }

// plain replays the nb main-line moves of b read by plainMovetext, their
// largest square maxSq.
func (st *stream) plain(b *plainMoveBatch, nb, maxSq int) {
	ms, sqs := b.rec[:nb], b.sq[:nb]
	st.read.plies += len(ms)
	ev := &st.read.ev
	if !ev.moved {
		st.sq = [2]Square{Square(sqs[0].From), Square(sqs[0].To)}
		ev.move(st.sq[:], true)
	}
	ev.maxNum = max(ev.maxNum, maxSq)
	st.lastPlain = true
	st.plainGen++
	lr, s := &st.lr, &st.s
	v := lr.v
	if st.done {
		return
	}
	last := len(ms) - 1
	for i := 0; i <= last; {
		// The moves from i on, but the last, played in place at once
		// (lr.quickMove's work for each, with PlaySquarePairs: fewer
		// instructions, docs/benchmarks.md, measured choices); then their
		// numbers, as lr.number brings them up, in the positions they were
		// played in.
		k := i
		if lr.quick {
			side := s.p.Side
			k += v.PlaySquarePairs(&s.p, sqs[i:last])
			for j := i; j < k; j++ {
				if n := ms[j].number; n > 0 {
					s.num = n
				} else if side == v.FirstMover && s.ply > 0 || s.num == 0 {
					s.num++
				}
				side ^= 1
				s.ply++
			}
			lr.plies += k - i
		}
		// The move k: the last, played in place after prev is set (it is
		// needed after the batch's last move only, by a variation after
		// it), or one PlaySquarePairs did not play, played by play, which
		// sets prev, or ends the replay.
		m := &ms[k]
		lr.number(s, m.number)
		sq := sqs[k]
		if lr.quick && k == last {
			s.prev = s.p
			if v.PlaySquares(&s.p, engine.Square(sq.From), engine.Square(sq.To), sq.Capture) {
				lr.plies++
				s.ply++
				break
			}
		}
		st.sq = [2]Square{Square(sq.From), Square(sq.To)}
		st.m = Move{Number: m.number, Text: simpleText(int(sq.From), int(sq.To), byte(m.sep)), Squares: st.sq[:], Sep: m.sep}
		if st.play(&st.m, m.pos); st.done {
			return
		}
		i = k + 1
	}
	lr.lastPos = ms[last].pos
}

// move replays a main-line move built by the Reader (Reader.addMove).
func (st *stream) move(m *Move, pos Pos) {
	st.lastPlain = false
	if m.IsPlaceholder() {
		return
	}
	st.read.plies++
	st.read.ev.move(m.Squares, true)
	if st.done {
		return
	}
	lr := &st.lr
	lr.number(&st.s, m.Number)
	if lr.quickSquares(&st.s, m, true) {
		lr.lastPos = pos
		return
	}
	st.play(m, pos)
}

// play replays m, written at pos, with lineReplay.move.
func (st *stream) play(m *Move, pos Pos) {
	ok, err := st.lr.move(&st.s, m, pos, true)
	if !ok {
		st.done, st.err = true, err
		return
	}
	st.lr.lastPos = pos
}

// node notes another node of the main line: a setup command before the
// first move makes the game's start position its own.
func (st *stream) node(n *Node) {
	st.lastPlain = false
	if n.Kind == SetupNode && !st.read.ev.moved {
		st.read.ev.custom = true
	}
}

// variation replays a variation of the main line, closed.
func (st *stream) variation(nodes []Node) {
	st.lastPlain = false
	st.read.ev.nodes(nodes, false)
	if !st.done {
		st.lr.variation(&st.s, nodes)
	}
}

// lastMove returns the move that stands for the last main-line move when
// it was replayed from plainMovetext (see Reader.lastMove), else nil.
func (st *stream) lastMove() *Move {
	if !st.lastPlain {
		return nil
	}
	if st.lastGen != st.plainGen {
		st.last, st.lastGen = Move{}, st.plainGen
	}
	return &st.last
}

// finish ends the replay of g, replayed while read, once the Reader has
// finished it (its result and tags set): Replay of g returns it until the
// next game.
func (st *stream) finish(g *Game) {
	g.Moves = nil
	g.read = &st.read
	st.g = g
	if !st.started {
		return // (begin's error, if any)
	}
	err := st.err
	if !st.done {
		err = nil
	}
	_, st.err = st.rp.end(g, &st.lr, st.s.p, err)
}
