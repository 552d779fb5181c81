package dxp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

// Searcher chooses rafle's moves when it plays as a DXP follower.
type Searcher interface {
	// NewGame is called before each game.
	NewGame()
	// Think chooses a move in g's current position, which has legal moves. remaining is
	// our clock for the rest of the game (0: unknown) and movesToGo the moves we still
	// have to play in it (0: unknown). Think must return soon after ctx ends.
	Think(ctx context.Context, g *engine.Game, remaining time.Duration, movesToGo int) (engine.Move, error)
}

// ServerConfig configures Serve.
type ServerConfig struct {
	// Name is our name in GAMEACC, cut to 32 characters.
	Name string
	// New makes the Searcher of one connection, the first time a game is requested on it.
	New func() (Searcher, error)
	// Transcript receives every message of every connection, each line marked with the
	// connection's number ("[3] "); nil for none.
	Transcript io.Writer
	// Variant is the game's variant, whose board must have 50 squares; nil means
	// international.
	Variant *engine.Variant
	// MaxSessions is the number of connections served at once (each with its own
	// Searcher); 0 means 1. A connection beyond it is told so in a CHAT and closed.
	MaxSessions int
	// Notes, if not nil, receives the server's notes, the "#" lines of the transcript
	// without their time stamp, each prefixed with the connection's number ("[3] "): a
	// connection opened, why one was closed (a malformed message, the peer, too many
	// connections), a game refused or ended by rafle, a take-back refused. A command logs
	// them. Calls are serialised, and must not block.
	Notes func(note string)
}

// Listen listens for DXP connections on addr (host:port, the port defaulting to
// DefaultPort). A port already in use is reported as such.
func Listen(addr string) (net.Listener, error) {
	addr = withPort(addr)
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("dxp: listen on %s: the port is in use (is another DXP program listening there?): %w", addr, err)
	}
	if err != nil {
		return nil, fmt.Errorf("dxp: listen on %s: %w", addr, err)
	}
	return ln, nil
}

// Serve plays rafle as a DXP follower on the connections ln accepts, until ctx ends; it
// then closes ln and every connection, waits for them, and returns nil (or the
// transcript's first write error). Each connection is served in its own goroutine, up to
// cfg.MaxSessions at once: several initiators (or one with several engines, as Moby Dam's
// matchmaker is) may connect at the same time, and the limit bounds the memory and threads
// the searchers take; a connection beyond the limit gets a CHAT saying so rather than
// waiting unanswered.
//
// On a connection, each GAMEREQ is answered with GAMEACC (refusing a protocol version
// other than 1, a position it cannot read, or one without a legal move) and starts a game
// of engine.Game from the requested position, abandoning any game in progress. rafle plays
// its colour and keeps the game under its own rules: when a game is over by them on its
// turn, or after the requested number of moves, it sends GAMEEND ("I win", "I give up",
// "draw", or "0" at the move limit), with a CHAT saying why; an illegal move from the peer
// ends the game with a CHAT and GAMEEND "0". A GAMEEND from the peer is answered with
// GAMEEND "0" and the same stop code; stop code 1 closes the connection. BACKREQ is
// refused. A malformed message closes that connection, with the error on the transcript
// and in Notes; the server goes on.
func Serve(ctx context.Context, ln net.Listener, cfg ServerConfig) error {
	defer ln.Close()
	v, err := variantOf(cfg.Variant)
	if err != nil {
		return err
	}
	if cfg.New == nil {
		return errors.New("dxp: Serve: no ServerConfig.New")
	}
	limit := max(cfg.MaxSessions, 1)
	tr := &transcript{notes: cfg.Notes}
	tr.set(cfg.Transcript)
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	sessions, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	active := make(chan struct{}, limit)
	for id := 1; ; id++ {
		conn, err := ln.Accept()
		if err != nil {
			cancel()
			wg.Wait()
			if ctx.Err() == nil {
				return fmt.Errorf("dxp: accept: %w", err)
			}
			if err := tr.error(); err != nil {
				return fmt.Errorf("dxp: transcript: %w", err)
			}
			return nil
		}
		prefix := fmt.Sprintf("[%d] ", id)
		tr.line(prefix, "#", "connection from "+conn.RemoteAddr().String())
		select {
		case active <- struct{}{}:
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := &session{cfg: &cfg, v: v, conn: conn, tr: tr, prefix: prefix,
					release: func() { <-active }}
				s.run(sessions)
			}()
		default:
			busy := fmt.Sprintf("busy: %d games in progress, the most this server plays at once", limit)
			tr.line(prefix, "#", busy+"; closing the connection")
			conn.SetWriteDeadline(time.Now().Add(time.Second))
			writeMessage(conn, Chat{Text: busy}) // best effort: the connection closes anyway
			conn.Close()
		}
	}
}

// session is one connection of a follower.
type session struct {
	cfg      *ServerConfig
	v        *engine.Variant
	conn     net.Conn
	tr       *transcript
	prefix   string
	searcher Searcher // made at the first GAMEREQ
	release  func()   // frees the session's place, before the connection closes

	game   *engine.Game // the game in progress; nil between games
	us     engine.Color
	limit  time.Duration // thinking time for the game; 0: unknown
	moves  int           // moves of the game; 0: no limit
	used   time.Duration // our time used in the game
	played int           // our moves in the game
	turn   time.Time     // when our turn began

	thinking  chan thinkResult // Think's result; nil when it is not running
	stopThink context.CancelFunc
}

// thinkResult is what Think returned.
type thinkResult struct {
	move engine.Move
	err  error
}

// received is a message (or error) from the reading goroutine.
type received struct {
	text string
	err  error
}

// run serves the connection until it closes, a message ends it, or ctx ends; it returns
// after its goroutines.
func (s *session) run(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	msgs := make(chan received)
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		rd := NewReader(s.conn)
		for {
			b, err := rd.Read()
			select {
			case msgs <- received{string(b), err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	s.loop(ctx, msgs)
	s.stopThinking()
	s.release() // a peer that sees the connection close may connect again at once
	cancel()
	s.conn.Close()
	<-readerDone
}

// loop handles messages and search results until the session ends.
func (s *session) loop(ctx context.Context, msgs <-chan received) {
	for {
		if s.thinking == nil && s.game != nil && s.game.Position().Side == s.us {
			s.startThinking(ctx)
		}
		select {
		case <-ctx.Done():
			s.note("server stopping; closing the connection")
			return
		case r := <-msgs:
			if errors.Is(r.err, io.EOF) {
				s.note("connection closed by the peer")
				return
			}
			if r.err != nil {
				s.note("closing the connection: " + r.err.Error())
				return
			}
			if !s.handle(r.text) {
				return
			}
		case res := <-s.thinking:
			s.thinking = nil
			s.stopThink()
			if res.err != nil {
				if ctx.Err() != nil {
					return
				}
				if !s.abort("rafle's search failed: " + res.err.Error()) {
					return
				}
				continue
			}
			if !s.play(res.move) {
				return
			}
		}
	}
}

// handle acts on one message; false ends the session.
func (s *session) handle(text string) bool {
	s.tr.line(s.prefix, "<", text)
	msg, err := Parse([]byte(text))
	if err != nil {
		s.note(err.Error() + "; closing the connection")
		return false
	}
	switch m := msg.(type) {
	case GameReq:
		return s.gameReq(m)
	case Move:
		return s.peerMove(m)
	case GameEnd:
		if s.game != nil { // the peer ends the game: answer
			s.stopThinking()
			s.game = nil
			if !s.send(GameEnd{Reason: EndUnknown, Stop: m.Stop}) {
				return false
			}
		}
		if m.Stop {
			s.note("the peer wants no further game; closing the connection")
			return false
		}
	case BackReq:
		s.note("BACKREQ: rafle does not take moves back")
		return s.send(BackAcc{Code: BackUnsupported})
	case GameAcc, BackAcc:
		s.note("unexpected " + kindNames[m.Kind()] + " ignored")
	}
	return true
}

// gameReq starts the requested game, or refuses it.
func (s *session) gameReq(m GameReq) bool {
	s.stopThinking()
	s.game = nil
	if m.Version != Version {
		return s.refuse(AccVersion, fmt.Sprintf("protocol version %02d is not %02d", m.Version, Version))
	}
	start := s.v.Start()
	if m.Position != "" {
		p, err := ParsePosition(s.v, m.Position)
		if pe := (*PositionError)(nil); errors.As(err, &pe) {
			return s.refuse(AccRefuse, "bad position: "+pe.detail())
		}
		if err != nil {
			return s.refuse(AccRefuse, err.Error())
		}
		start = p
	}
	if !s.v.HasMoves(&start) {
		return s.refuse(AccRefuse, "no legal move in the starting position")
	}
	if s.searcher == nil {
		searcher, err := s.cfg.New()
		if err != nil {
			s.refuse(AccNoGames, "rafle cannot play: "+err.Error())
			return false
		}
		s.searcher = searcher
	}
	s.searcher.NewGame()
	if !s.send(GameAcc{Follower: s.cfg.Name, Code: AccAccept}) {
		return false
	}
	s.game = engine.NewGame(s.v, start)
	s.us, s.limit, s.moves = m.FollowerColor, m.Time, m.Moves
	s.used, s.played = 0, 0
	return s.turnBegins()
}

// refuse sends a CHAT with the reason and GAMEACC with the code.
func (s *session) refuse(code AccCode, why string) bool {
	s.note("GAMEREQ refused: " + why)
	return s.send(Chat{Text: "rafle: " + why}) && s.send(GameAcc{Follower: s.cfg.Name, Code: code})
}

// peerMove plays the peer's move.
func (s *session) peerMove(m Move) bool {
	switch {
	case s.game == nil:
		s.note("MOVE outside a game ignored")
		return true
	case s.game.Position().Side == s.us:
		s.stopThinking()
		return s.abort("a MOVE when it is rafle's turn")
	}
	if o := s.game.Outcome(); o.Over { // over after our move, and the peer played on
		return s.endByRules(o)
	}
	p := s.game.Position()
	mv, err := MoveOf(s.v, &p, m)
	if err == nil {
		err = s.game.Play(mv)
	}
	switch {
	case errors.Is(err, engine.ErrAmbiguousMove):
		return s.abort("ambiguous move " + moveText(m))
	case err != nil:
		s.note(err.Error())
		return s.abort("illegal move " + moveText(m))
	}
	return s.turnBegins()
}

// turnBegins starts our turn, if it is ours: it ends the game when it is over by the rules
// or the move limit is reached, and otherwise lets the loop start thinking.
func (s *session) turnBegins() bool {
	if s.game.Position().Side != s.us {
		return true
	}
	s.turn = time.Now()
	if o := s.game.Outcome(); o.Over {
		return s.endByRules(o)
	}
	if s.moves > 0 && s.played >= s.moves {
		return s.send(Chat{Text: fmt.Sprintf("rafle: all %d moves played", s.moves)}) && s.end(EndUnknown)
	}
	return true
}

// play sends the move Think chose.
func (s *session) play(m engine.Move) bool {
	p := s.game.Position()
	elapsed := time.Since(s.turn)
	if err := s.game.Play(m); err != nil {
		return s.abort("rafle's search chose an illegal move: " + err.Error())
	}
	s.used += elapsed
	s.played++
	return s.send(NewMove(s.v, &p, m, elapsed))
}

// endByRules ends a game that is over under rafle's rules, on our turn.
func (s *session) endByRules(o engine.Outcome) bool {
	reason := EndLoss
	switch {
	case o.Draw:
		reason = EndDraw
	case o.Winner == s.us:
		reason = EndWin
	}
	return s.send(Chat{Text: "rafle: " + o.String()}) && s.end(reason)
}

// abort ends the game with GAMEEND "0" and a CHAT saying why.
func (s *session) abort(why string) bool {
	s.note("game ended: " + why)
	return s.send(Chat{Text: "rafle: " + why}) && s.end(EndUnknown)
}

// end sends GAMEEND; the game is over (the peer's answer arrives between games).
func (s *session) end(reason EndReason) bool {
	s.game = nil
	return s.send(GameEnd{Reason: reason})
}

// startThinking runs Think in a goroutine; its result arrives on s.thinking.
func (s *session) startThinking(ctx context.Context) {
	ctx, s.stopThink = context.WithCancel(ctx)
	var remaining time.Duration
	if s.limit > 0 {
		remaining = max(s.limit-s.used-time.Since(s.turn), time.Millisecond)
	}
	togo := 0
	if s.moves > 0 {
		togo = s.moves - s.played
	}
	result := make(chan thinkResult, 1)
	s.thinking = result
	g, searcher := s.game, s.searcher
	go func() {
		m, err := searcher.Think(ctx, g, remaining, togo)
		result <- thinkResult{m, err}
	}()
}

// stopThinking stops Think, if it runs, and waits for it.
func (s *session) stopThinking() {
	if s.thinking == nil {
		return
	}
	s.stopThink()
	<-s.thinking
	s.thinking = nil
}

// send writes m; false (and a note) when the connection fails.
func (s *session) send(m Message) bool {
	text := Format(m)
	s.tr.line(s.prefix, ">", string(text))
	s.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := s.conn.Write(append(text, 0)); err != nil {
		s.note("closing the connection: " + err.Error())
		return false
	}
	return true
}

// note writes a note on the transcript.
func (s *session) note(text string) { s.tr.line(s.prefix, "#", text) }
