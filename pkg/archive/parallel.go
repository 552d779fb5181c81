package archive

import (
	"bufio"
	"context"
	"io"
	"sync"
	"sync/atomic"

	"github.com/rafle/rafle/pkg/pdn"
)

// Reading the inputs of a Job with several goroutines
//
// One goroutine (split) opens the inputs in order, decompresses them,
// decides each one's encoding as the Reader does (from its first 64 KiB)
// and cuts the text into items of about pieceSize bytes at the
// boundaries the finder proposes (chunk.go). Reading goroutines (read)
// each read whole items with a Reader resumed at the item's start, and
// check that it ended where the next item starts (and go on with the
// games of an item read right, with Job.pieceWork, which may leave only
// what it made of them: the games' arena is then the reading goroutine's
// next, still in its core's caches). One goroutine, the
// caller's (merger), takes the items in input order, numbers their games
// and hands them on; an item whose Reader did not end at the next item's
// start is read again by the merger itself, with a Reader fed the items'
// bytes in order, until that Reader comes to the start of an item that
// was read right. So the games, their warnings, positions and numbers,
// and the errors are those of one Reader reading the inputs one after
// the other, whatever the number of goroutines and wherever the finder
// cuts. JSON-lines input is read whole by the splitting goroutine.
//
// At most inFlight items, or Job.readAhead (each at most maxPiece bytes,
// usually about pieceSize, and the games read from it), exist at once.

const (
	// pieceSize is the size an item aims at: a boundary at or after it
	// ends the item.
	pieceSize = 64 << 10
	// maxPiece is the size at which an item without a boundary is cut
	// anyway; the merger reads such items in order.
	maxPiece = 16 << 20
	// readSize is the least the splitter asks its input for at once.
	readSize = 64 << 10
	// maxItemGames is the most games a reading goroutine holds for one
	// item (an item of ordinary games holds a few hundred).
	maxItemGames = 1 << 14
	// maxEmptyReads is how many reads in a row may return nothing before
	// the splitter gives up with io.ErrNoProgress, as the Scanner does.
	maxEmptyReads = 100
)

// A piece is a run of consecutive games of one input, in input order, as
// Job.pieces hands them on.
type piece struct {
	input int // index in Job.Inputs
	first int // game number of its first game in its input (1-based)
	// games are the games, unless Job.pieceWork made all that is wanted
	// of them and did not keep them (then nil, like gerrs).
	games []*pdn.Game
	gerrs []error    // the error Next returned with each game: nil or a *GameError
	arena *pdn.Arena // the games' memory, if they live in an arena
	pool  *arenaPool
	// made is what Job.pieceWork made of the games in a reading
	// goroutine, or nil for the games the merger read itself.
	made any
}

// release gives the games' memory back; the games must no longer be used.
func (p *piece) release() {
	if p.arena != nil {
		p.pool.put(p.arena)
		p.arena = nil
	}
	p.games, p.gerrs = nil, nil
}

// arenaPool recycles the arenas of pieces.
type arenaPool struct{ free chan *pdn.Arena }

func (p *arenaPool) get() *pdn.Arena {
	select {
	case a := <-p.free:
		a.Reset()
		return a
	default:
		return &pdn.Arena{}
	}
}

func (p *arenaPool) put(a *pdn.Arena) {
	select {
	case p.free <- a:
	default:
	}
}

// item is a part of the text of one input, as the splitter cut it, and
// what a reading goroutine read from it.
type item struct {
	input int
	data  []byte
	off   int64 // offset of data[0] in the input
	// start is the boundary data starts at, if startOK; an item that
	// follows one cut where no boundary was found has none.
	start   pdn.Boundary
	startOK bool
	// end is the boundary where the next item starts, if endOK. When it
	// is a '[', data ends with that '[' too.
	end   pdn.Boundary
	endOK bool
	last  bool  // data ends the input, with rerr
	rerr  error // io.EOF or the read error that ended the input
	enc   pdn.Encoding
	read  int64 // input bytes read when the item was cut, for progress

	// err, if set, is the error the input ends with before any game:
	// it could not be opened, or not decompressed.
	err error

	// ready is closed when games, gerrs, readErr and ok are set.
	ready chan struct{}
	// ok reports that games, gerrs and readErr are what a Reader of the
	// whole input reads from the item: it was read from a boundary to
	// the boundary where the next item starts, or to the end of the input
	// (and JSON input is always read right).
	ok      bool
	n       int // number of games read (games may be dropped, see Job.pieceWork)
	games   []*pdn.Game
	gerrs   []error
	readErr error // a read error, returned by Next after the games
	arena   *pdn.Arena
	made    any // see piece.made
}

// feedLen is the number of bytes of data that are not also the next
// item's: all but the '[' of an end at a tag section.
func (it *item) feedLen() int {
	if it.endOK && it.end.TagOpen {
		return len(it.data) - 1
	}
	return len(it.data)
}

// pipeline is one run of Job.pieces.
type pipeline struct {
	ctx    context.Context
	job    *Job
	arenas bool // read games into recycled arenas
	stop   chan struct{}
	order  chan *item // every item, in input order, for the merger
	work   chan *item // the items to read
	pool   arenaPool
	// bufs holds the data of items the merger is done with, for the
	// splitter to cut the next items into: reused rather than allocated,
	// the input's bytes do not grow the heap (and bring on the GC).
	bufs chan []byte
	// exact is set once the merger has found a piece read wrong: the
	// finder then follows every byte (see finder.find).
	exact atomic.Bool
}

// inFlight is the number of items that may wait for the merger, unless
// Job.readAhead says otherwise.
func inFlight(jobs int) int { return jobs + 1 }

// pieces reads the job's inputs with up to jobs goroutines and calls fn
// with their games in input order, piece by piece, in the calling
// goroutine; fn must release each piece when it is done with its games.
// Games live in arenas (see pdn.Arena) when arenas is set; otherwise they
// are the caller's, as Reader.Next returns them. After the last game of
// input i, end is called with the error the input ended with (nil, or
// an error opening or reading it, worded as Job.each words it). pieces
// stops at the first error fn or end returns, and returns it, or, when
// ctx is done, before the next piece with ctx.Err(); it returns only when
// all its goroutines have ended.
func (j *Job) pieces(ctx context.Context, jobs int, arenas bool, fn func(*piece) error, end func(input int, err error) error) error {
	jobs = max(jobs, 1)
	ahead := inFlight(jobs)
	if j.readAhead > 0 {
		ahead = j.readAhead
	}
	p := &pipeline{ctx: ctx, job: j, arenas: arenas, stop: make(chan struct{}),
		order: make(chan *item, ahead), work: make(chan *item, ahead),
		pool: arenaPool{free: make(chan *pdn.Arena, ahead+jobs+2)},
		bufs: make(chan []byte, ahead+jobs+2)}
	var wg sync.WaitGroup
	wg.Add(1 + jobs)
	go func() {
		defer wg.Done()
		p.split()
	}()
	for range jobs {
		go func() {
			defer wg.Done()
			var work *pieceWorker
			if j.pieceWork != nil {
				w := j.pieceWork()
				work = &w
			}
			// spare is the arena of the games of the last item, which
			// work did not keep: the next item's, still in this core's
			// caches.
			var spare *pdn.Arena
			for it := range p.work {
				if !p.stopped() {
					p.read(it, spare, work)
					spare = nil
					if it.ok && work != nil {
						var keep bool
						it.made, keep = work.done(it.input, it.feedLen(), it.games, it.gerrs)
						if !keep {
							spare, it.arena = it.arena, nil
							it.games, it.gerrs = nil, nil
						}
					}
				}
				close(it.ready)
			}
		}()
	}
	m := &merger{p: p, fn: fn, end: end, total: j.total(), cur: -1}
	err := m.run()
	close(p.stop)
	// Unblock the splitter and let the readers finish what they hold.
	for range p.order {
	}
	wg.Wait()
	return err
}

// stopped reports whether the pipeline stops: the merger returned or ctx
// is done.
func (p *pipeline) stopped() bool {
	select {
	case <-p.stop:
		return true
	default:
		return p.ctx.Err() != nil
	}
}

// send hands an item to the merger and, when it can be read on its own,
// to the readers. It reports false when the pipeline stops.
func (p *pipeline) send(it *item) bool {
	it.ready = make(chan struct{})
	select {
	case p.order <- it:
	case <-p.stop:
		return false
	}
	if it.err == nil && !it.ok && it.startOK && (it.endOK || it.last) {
		select {
		case p.work <- it:
		case <-p.stop:
			return false
		}
	} else {
		close(it.ready)
	}
	return true
}

// split cuts the inputs into items, in order.
func (p *pipeline) split() {
	defer close(p.order)
	defer close(p.work)
	for i := range p.job.Inputs {
		if !p.splitInput(i) {
			return
		}
	}
}

// splitInput cuts input i into items. It reports false when the pipeline
// stops.
func (p *pipeline) splitInput(i int) bool {
	in := &p.job.Inputs[i]
	if p.job.onInput != nil {
		p.job.onInput(i)
	}
	rc, err := in.Open()
	if err != nil {
		return p.send(&item{input: i, err: &InputError{Name: in.Name, Err: err}, last: true})
	}
	defer rc.Close()
	cr := &countingReader{R: rc}
	br, isJSON, err := pdn.OpenInput(cr)
	if err != nil {
		return p.send(&item{input: i, err: &InputError{Name: in.Name, Err: err}, last: true, read: cr.N})
	}
	if isJSON {
		return p.splitJSON(i, cr, br)
	}
	h := pdn.ReadHead(br, p.job.Reader.Encoding)
	data, rerr, enc, bom := h.Data, h.Err, h.Encoding, h.BOM
	f := newFinder(0, bom)
	f.naive, f.exact = p.job.naiveCuts, p.job.exactCuts
	size := int64(pieceSize)
	if p.job.pieceSize > 0 {
		size = int64(p.job.pieceSize)
	}
	// The Reader of the first item skips a byte order mark itself.
	it := &item{input: i, startOK: true, enc: enc} // start: the zero Boundary, the start of the input
	var base int64                                 // offset of data[0]
	pos := bom                                     // where the finder goes on
	empty := 0
	for {
		k, b, found := f.find(data, base, pos, rerr != nil, base+size, p.exact.Load())
		pos = k
		cut := -1
		switch {
		case found:
			it.end, it.endOK = b, true
			cut = k
		case rerr != nil:
			it.data, it.off, it.last, it.rerr, it.read = data, base, true, rerr, cr.N
			return p.send(it)
		case len(data) >= maxPiece:
			// No boundary in sight: cut anyway (not inside a setup
			// command, which the finder may read again).
			cut = pos
			if f.state == findSetup {
				cut = min(cut, int(f.from-base))
			}
		}
		if cut >= 0 {
			n := cut
			if it.endOK && it.end.TagOpen {
				n++
			}
			it.data, it.off, it.read = data[:n], base, cr.N
			next := p.buffer(len(data)-cut, max(2*pieceSize, len(data)-cut+readSize))
			copy(next, data[cut:])
			if !p.send(it) {
				return false
			}
			if found {
				f.cut()
			}
			it = &item{input: i, start: b, startOK: found, enc: enc}
			data, base, pos = next, base+int64(cut), pos-cut
			continue
		}
		// Read more.
		if p.stopped() {
			return false
		}
		if cap(data)-len(data) < readSize {
			nd := make([]byte, len(data), 2*cap(data)+readSize)
			copy(nd, data)
			data = nd
		}
		m, err := br.Read(data[len(data):cap(data)])
		data = data[:len(data)+m]
		switch {
		case err != nil:
			rerr = err
		case m > 0:
			empty = 0
		default:
			if empty++; empty > maxEmptyReads {
				rerr = io.ErrNoProgress
			}
		}
	}
}

// buffer returns a slice of n bytes and a capacity of at least c, for the
// data of an item: one the merger is done with, if it is large enough.
func (p *pipeline) buffer(n, c int) []byte {
	select {
	case b := <-p.bufs:
		if cap(b) >= c {
			return b[:n]
		}
	default:
	}
	return make([]byte, n, c)
}

// reuse hands the data of an item on to buffer: the item's games are
// read (they keep nothing of its bytes), and no Reader reads it again.
func (p *pipeline) reuse(it *item) {
	if it.data == nil {
		return
	}
	select {
	case p.bufs <- it.data[:0]:
	default:
	}
	it.data = nil
}

// splitJSON reads JSON lines input i in batches of games.
func (p *pipeline) splitJSON(i int, cr *countingReader, br *bufio.Reader) bool {
	jr := pdn.NewJSONReader(br)
	it := &item{input: i, ok: true}
	for {
		if len(it.games) == 0 && p.stopped() {
			return false
		}
		g, err := jr.Next()
		if err == io.EOF {
			break
		}
		if err != nil && !isGameError(err) {
			it.readErr = err
			break
		}
		it.n++
		it.games = append(it.games, g)
		it.gerrs = append(it.gerrs, err)
		if len(it.games) == batchSize {
			it.read = cr.N
			if !p.send(it) {
				return false
			}
			it = &item{input: i, ok: true}
		}
	}
	it.read, it.last = cr.N, true
	return p.send(it)
}

// read reads the games of an item that starts at a boundary, and checks
// that they are the games of the whole input. With arenas, the games go
// into spare, if not nil.
func (p *pipeline) read(it *item, spare *pdn.Arena, w *pieceWorker) {
	rerr := io.EOF
	if it.last {
		rerr = it.rerr
	}
	r := pdn.ResumeBytes(it.data, rerr, it.start, it.enc)
	r.Strict = p.job.Reader.Strict
	if p.arenas {
		if spare != nil {
			spare.Reset()
			it.arena = spare
		} else {
			it.arena = p.pool.get()
		}
		r.SetArena(it.arena)
	}
	stream := false // the games go to w.game as they are read
	if w != nil && w.stream != nil {
		if rp := w.stream(it.input); rp != nil {
			r.SetReplayer(rp)
			stream = true
		}
	}
	atEnd := false // the Reader stands at it.end after a game
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil && !isGameError(err) {
			it.readErr = err
			break
		}
		switch {
		case stream:
			w.game(g, err)
		case len(it.games) == maxItemGames:
			// Too many games to hold at once (a megabyte of '*'): the
			// merger reads the item again itself, in batches.
			it.n, it.games, it.gerrs, it.readErr = 0, nil, nil, nil
			return
		default:
			it.games = append(it.games, g)
			it.gerrs = append(it.gerrs, err)
		}
		it.n++
		if b, ok := r.Boundary(); ok && it.endOK && b.Offset >= it.end.Offset {
			atEnd = true
			break
		}
	}
	it.ok = it.last || atEnd && r.EndedAt(it.end)
}

// merger takes the items in order and hands their games on.
type merger struct {
	p     *pipeline
	fn    func(*piece) error
	end   func(input int, err error) error
	back  []*item // items to take before the next of p.order
	cur   int     // input of the last item
	games int     // games of input cur handed on so far

	total, before int64 // progress: size of the inputs; bytes read of the inputs before cur
}

func (m *merger) next() *item {
	if len(m.back) > 0 {
		it := m.back[0]
		m.back = m.back[1:]
		return it
	}
	it, ok := <-m.p.order
	if !ok {
		return nil
	}
	<-it.ready
	return it
}

func (m *merger) run() error {
	for {
		if err := m.p.ctx.Err(); err != nil {
			return err
		}
		it := m.next()
		if it == nil {
			return m.p.ctx.Err()
		}
		if it.input != m.cur {
			m.cur, m.games = it.input, 0
		}
		var err error
		switch {
		case it.err != nil:
			err = m.finish(it, it.err)
		case !it.ok:
			m.p.exact.Store(true)
			if m.p.job.readWrong != nil {
				m.p.job.readWrong()
			}
			err = m.sequential(it)
		default:
			err = m.deliver(it.n, it.games, it.gerrs, it.arena, it.made)
			it.games, it.gerrs, it.arena, it.made = nil, nil, nil, nil
			m.p.reuse(it)
			m.progress(it)
			if err == nil && it.last {
				err = m.finish(it, m.readError(it.readErr))
			}
		}
		if err != nil {
			return err
		}
	}
}

// readError words a read error as Job.each does.
func (m *merger) readError(err error) error {
	if err == nil {
		return nil
	}
	return &InputError{Name: m.p.job.Inputs[m.cur].Name, Err: err}
}

func (m *merger) progress(it *item) {
	if m.p.job.Progress != nil {
		m.p.job.Progress(m.before+it.read, m.total)
	}
}

// finish ends the current input with err, after its last item it (an
// input without games ends with ErrNoGames, as Job.each does).
func (m *merger) finish(it *item, err error) error {
	m.progress(it)
	m.before += it.read
	if err == nil && m.games == 0 {
		err = &InputError{Name: m.p.job.Inputs[it.input].Name, Err: ErrNoGames}
	}
	return m.end(it.input, err)
}

// deliver hands on n games of the current input that follow those handed
// on before, numbering them, with what Job.pieceWork made of them.
func (m *merger) deliver(n int, games []*pdn.Game, gerrs []error, a *pdn.Arena, made any) error {
	if n == 0 {
		if a != nil {
			m.p.pool.put(a)
		}
		return nil
	}
	for k, err := range gerrs {
		if ge, ok := err.(*pdn.GameError); ok {
			ge.Game = m.games + 1 + k
		}
	}
	pc := &piece{input: m.cur, first: m.games + 1, games: games, gerrs: gerrs, arena: a, pool: &m.p.pool, made: made}
	m.games += n
	return m.fn(pc)
}

// sequential reads the current input from the start of it, an item that
// was not read right, with a Reader fed the bytes of the items in order,
// until that Reader stands at the start of an item that was read right,
// or the input ends.
func (m *merger) sequential(it *item) error {
	st := &itemStream{m: m, items: []*item{it}}
	r := pdn.ResumeReader(st, it.start, it.enc)
	r.Strict = m.p.job.Reader.Strict
	var games []*pdn.Game
	var gerrs []error
	flush := func() error {
		err := m.deliver(len(games), games, gerrs, nil, nil)
		games, gerrs = nil, nil
		return err
	}
	defer func() { st.release(len(st.items)) }()
	for {
		if err := m.p.ctx.Err(); err != nil {
			return err
		}
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil && !isGameError(err) {
			if ferr := flush(); ferr != nil {
				return ferr
			}
			return m.finish(st.items[len(st.items)-1], m.readError(err))
		}
		games = append(games, g)
		gerrs = append(gerrs, err)
		if len(games) == batchSize {
			if err := flush(); err != nil {
				return err
			}
		}
		if b, ok := r.Boundary(); ok {
			if k := st.resync(b); k > 0 {
				if err := flush(); err != nil {
					return err
				}
				m.progress(st.items[k-1])
				st.release(k)
				m.back = append(append([]*item(nil), st.items[k:]...), m.back...)
				st.items = nil
				return nil
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return m.finish(st.items[len(st.items)-1], nil)
}

// itemStream feeds the bytes of the items of one input, in order, to the
// merger's Reader (an io.Reader).
type itemStream struct {
	m     *merger
	items []*item // the items taken; items[cur] is being fed
	cur   int
	off   int // bytes of items[cur] fed
}

func (s *itemStream) Read(b []byte) (int, error) {
	for {
		if s.cur < len(s.items) {
			it := s.items[s.cur]
			if n := it.feedLen(); s.off < n {
				k := copy(b, it.data[s.off:n])
				s.off += k
				return k, nil
			}
			if it.last {
				return 0, it.rerr
			}
			s.cur, s.off = s.cur+1, 0
			continue
		}
		if !s.take() {
			return 0, io.ErrUnexpectedEOF
		}
	}
}

// take takes the next item of the input.
func (s *itemStream) take() bool {
	if n := len(s.items); n > 0 && s.items[n-1].last {
		return false
	}
	it := s.m.next()
	if it == nil {
		return false
	}
	s.items = append(s.items, it)
	return true
}

// resync returns the index of the item that starts at b, when it was read
// right (so the games from b on are known), or -1.
func (s *itemStream) resync(b pdn.Boundary) int {
	if last := s.items[len(s.items)-1]; b.Offset == last.off+int64(last.feedLen()) {
		// The Reader has used every byte taken: look at the next item.
		s.take()
	}
	for k := 1; k < len(s.items); k++ {
		if it := s.items[k]; it.off == b.Offset {
			if it.startOK && it.start == b && it.ok {
				return k
			}
			return -1
		}
	}
	return -1
}

// release drops what was read of items[:n], which the merger reads
// itself.
func (s *itemStream) release(n int) {
	for _, it := range s.items[:min(n, len(s.items))] {
		if it.arena != nil {
			s.m.p.pool.put(it.arena)
		}
		it.games, it.gerrs, it.arena, it.data = nil, nil, nil, nil
	}
}
