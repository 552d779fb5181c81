package archive

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// This file, with replay.go, is where the package uses the rules: the
// replay stage of Copy (notation rewriting, the position filter) and the
// position writers (fen, csv).

// ReplayCopy is the replay stage of Copy: each game is replayed (see
// pdn.Replayer), optionally kept only when its main line reaches a position,
// and its moves optionally rewritten. A game without a GameType tag gets
// one, for the variant it was replayed with.
type ReplayCopy struct {
	Replayer pdn.Replayer
	// Notation rewrites replayed moves with square numbers or algebraic
	// coordinates; NotationKeep keeps them as written unless Captures is
	// set (then the variant's own notation is used).
	Notation Notation
	// Captures rewrites replayed captures short or full; CapturesKeep
	// keeps them.
	Captures Captures
	// Reach, if not nil, keeps only the games whose main line reaches
	// its position.
	Reach *PositionFilter
}

// apply replays g, game n of in (with in's inferred variant unless the
// Replayer has a default); keep is false when the position filter rejects
// it. A replay error comes back with the file and game number set; the
// game is kept, rewritten up to the error.
func (rc *ReplayCopy) apply(in *Input, n int, g *pdn.Game) (res *pdn.Replayed, keep bool, err error) {
	rc.Replayer.Inferred = in.Inferred
	res, err = rc.Replayer.Replay(g)
	if re, ok := err.(*pdn.ReplayError); ok {
		re.File, re.Game = in.Name, n
	}
	if rc.Reach != nil && !rc.Reach.Match(res) {
		return res, false, err
	}
	if rc.Notation != NotationKeep || rc.Captures != CapturesKeep {
		rewrite(res, rc.Notation, rc.Captures)
	}
	if v := res.Variant; v != nil && res.VariantFrom != pdn.FromGameType && v.GameType != 0 {
		// The game is written with the variant it was replayed with, so that
		// it reads back the same, whatever its squares look like.
		g.Set("GameType", strconv.Itoa(v.GameType))
	}
	return res, true, err
}

// rewrite writes the replayed moves of res in the notation asked for.
func rewrite(res *pdn.Replayed, notation Notation, captures Captures) {
	v := res.Variant
	if v == nil {
		return
	}
	alg, full := useAlgebraic(v, notation), captures == CapturesFull
	var buf []engine.Move
	for _, list := range [][]pdn.Resolved{res.Plies, res.Variations} {
		for i := range list {
			r := &list[i]
			m := r.Node
			m.Squares, m.Sep = notate(m.Squares[:0], v, &r.Before, r.Move, alg, full, &buf)
			m.Text = m.CanonicalText()
		}
	}
}

// useAlgebraic reports whether moves of v are written with algebraic
// squares in the notation asked for (NotationKeep: the variant's own).
func useAlgebraic(v *engine.Variant, notation Notation) bool {
	switch notation {
	case NotationNumeric:
		return false
	case NotationAlgebraic:
		return true
	}
	return v.Algebraic
}

// notate appends to dst the squares to write for m, played in p, and
// returns them with the separator: from and to, or the whole capture path
// when full is set or when another legal capture joins the same squares.
// Squares are algebraic when alg is set; buf is scratch for generation.
func notate(dst []pdn.Square, v *engine.Variant, p *engine.Position, m engine.Move, alg, full bool, buf *[]engine.Move) ([]pdn.Square, pdn.Sep) {
	if !m.IsCapture() {
		return append(dst, pdnSquare(v, v.Square(m.From), alg), pdnSquare(v, v.Square(m.To), alg)), '-'
	}
	if !full {
		*buf = v.Generate((*buf)[:0], p)
		for _, o := range *buf {
			if o.From == m.From && o.To == m.To && o != m {
				full = true
				break
			}
		}
	}
	path := []engine.Square{v.Square(m.From), v.Square(m.To)}
	if full {
		if paths := v.Paths(p, m); len(paths) > 0 {
			path = paths[0]
		}
	}
	for _, s := range path {
		dst = append(dst, pdnSquare(v, s, alg))
	}
	return dst, captureSep(v, alg)
}

// captureSep is the capture separator: the variant's own (':' for
// russian) in its own notation, else 'x'.
func captureSep(v *engine.Variant, alg bool) pdn.Sep {
	if alg == v.Algebraic && (v.CaptureSep == ':' || v.CaptureSep == 'x') {
		return pdn.Sep(v.CaptureSep)
	}
	return 'x'
}

// algNames caches, per variant, the algebraic name of each square number.
var algNames sync.Map // *engine.Variant -> []Square

// pdnSquare returns square s of v as a written Square.
func pdnSquare(v *engine.Variant, s engine.Square, alg bool) pdn.Square {
	if !alg {
		return pdn.NumSquare(int(s))
	}
	names, ok := algNames.Load(v)
	if !ok {
		t := make([]pdn.Square, v.Squares()+1)
		for sq := 1; sq < len(t); sq++ {
			name := v.AlgebraicName(engine.Square(sq))
			r, _ := strconv.Atoi(name[1:])
			t[sq] = pdn.AlgSquare(name[0], r)
		}
		names, _ = algNames.LoadOrStore(v, t)
	}
	t := names.([]pdn.Square)
	if int(s) < len(t) && t[s] != 0 {
		return t[s]
	}
	return pdn.NumSquare(int(s))
}

// PositionFilter matches games whose main line reaches a position, given
// as a FEN and compared as a position (pieces, kings and side to move),
// not as text. The FEN is read with each game's variant.
type PositionFilter struct {
	FEN string
	// FENs, when set, gives the position in each variant instead of FEN (a named position,
	// such as each variant's start): a game of a variant it lacks matches nothing.
	FENs map[*engine.Variant]string

	mu  sync.Mutex
	pos map[*engine.Variant]*engine.Position // nil: the FEN is not a position of that variant
}

// NewPositionFilter returns a filter for fen. It fails when fen is not a
// position of any registered variant.
func NewPositionFilter(fen string) (*PositionFilter, error) {
	var first error
	vs := engine.Variants()
	for _, v := range vs {
		if _, err := v.ParseFEN(fen); err == nil {
			return &PositionFilter{FEN: fen}, nil
		} else if first == nil {
			first = err
		}
	}
	return nil, fmt.Errorf("pdn: FEN %q is not a position of any variant (%s: %s)", fen, vs[0].Name, fenProblem(first))
}

func (f *PositionFilter) target(v *engine.Variant) *engine.Position {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p, ok := f.pos[v]; ok {
		return p
	}
	if f.pos == nil {
		f.pos = map[*engine.Variant]*engine.Position{}
	}
	var pp *engine.Position
	fen := f.FEN
	if f.FENs != nil {
		fen = f.FENs[v]
	}
	if p, err := v.ParseFEN(fen); err == nil && fen != "" {
		pp = &p
	}
	f.pos[v] = pp
	return pp
}

// Match reports whether the main line of res reaches the filter's
// position (the start position counts).
func (f *PositionFilter) Match(res *pdn.Replayed) bool {
	if res == nil || res.Variant == nil {
		return false
	}
	t := f.target(res.Variant)
	if t == nil {
		return false
	}
	same := func(p *engine.Position) bool {
		return p.Equal(t)
	}
	for i := range res.Plies {
		if same(&res.Plies[i].Before) {
			return true
		}
	}
	return same(&res.Final)
}

// positionColumns are the columns of the csv output (see PositionWriter).
var positionColumns = []string{"game", "ply", "fen", "side", "move", "result", "score"}

// PositionWriter writes one row per position of each replayed game: the
// main line from the start position to the last position reached (up to
// the first illegal move, if any).
//
// The csv format (FormatCSV) has a header and these columns:
//
//	game    the game's id: input name, ':', game number in the input (1-based)
//	ply     0 for the start position, then 1, 2, ... after each main-line move
//	fen     the position, canonical FEN of the variant
//	side    the side to move: white or black
//	move    the move played from this position, in the variant's notation
//	        (or as --notation/--captures ask); empty for the last position
//	result  the game's PDN result (terminator, else Result tag), first
//	        mover's score first; "*" when unknown
//	score   the result as the score of the side to move: 1, 0.5 or 0;
//	        empty when the result is unknown
//
// The fen output has the same fields on one line each, the FEN first,
// separated by tabs, without a header.
//
// A PositionWriter is a pdn.GameWriter for Copy with a ReplayCopy stage; its
// Write method replays games itself (variant inferred) and numbers them
// from 1.
type PositionWriter struct {
	// Notation and Captures are as in ReplayCopy, for the move column.
	Notation Notation
	Captures Captures

	bw     *bufio.Writer
	cw     *csv.Writer // nil for the fen format
	header bool
	n      int
	rp     pdn.Replayer
	row    []string
	buf    []engine.Move // scratch for notate
	sq     []pdn.Square  // scratch for notate
}

// NewPositionWriter returns a writer of format FormatCSV (with a header
// row) or FormatFEN. It panics for another format.
func NewPositionWriter(w io.Writer, format Format) *PositionWriter {
	pw := &PositionWriter{bw: bufio.NewWriter(w), row: make([]string, len(positionColumns))}
	switch format {
	case FormatCSV:
		pw.cw = csv.NewWriter(pw.bw)
	case FormatFEN:
	default:
		panic("archive: NewPositionWriter: not a position format: " + format.String())
	}
	return pw
}

// Write replays g and writes its positions, with the game id "game N".
func (pw *PositionWriter) Write(g *pdn.Game) error {
	pw.n++
	res, err := pw.rp.Replay(g)
	if werr := pw.writeReplayed("game "+strconv.Itoa(pw.n), g, res); werr != nil {
		return werr
	}
	return err
}

// writeReplayed writes the rows of a replayed game.
func (pw *PositionWriter) writeReplayed(id string, g *pdn.Game, res *pdn.Replayed) error {
	if err := pw.writeHeader(); err != nil {
		return err
	}
	v := res.Variant
	if v == nil {
		return nil
	}
	result := strings.TrimSpace(g.GameResult())
	alg, full := useAlgebraic(v, pw.Notation), pw.Captures == CapturesFull
	rewriteMove := pw.Notation != NotationKeep || pw.Captures != CapturesKeep
	for ply := 0; ply <= len(res.Plies); ply++ {
		p := res.Final
		move := ""
		if ply < len(res.Plies) {
			r := &res.Plies[ply]
			p = r.Before
			if rewriteMove {
				// r.Node was rewritten by ReplayCopy when used through Copy; format anyway.
				var sep pdn.Sep
				pw.sq, sep = notate(pw.sq[:0], v, &p, r.Move, alg, full, &pw.buf)
				move = (&pdn.Move{Squares: pw.sq, Sep: sep}).CanonicalText()
			} else {
				move = v.FormatMove(&p, r.Move, false)
			}
		}
		score, ok := pdn.ScoreFor(v, p.Side, result)
		pw.row[0], pw.row[1], pw.row[2], pw.row[3] = id, strconv.Itoa(ply), v.FEN(p), p.Side.String()
		pw.row[4], pw.row[5], pw.row[6] = move, result, scoreText(score, ok)
		if pw.cw != nil {
			if err := pw.cw.Write(pw.row); err != nil {
				return err
			}
			continue
		}
		pw.bw.WriteString(pw.row[2])
		for _, f := range [...]int{0, 1, 3, 4, 5, 6} {
			pw.bw.WriteByte('\t')
			pw.bw.WriteString(pw.row[f])
		}
		if err := pw.bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

// writeHeader writes the csv header row, once.
func (pw *PositionWriter) writeHeader() error {
	if pw.cw == nil || pw.header {
		return nil
	}
	pw.header = true
	return pw.cw.Write(positionColumns)
}

// Flush writes any buffered rows (and the csv header, even for no game).
func (pw *PositionWriter) Flush() error {
	if err := pw.writeHeader(); err != nil {
		return err
	}
	if pw.cw != nil {
		pw.cw.Flush()
		if err := pw.cw.Error(); err != nil {
			return err
		}
	}
	return pw.bw.Flush()
}

// scoreText formats a score for CSV: "1", "0.5", "0" or "".
func scoreText(s float64, ok bool) string {
	if !ok {
		return ""
	}
	return strconv.FormatFloat(s, 'f', -1, 64)
}

// fenProblem says what is wrong with a FEN (as pdn.ReplayError does), from the engine's error,
// without the FEN itself: `"31-50": unknown square "50" (1-32)`.
func fenProblem(err error) string {
	var fe *engine.FENError
	if !errors.As(err, &fe) {
		return strings.TrimPrefix(err.Error(), "engine: ")
	}
	if fe.Token == "" {
		return fe.Msg
	}
	return fmt.Sprintf("%q: %s", fe.Token, fe.Msg)
}
