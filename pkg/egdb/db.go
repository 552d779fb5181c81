package egdb

import (
	"container/list"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rafle/rafle/pkg/engine"
)

// DB is an open database: a directory of slice files of one variant. It is safe for
// concurrent use.
type DB struct {
	v     *engine.Variant
	g     *geometry
	dir   string
	cache *cache
	mu    sync.Mutex
	// slices holds every slice whose file is in the directory; the file is opened (and
	// its checksum checked) at the first probe that needs it.
	slices map[Slice]*dbSlice
	nextID int
	// table holds the same slices by key (sliceKey), for probes without a lock
	table [9 * 9 * 9 * 9]atomic.Pointer[dbSlice]
	// maxPieces is MaxPieces + 1 once worked out, 0 before and after add: the games of a
	// match and of an archive ask for it at every position (a count that runs while a slice
	// is added may keep the figure from before it: Build asks for none)
	maxPieces atomic.Int32
}

// sliceKey numbers the slices of up to MaxPieces (8) pieces.
func sliceKey(s Slice) int {
	return ((s.UsMen*9+s.UsKings)*9+s.ThemMen)*9 + s.ThemKings
}

// dbSlice is a slice of the DB: its file, opened once.
type dbSlice struct {
	id   uint64
	s    Slice
	ix   *indexer
	path string
	once sync.Once
	sf   *sliceFile
	err  error
}

// Open opens the database of v in dir. It lists the slice files there; each is opened,
// and its checksum checked, when a probe first needs it. A directory without slice files
// is an empty database, not an error; a directory that does not exist is one.
func Open(dir string, v *engine.Variant, opt Options) (*DB, error) {
	g, err := newGeometry(v)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	mb := opt.CacheMB
	if mb <= 0 {
		mb = DefaultCacheMB
	}
	db := &DB{v: v, g: g, dir: dir, cache: newCache(int64(mb) << 20), slices: map[Slice]*dbSlice{}}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, FileExt) || !e.Type().IsRegular() {
			continue
		}
		s, err := ParseSlice(strings.TrimSuffix(name, FileExt))
		if err != nil || s.Pieces() > MaxPieces {
			continue
		}
		sl := &dbSlice{id: uint64(db.nextID), s: s, path: filepath.Join(dir, name)}
		db.slices[s] = sl
		db.table[sliceKey(s)].Store(sl)
		db.nextID++
	}
	return db, nil
}

// path returns the file of slice s.
func (db *DB) path(s Slice) string { return filepath.Join(db.dir, fileName(s)) }

// add adds slice s, whose file was written after Open, and opens it.
func (db *DB) add(s Slice) (*dbSlice, error) {
	db.mu.Lock()
	sl := db.slices[s]
	if sl == nil {
		sl = &dbSlice{id: uint64(db.nextID), s: s, path: db.path(s)}
		db.nextID++
		db.slices[s] = sl
		db.table[sliceKey(s)].Store(sl)
		db.maxPieces.Store(0)
	}
	db.mu.Unlock()
	return db.open(s)
}

// Variant returns the DB's variant.
func (db *DB) Variant() *engine.Variant { return db.v }

// Dir returns the DB's directory.
func (db *DB) Dir() string { return db.dir }

// Slices returns the slices whose files the directory holds, by number of pieces, then
// name.
func (db *DB) Slices() []Slice {
	db.mu.Lock()
	out := make([]Slice, 0, len(db.slices))
	for s := range db.slices {
		out = append(out, s)
	}
	db.mu.Unlock()
	sortSlices(out)
	return out
}

// sortSlices orders slices by number of pieces, then by name.
func sortSlices(ss []Slice) {
	slices.SortFunc(ss, func(a, b Slice) int {
		if a.Pieces() != b.Pieces() {
			return a.Pieces() - b.Pieces()
		}
		return strings.Compare(a.String(), b.String())
	})
}

// MaxPieces returns the largest n such that the directory holds every slice of up to n
// pieces that v's database has (0 when it lacks one of 2 pieces). The first call opens
// those slices; later ones return the figure kept.
func (db *DB) MaxPieces() int {
	if n := db.maxPieces.Load(); n > 0 {
		return int(n) - 1
	}
	n := db.countPieces()
	db.maxPieces.Store(int32(n) + 1)
	return n
}

// countPieces works out MaxPieces, opening every slice it needs.
func (db *DB) countPieces() int {
	for n := 2; n <= MaxPieces; n++ {
		for _, s := range SlicesOf(db.v, n) {
			if sl, _ := db.open(s); sl == nil {
				if n == 2 {
					return 0
				}
				return n - 1
			}
		}
	}
	return MaxPieces
}

// Stats returns the figures of slice s from its file's header.
func (db *DB) Stats(s Slice) (SliceStats, error) {
	sl, err := db.open(s)
	if err != nil {
		return SliceStats{}, err
	}
	if sl == nil {
		return SliceStats{}, fmt.Errorf("egdb: %s: slice %s is not in %s", db.v.Name, s, db.dir)
	}
	return sl.sf.h.Stats, nil
}

// FileSize returns the size in bytes of slice s's file (0 when it is not there).
func (db *DB) FileSize(s Slice) (int64, error) {
	sl, err := db.open(s)
	if err != nil || sl == nil {
		return 0, err
	}
	return sl.sf.size, nil
}

// open returns the open slice s, nil when its file is not in the directory.
func (db *DB) open(s Slice) (*dbSlice, error) {
	if s.Pieces() > MaxPieces || s.UsMen < 0 || s.UsKings < 0 || s.ThemMen < 0 || s.ThemKings < 0 {
		return nil, nil
	}
	sl := db.table[sliceKey(s)].Load()
	if sl == nil {
		return nil, nil
	}
	sl.once.Do(func() {
		sl.ix = newIndexer(db.g, s)
		sl.sf, sl.err = openSlice(sl.path, db.v.Name, s, sl.ix.size)
	})
	if sl.err != nil {
		return nil, sl.err
	}
	return sl, nil
}

// Close closes the open files. The DB must not be used afterwards.
func (db *DB) Close() error {
	var errs []error
	db.mu.Lock()
	defer db.mu.Unlock()
	for _, sl := range db.slices {
		sl.once.Do(func() { sl.err = errors.New("egdb: closed") })
		if sl.sf != nil {
			errs = append(errs, sl.sf.f.Close())
		}
	}
	return errors.Join(errs...)
}

// terminal returns the value of a position whose side to move has no legal move without
// a lookup (no piece left; in breakthrough a king of the opponent's), and whether it is one.
func (g *geometry) terminal(s Slice) (Result, bool) {
	if s.UsMen+s.UsKings == 0 || g.menOnly && s.ThemKings > 0 {
		if g.v.NoMoveWins {
			return Result{Value: Win, Plies: 0}, true
		}
		return Result{Value: Loss, Plies: 0}, true
	}
	return Result{}, false
}

func (db *DB) probe(p *engine.Position) (Result, error) {
	q, ok := db.g.fromPosition(p)
	if !ok {
		return Result{Value: Unknown, Plies: -1}, nil
	}
	return db.probePieces(&q, p)
}

// probePieces probes a position seen from the side to move; orig, when not nil, is the
// position itself (as given, either side to move), which spares building it to see
// whether it has a capture.
func (db *DB) probePieces(q *pieces, orig *engine.Position) (Result, error) {
	s := q.slice()
	if r, ok := db.g.terminal(s); ok {
		return r, nil
	}
	sl, err := db.open(s)
	if sl == nil {
		return Result{Value: Unknown, Plies: -1}, err
	}
	if sl.sf.h.CapturesOmitted {
		if orig != nil && db.v.HasCapture(orig) {
			p := db.g.toPosition(q)
			return db.probeCaptures(q, &p)
		}
		if orig == nil {
			if p := db.g.toPosition(q); db.v.HasCapture(&p) {
				return db.probeCaptures(q, &p)
			}
		}
	}
	i := sl.ix.index(q)
	k := int(i / uint64(sl.sf.h.Block))
	key := sl.id<<40 | uint64(k)
	raw := db.cache.get(key)
	if raw == nil {
		raw, err = sl.sf.block(k)
		if err != nil {
			return Result{Value: Unknown, Plies: -1}, err
		}
		db.cache.put(key, raw)
	}
	return decode(sl.sf.code(raw, int(i%uint64(sl.sf.h.Block)))), nil
}

// probeCaptures returns the value of q (p with White to move), whose side to move has a
// capture: the best of its captures' values, probed (the file leaves it out).
func (db *DB) probeCaptures(q *pieces, p *engine.Position) (Result, error) {
	moves := db.v.Generate(nil, p)
	unknown := false
	r, err := db.g.fromMoves(q, moves, func(succ *pieces) (Result, error) {
		r, err := db.probePieces(succ, nil)
		if r.Value == Unknown {
			unknown = true
		}
		return r, err
	})
	if err != nil || unknown {
		return Result{Value: Unknown, Plies: -1}, err
	}
	return r, nil
}

// fromPosition returns p seen from its side to move, false when it has more than
// MaxPieces pieces.
func (g *geometry) fromPosition(p *engine.Position) (pieces, bool) {
	white, black, kings := p.Sets()
	var q pieces // White's pieces as the side to move's, then turned if Black is to move
	n := 0
	for w := range 2 {
		for _, side := range [2]struct {
			set  uint64
			kind int
		}{{white[w], usMen}, {black[w], themMen}} {
			for b := side.set; b != 0; b &= b - 1 {
				i := bits.TrailingZeros64(b)
				if n++; n > MaxPieces {
					return pieces{}, false
				}
				k := side.kind
				if kings[w]>>i&1 != 0 {
					k++
				}
				q.add(k, uint8(g.denseOf[64*w+i]))
			}
		}
	}
	if p.Side == engine.Black {
		q = q.flipped(g.squares)
	}
	return q, true
}

// toPosition returns the engine position of q, with White to move: its pieces White's
// (Side is left White for the caller to set).
func (g *geometry) toPosition(q *pieces) engine.Position {
	var p engine.Position
	for k := range 4 {
		c := engine.White
		if k >= themMen {
			c = engine.Black
		}
		king := k == usKings || k == themKings
		for _, d := range q.sq[k][:q.n[k]] {
			p.Put(g.idxOf[d], c, king)
		}
	}
	return p
}

// cache is a bounded LRU of decompressed blocks, in shards that lock apart.
type cache struct {
	shards [16]cacheShard
}

type cacheShard struct {
	mu     sync.Mutex
	budget int64
	used   int64
	lru    list.List // of *cacheEntry, most recent first
	m      map[uint64]*list.Element
}

type cacheEntry struct {
	key uint64
	raw []byte
}

// cacheOverhead is the memory of an entry besides its bytes, roughly.
const cacheOverhead = 128

func newCache(bytes int64) *cache {
	c := &cache{}
	for i := range c.shards {
		c.shards[i].budget = bytes / int64(len(c.shards))
		c.shards[i].m = map[uint64]*list.Element{}
	}
	return c
}

func (c *cache) shard(key uint64) *cacheShard {
	return &c.shards[(key*0x9E3779B97F4A7C15)>>60]
}

func (c *cache) get(key uint64) []byte {
	s := c.shard(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.m[key]; ok {
		s.lru.MoveToFront(e)
		return e.Value.(*cacheEntry).raw
	}
	return nil
}

func (c *cache) put(key uint64, raw []byte) {
	s := c.shard(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[key]; ok {
		return
	}
	s.m[key] = s.lru.PushFront(&cacheEntry{key, raw})
	s.used += int64(len(raw)) + cacheOverhead
	for s.used > s.budget && s.lru.Len() > 1 {
		e := s.lru.Back()
		ce := e.Value.(*cacheEntry)
		s.lru.Remove(e)
		delete(s.m, ce.key)
		s.used -= int64(len(ce.raw)) + cacheOverhead
	}
}
