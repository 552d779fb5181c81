package dxp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

// DefaultPort is DXP's TCP port: "The SOCKET protocol uses port 27531" (esocket.htm).
const DefaultPort = 27531

// Timeouts of the client. writeTimeout bounds a write to a peer that reads nothing (a
// message is a few bytes, so a healthy peer never makes a write wait); endWait is how
// long EndGame waits for the engine's answer.
const (
	defaultDialTimeout = 10 * time.Second
	writeTimeout       = 10 * time.Second
	endWait            = time.Second
)

// Config configures a Client.
type Config struct {
	// Addr is the engine's address, host:port (the port defaults to DefaultPort).
	Addr string
	// Name is our name in GAMEREQ, cut to 32 characters.
	Name string
	// Transcript receives every message sent ("> ") and received ("< ") with a time
	// stamp, and notes ("# "); nil for none. SetTranscript changes it.
	Transcript io.Writer
	// DialTimeout bounds the connection; 0 means 10 s.
	DialTimeout time.Duration
	// Variant is the game's variant, whose board must have 50 squares; nil means
	// international.
	Variant *engine.Variant
}

// Client is the initiator's side of a connection: it starts games on an engine that
// listens (the follower), sends our moves and receives the engine's, and checks them
// against the rules. One connection plays any number of games, one after another. A Client
// is not safe for concurrent use.
type Client struct {
	conn  net.Conn
	rd    *Reader
	v     *engine.Variant
	name  string
	tr    transcript
	state clientState
	// peerStop is set when the engine's GAMEEND asked for no further games.
	peerStop bool
	// broken is the error that made the connection unusable (a crash, a stall, or a
	// stream out of step); every later call returns it.
	broken error
}

// errNoGame is returned by the calls that need a game in progress.
var errNoGame = errors.New("dxp: no game in progress")

// clientState is where the client is in the dialogue.
type clientState uint8

const (
	idle      clientState = iota // no game
	playing                      // a game accepted and not ended
	peerEnded                    // the engine sent GAMEEND; ours answers it
)

// Dial connects to the engine at cfg.Addr. A failed connection is an *Error wrapping
// ErrCrash (the engine is not there).
func Dial(ctx context.Context, cfg Config) (*Client, error) {
	v, err := variantOf(cfg.Variant)
	if err != nil {
		return nil, err
	}
	timeout := cfg.DialTimeout
	if timeout <= 0 {
		timeout = defaultDialTimeout
	}
	addr := withPort(cfg.Addr)
	d := net.Dialer{Timeout: timeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, &Error{Kind: ErrCrash, Err: fmt.Errorf("connect to %s: %w", addr, err)}
	}
	c := &Client{conn: conn, rd: NewReader(conn), v: v, name: cfg.Name}
	c.tr.set(cfg.Transcript)
	c.tr.line("", "#", "connected to "+addr)
	return c, nil
}

// withPort adds DefaultPort to an address without a port.
func withPort(addr string) string {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return net.JoinHostPort(addr, strconv.Itoa(DefaultPort))
	}
	return addr
}

// SetTranscript changes the transcript's writer (nil: none), for instance one per game.
func (c *Client) SetTranscript(w io.Writer) { c.tr.set(w) }

// StartGame sends GAMEREQ: the start position ('A' when p is the variant's initial
// position with White to move, else 'B' with p), the colour the engine plays (the
// follower's), the thinking time in whole minutes (1-999) and the number of moves of the
// game (0-999, 0: no limit). It waits for GAMEACC until ctx ends, and returns the
// follower's name. A refusal is an *Error wrapping ErrRefused that gives the code's
// meaning. Messages left from the previous game (a late MOVE or GAMEEND) are ignored.
// If the engine ended the previous game, StartGame first answers its GAMEEND.
func (c *Client) StartGame(ctx context.Context, p engine.Position, engineColor engine.Color, minutes, moves int) (string, error) {
	switch {
	case c.broken != nil:
		return "", c.broken
	case c.state == playing:
		return "", errors.New("dxp: StartGame: a game is in progress (EndGame ends it)")
	case minutes < 1 || minutes > 999:
		return "", fmt.Errorf("dxp: StartGame: thinking time %d minutes is not 1-999", minutes)
	case moves < 0 || moves > 999:
		return "", fmt.Errorf("dxp: StartGame: %d moves is not 0-999", moves)
	}
	if c.state == peerEnded {
		if err := c.EndGame(ctx, EndUnknown); err != nil {
			return "", err
		}
	}
	if c.peerStop {
		return "", &Error{Kind: ErrCrash, Err: errors.New("the engine asked for no further games (GAMEEND stop code 1)")}
	}
	req := GameReq{Version: Version, Initiator: c.name, FollowerColor: engineColor,
		Time: time.Duration(minutes) * time.Minute, Moves: moves}
	if start := c.v.Start(); !p.Equal(&start) || p.Side != engine.White {
		req.Position = FormatPosition(&p)
	}
	if err := c.write(req); err != nil {
		return "", err
	}
	for {
		text, msg, err := c.read(ctx)
		if err != nil {
			return "", err
		}
		switch m := msg.(type) {
		case GameAcc:
			if m.Code != AccAccept {
				return "", &Error{Kind: ErrRefused, Text: text, Err: errorString("acceptance code " + m.Code.String())}
			}
			c.state = playing
			return m.Follower, nil
		case Chat:
		case BackReq:
			if err := c.refuseBack(); err != nil {
				return "", err
			}
		case Move, GameEnd, BackAcc:
			c.tr.line("", "#", "ignored: left from the previous game")
		default:
			return "", c.unexpected(text, msg, "waiting for GAMEACC")
		}
	}
}

// Send sends our move m, a legal move of p, with the time we used.
func (c *Client) Send(p *engine.Position, m engine.Move, elapsed time.Duration) error {
	switch {
	case c.broken != nil:
		return c.broken
	case c.state != playing:
		return errNoGame
	case !slices.Contains(c.v.Generate(nil, p), m):
		return fmt.Errorf("dxp: Send: %s is not a legal move", moveText(NewMove(c.v, p, m, 0)))
	}
	return c.write(NewMove(c.v, p, m, elapsed))
}

// Receive waits for the engine's move in p and returns it, checked against the legal
// moves. CHAT messages go to the transcript. A BACKREQ is answered with a BACKACC that
// refuses it (rafle is the referee: no move is ever taken back), and noted. The errors are
// *Error values: ErrGameEnd when the engine sends GAMEEND (with its reason, which the
// caller need not believe: EndGame then answers it); ErrStall when ctx ends first;
// ErrCrash when the connection fails or closes; ErrProtocol for a malformed or unexpected
// message; ErrIllegalMove for a move that is not legal, or fits several legal moves. After
// ErrGameEnd, ErrStall, ErrIllegalMove and ErrProtocol (but for a message longer than 127
// characters) the connection still serves: EndGame ends the game (the move of a stalled
// engine that comes meanwhile is ignored), and another may start.
func (c *Client) Receive(ctx context.Context, p *engine.Position) (engine.Move, error) {
	switch {
	case c.broken != nil:
		return engine.Move{}, c.broken
	case c.state != playing:
		return engine.Move{}, errNoGame
	}
	for {
		// a stall leaves the stream in step (a message cut by the deadline is kept by the
		// Reader): EndGame can still end the game, which an engine that listens for games
		// needs before it accepts another
		text, msg, err := c.readUntil(ctx)
		if err != nil && !errors.Is(err, ErrProtocol) && !errors.Is(err, ErrStall) {
			c.broken = err
		}
		if err != nil {
			c.tr.line("", "#", err.Error())
			return engine.Move{}, err
		}
		switch m := msg.(type) {
		case Move:
			mv, err := MoveOf(c.v, p, m)
			if err != nil {
				c.tr.line("", "#", err.Error())
			}
			return mv, err
		case Chat:
		case BackReq:
			if err := c.refuseBack(); err != nil {
				return engine.Move{}, err
			}
		case GameEnd:
			c.state = peerEnded
			c.peerStop = m.Stop
			return engine.Move{}, &Error{Kind: ErrGameEnd, Text: text, Reason: m.Reason}
		default:
			return engine.Move{}, c.unexpected(text, msg, "waiting for a move")
		}
	}
}

// EndGame ends the game. engineResult is the result from the engine's point of view, as
// rafle decided it (EndWin when the engine won); GAMEEND carries it from ours, the
// sender's. EndGame then waits for the engine's GAMEEND at most a second (or until ctx
// ends), ignoring what it claims and any move sent meanwhile. When the engine ended the
// game itself (Receive returned ErrGameEnd), EndGame only answers with GAMEEND reason "0",
// as the spec wants. Without a game, EndGame does nothing. The error is that of sending
// GAMEEND, or of the connection while waiting.
func (c *Client) EndGame(ctx context.Context, engineResult EndReason) error {
	if c.broken != nil {
		return c.broken
	}
	switch c.state {
	case idle:
		return nil
	case peerEnded:
		c.state = idle
		return c.write(GameEnd{Reason: EndUnknown})
	}
	c.state = idle
	if err := c.write(GameEnd{Reason: engineResult.Other()}); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, endWait)
	defer cancel()
	for {
		_, msg, err := c.readUntil(ctx)
		switch {
		case errors.Is(err, ErrStall):
			c.tr.line("", "#", "no GAMEEND from the engine in time")
			return nil
		case c.broken != nil:
			return c.broken
		case err != nil && !errors.Is(err, ErrProtocol):
			c.broken = err
			c.tr.line("", "#", err.Error())
			return err
		}
		switch m := msg.(type) {
		case GameEnd:
			c.peerStop = m.Stop
			return nil
		case BackReq:
			if err := c.refuseBack(); err != nil {
				return err
			}
		}
	}
}

// closeWait bounds how long Close waits for the engine's answer to the GAMEEND of a game
// still in progress: short, so that a match stops within a second of Ctrl-C.
const closeWait = 500 * time.Millisecond

// Close closes the connection. A game still in progress is ended first (GAMEEND "0", and
// at most half a second for the engine's answer), so that an engine that listens for games
// is not left in one. Its error is the transcript's first write error, if any.
func (c *Client) Close() error {
	if c.state != idle && c.broken == nil {
		ctx, cancel := context.WithTimeout(context.Background(), closeWait)
		_ = c.EndGame(ctx, EndUnknown) // the connection closes anyway
		cancel()
	}
	err := c.conn.Close()
	if terr := c.tr.error(); terr != nil {
		return fmt.Errorf("dxp: transcript: %w", terr)
	}
	return err
}

// write sends m; a failure breaks the connection (ErrCrash).
func (c *Client) write(m Message) error {
	if c.broken != nil {
		return c.broken
	}
	text := Format(m)
	c.tr.line("", ">", string(text))
	c.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := c.conn.Write(append(text, 0)); err != nil {
		c.broken = &Error{Kind: ErrCrash, Err: err}
		c.tr.line("", "#", c.broken.Error())
		return c.broken
	}
	return nil
}

// read returns the next message; when ctx ends first, the connection is broken (ErrStall),
// as it is by a failed read or a message too long to keep the stream in step. A malformed
// message is an ErrProtocol error that leaves the connection usable.
func (c *Client) read(ctx context.Context) (string, Message, error) {
	text, msg, err := c.readUntil(ctx)
	if err != nil && !errors.Is(err, ErrProtocol) {
		c.broken = err
		c.tr.line("", "#", err.Error())
	}
	return text, msg, err
}

// readUntil is read without breaking the connection when ctx ends (the read may be
// retried): EndGame's wait ends that way.
func (c *Client) readUntil(ctx context.Context) (string, Message, error) {
	if c.broken != nil {
		return "", nil, c.broken
	}
	if dl, ok := ctx.Deadline(); ok {
		c.conn.SetReadDeadline(dl)
	} else {
		c.conn.SetReadDeadline(time.Time{})
	}
	interrupted := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		c.conn.SetReadDeadline(time.Unix(1, 0)) // in the past: the read returns now
		close(interrupted)
	})
	b, err := c.rd.Read()
	if !stop() {
		<-interrupted // the deadline is set; the next read sets its own
	}
	switch {
	case err == nil:
	case errors.Is(err, os.ErrDeadlineExceeded):
		cause := ctx.Err()
		if _, ok := ctx.Deadline(); ok && cause == nil {
			cause = context.DeadlineExceeded // the connection's deadline, ctx's, came first
		}
		return "", nil, &Error{Kind: ErrStall, Err: cause}
	case errors.Is(err, ErrProtocol):
		c.broken = err // the stream is out of step
		return "", nil, err
	default:
		return "", nil, &Error{Kind: ErrCrash, Err: err}
	}
	text := string(b)
	c.tr.line("", "<", text)
	msg, err := Parse(b)
	if err != nil {
		c.tr.line("", "#", err.Error())
		return text, nil, err
	}
	return text, msg, nil
}

// refuseBack answers a BACKREQ: rafle is the referee, and never takes a move back.
func (c *Client) refuseBack() error {
	c.tr.line("", "#", "BACKREQ refused: the referee takes no move back")
	return c.write(BackAcc{Code: BackRefuse})
}

// unexpected returns the ErrProtocol error for a message that has no place where it came.
func (c *Client) unexpected(text string, msg Message, while string) error {
	err := &Error{Kind: ErrProtocol, Text: text,
		Err: errorString(fmt.Sprintf("unexpected %s %s", kindNames[msg.Kind()], while))}
	c.tr.line("", "#", err.Error())
	return err
}
