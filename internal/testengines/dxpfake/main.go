package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/rafle/rafle/pkg/dxp"
	"github.com/rafle/rafle/pkg/engine"
)

type config struct {
	name                                           string
	seed                                           uint64
	refuse, badVersion, chat, split, merge         bool
	crashAt, hangAt, illegalAt, garbageAt, claimAt int
	backreqAt, stallAt, signalAt                   int
}

func main() {
	var c config
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	flag.StringVar(&c.name, "name", "dxpfake", "name in GAMEACC")
	flag.Uint64Var(&c.seed, "seed", 0, "random legal moves from this seed (0: first legal move)")
	flag.BoolVar(&c.refuse, "refuse", false, "refuse every game (GAMEACC code 2)")
	flag.BoolVar(&c.badVersion, "bad-version", false, "refuse every game for its version (GAMEACC code 1)")
	flag.IntVar(&c.crashAt, "crash-at", 0, "exit instead of sending the Nth move")
	flag.IntVar(&c.hangAt, "hang-at", 0, "send nothing from the Nth move on")
	flag.IntVar(&c.illegalAt, "illegal-at", 0, "send an illegal Nth move")
	flag.IntVar(&c.garbageAt, "garbage-at", 0, "send a malformed Nth move")
	flag.IntVar(&c.claimAt, "claim-win-at", 0, "claim a win (GAMEEND 3) instead of the Nth move")
	flag.IntVar(&c.backreqAt, "backreq-at", 0, "send BACKREQ before the Nth move")
	flag.BoolVar(&c.chat, "chat", false, "send a CHAT before each move")
	flag.BoolVar(&c.split, "split", false, "send messages in random small pieces")
	flag.BoolVar(&c.merge, "merge", false, "send GAMEACC and the first move in one write")
	flag.IntVar(&c.stallAt, "stall-at", 0, "send nothing instead of the Nth move until GAMEEND, and refuse games meanwhile")
	flag.IntVar(&c.signalAt, "signal-at", 0, "kill itself with SIGTERM instead of the Nth move")
	needStdin := flag.Bool("need-stdin", false, "exit when standard input ends")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "dxpfake: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if *needStdin {
		go func() {
			io.Copy(io.Discard, os.Stdin)
			fmt.Fprintln(os.Stderr, "dxpfake: standard input ended")
			os.Exit(5)
		}()
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dxpfake:", err)
		os.Exit(1)
	}
	if _, err := fmt.Printf("listening %s\n", ln.Addr()); err != nil {
		os.Exit(1)
	}
	f := &fake{config: c, v: engine.MustLookup("international"),
		rng: rand.New(rand.NewPCG(c.seed, 0x64787066616b65))}
	for {
		conn, err := ln.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, "dxpfake:", err)
			os.Exit(1)
		}
		if err := f.serve(conn); err != nil && err != io.EOF {
			fmt.Fprintln(os.Stderr, "dxpfake:", err)
		}
		conn.Close()
	}
}

// fake is the follower's state.
type fake struct {
	config
	v       *engine.Variant
	rng     *rand.Rand
	conn    net.Conn
	rd      *dxp.Reader
	out     []byte       // messages queued for the next write
	game    *engine.Game // nil between games
	us      engine.Color
	sent    int  // moves sent so far
	hanging bool // -hang-at reached
	stalled bool // -stall-at reached: a game is in progress until a GAMEEND ends it
}

// serve plays the games of one connection until it closes.
func (f *fake) serve(conn net.Conn) error {
	f.conn, f.rd = conn, dxp.NewReader(conn)
	if !f.stalled {
		f.game = nil
	}
	for {
		msg, err := f.read()
		if err != nil {
			return err
		}
		if f.hanging {
			continue
		}
		switch m := msg.(type) {
		case dxp.GameReq:
			err = f.gameReq(m)
		case dxp.Move:
			err = f.peerMove(m)
		case dxp.GameEnd:
			if f.game != nil {
				f.game, f.stalled = nil, false
				err = f.send(dxp.GameEnd{Reason: dxp.EndUnknown, Stop: m.Stop})
			}
			if err == nil && m.Stop {
				return io.EOF
			}
		}
		if err != nil {
			return err
		}
	}
}

// read returns the next message.
func (f *fake) read() (dxp.Message, error) {
	b, err := f.rd.Read()
	if err != nil {
		return nil, err
	}
	return dxp.Parse(b)
}

func (f *fake) gameReq(m dxp.GameReq) error {
	switch {
	case f.refuse:
		return f.send(dxp.GameAcc{Follower: f.name, Code: dxp.AccRefuse})
	case f.badVersion:
		return f.send(dxp.GameAcc{Follower: f.name, Code: dxp.AccVersion})
	case f.stalled:
		return f.send(dxp.GameAcc{Follower: f.name, Code: dxp.AccRefuse})
	}
	start := f.v.Start()
	if m.Position != "" {
		p, err := dxp.ParsePosition(f.v, m.Position)
		if err != nil {
			return err
		}
		start = p
	}
	f.game, f.us = engine.NewGame(f.v, start), m.FollowerColor
	f.queue(dxp.GameAcc{Follower: f.name, Code: dxp.AccAccept})
	if f.merge && start.Side == f.us {
		return f.move() // the move's write carries GAMEACC too
	}
	if err := f.flush(); err != nil {
		return err
	}
	return f.move()
}

func (f *fake) peerMove(m dxp.Move) error {
	if f.game == nil || f.stalled {
		return nil
	}
	p := f.game.Position()
	mv, err := dxp.MoveOf(f.v, &p, m)
	if err == nil {
		err = f.game.Play(mv)
	}
	if err != nil {
		f.game = nil
		return f.send(dxp.GameEnd{Reason: dxp.EndUnknown})
	}
	return f.move()
}

// move plays its move, or misbehaves, when it is its turn.
func (f *fake) move() error {
	if f.game == nil || f.game.Position().Side != f.us {
		return f.flush()
	}
	if o := f.game.Outcome(); o.Over {
		reason := dxp.EndLoss
		if o.Draw {
			reason = dxp.EndDraw
		}
		f.game = nil
		return f.send(dxp.GameEnd{Reason: reason})
	}
	f.sent++
	n := f.sent
	if n == f.backreqAt {
		if err := f.backReq(); err != nil {
			return err
		}
	}
	if f.chat {
		f.queue(dxp.Chat{Text: fmt.Sprintf("dxpfake thinks about its move %d", n)})
	}
	p := f.game.Position()
	switch n {
	case f.crashAt:
		os.Exit(3)
	case f.hangAt:
		f.hanging = true
		return nil
	case f.stallAt:
		f.stalled = true
		return nil
	case f.signalAt:
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			p.Signal(syscall.SIGTERM)
		}
		time.Sleep(time.Hour) // the signal's default action ends the process
	case f.illegalAt:
		return f.send(f.illegal(&p))
	case f.garbageAt:
		f.out = append(f.out, "M00zz3228\x00"...)
		return f.flush()
	case f.claimAt:
		f.game = nil
		return f.send(dxp.GameEnd{Reason: dxp.EndWin})
	}
	legal := f.game.Legal()
	m := legal[0]
	if f.seed != 0 {
		m = legal[f.rng.IntN(len(legal))]
	}
	if err := f.game.Play(m); err != nil {
		return err
	}
	return f.send(dxp.NewMove(f.v, &p, m, 0))
}

// backReq asks to take a move back and waits for the answer.
func (f *fake) backReq() error {
	if err := f.send(dxp.BackReq{Move: f.game.Ply()/2 + 1, Side: f.us}); err != nil {
		return err
	}
	for {
		msg, err := f.read()
		if err != nil {
			return err
		}
		if acc, ok := msg.(dxp.BackAcc); ok {
			if acc.Code == dxp.BackAccept {
				fmt.Fprintln(os.Stderr, "dxpfake: the initiator accepted a take-back")
				os.Exit(4)
			}
			return nil
		}
	}
}

// illegal returns a quiet move of one of its pieces to an empty square that is not legal.
func (f *fake) illegal(p *engine.Position) dxp.Move {
	legal := f.game.Legal()
	for from := engine.Square(1); from <= 50; from++ {
		fi, _ := f.v.Index(from)
		if c, _, ok := p.At(fi); !ok || c != f.us {
			continue
		}
		for to := engine.Square(1); to <= 50; to++ {
			ti, _ := f.v.Index(to)
			if _, _, ok := p.At(ti); ok {
				continue
			}
			isLegal := false
			for _, m := range legal {
				isLegal = isLegal || m.From == fi && m.To == ti
			}
			if !isLegal {
				return dxp.Move{From: from, To: to}
			}
		}
	}
	panic("dxpfake: no illegal move found")
}

// send queues m and writes everything queued.
func (f *fake) send(m dxp.Message) error {
	f.queue(m)
	return f.flush()
}

// queue adds m and its NUL to the next write.
func (f *fake) queue(m dxp.Message) {
	f.out = append(append(f.out, dxp.Format(m)...), 0)
}

// flush writes the queued messages: in one write, or with -split in pieces.
func (f *fake) flush() error {
	out := f.out
	f.out = nil
	if !f.split {
		_, err := f.conn.Write(out)
		return err
	}
	for len(out) > 0 {
		n := min(1+f.rng.IntN(3), len(out))
		if _, err := f.conn.Write(out[:n]); err != nil {
			return err
		}
		out = out[n:]
		time.Sleep(time.Millisecond)
	}
	return nil
}
