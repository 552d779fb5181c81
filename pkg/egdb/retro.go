package egdb

import "sync"

// retro spreads the values back level by level: at level d the positions whose value is
// a win or a loss in d plies are final; each one's predecessors in the group (the
// positions with a quiet move to it) become wins in d+1 when it is a loss, and lose one
// undecided move when it is a win, becoming losses in d+1 when none is left (or later, at
// the longest loss their moves to other slices give them). Wins are found shortest first
// and losses longest, so the distances are exact. What is left undecided is a draw.
func (sv *solver) retro() error {
	var cur, next []uint64
	for d := 0; ; d++ {
		if err := sv.b.ctx.Err(); err != nil {
			return err
		}
		// the positions decided at level d by their moves to other slices
		if d < len(sv.pending) {
			for _, e := range sv.pending[d] {
				a, i := int(e>>63), e&idxMask
				c := sv.val[a][i]
				if c&unresolved == 0 {
					if d == 0 {
						cur = append(cur, e) // the end of the game, set by forward
					}
					continue
				}
				if e&winBit != 0 {
					sv.val[a][i] = encodeWin(d)
				} else {
					sv.val[a][i] = encodeLoss(d)
				}
				cur = append(cur, e&^winBit)
			}
			sv.pending[d] = nil
		}
		if len(cur) == 0 && d >= len(sv.pending) {
			return nil
		}
		sv.solved.Add(uint64(len(cur)))
		for lo := 0; lo < len(cur); lo += retroBatch {
			if err := sv.b.ctx.Err(); err != nil {
				return err
			}
			batch := cur[lo:min(len(cur), lo+retroBatch)]
			sv.unmoveBatch(batch)
			// apply in the order of cur, whatever the threads: the files do not depend on -j
			for _, w := range sv.workers {
				k := 0
				for n, e := range batch[w.lo:w.hi] {
					a, i := int(e>>63), e&idxMask
					loss := sv.val[a][i]&1 == 0 // a loss for its side to move
					b := sv.other(a)
					val, cnt := sv.val[b], sv.cnt[b]
					m := int(w.counts[n])
					for _, j := range w.preds[k : k+m] {
						if val[j]&unresolved == 0 || cnt[j] == hasCapture {
							continue
						}
						if loss {
							val[j] = encodeWin(d + 1)
							next = append(next, uint64(b)<<63|j)
							continue
						}
						if cnt[j] == cannotLose {
							continue
						}
						cnt[j]--
						if cnt[j] > 0 {
							continue
						}
						l := max(d+1, int(val[j]&^unresolved)-1)
						if l == d+1 {
							val[j] = encodeLoss(d + 1)
							next = append(next, uint64(b)<<63|j)
						} else {
							sv.addPending(l, uint64(b)<<63|j)
						}
					}
					k += m
				}
			}
		}
		sv.b.report(Progress{Phase: "retro", Positions: sv.total(), Solved: sv.solved.Load()})
		cur, next = next, cur[:0]
	}
}

// retroBatch is the number of decided positions whose predecessors the threads work out
// at a time, before they are applied in order.
const retroBatch = 1 << 16

// retroWorker holds the predecessors of a part of a batch: for the positions lo to hi of
// the batch, the number of each one's predecessors, and all of them in order.
type retroWorker struct {
	lo, hi int
	counts []uint8
	preds  []uint64
}

// unmoveBatch works out the predecessors of every position of batch, on the build's
// threads, each on a contiguous part.
func (sv *solver) unmoveBatch(batch []uint64) {
	jobs := min(sv.b.jobs, max(1, len(batch)/1024))
	for len(sv.workers) < jobs {
		sv.workers = append(sv.workers, &retroWorker{})
	}
	ws := sv.workers[:jobs]
	var wg sync.WaitGroup
	for k, w := range ws {
		w.lo, w.hi = k*len(batch)/jobs, (k+1)*len(batch)/jobs
		w.counts, w.preds = w.counts[:0], w.preds[:0]
		work := func() {
			for _, e := range batch[w.lo:w.hi] {
				before := len(w.preds)
				w.preds = sv.predecessors(int(e>>63), e&idxMask, w.preds)
				w.counts = append(w.counts, uint8(len(w.preds)-before))
			}
		}
		if jobs == 1 {
			work()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	wg.Wait()
	sv.workers = sv.workers[:jobs]
}

// predecessors appends to dst the indices, in the swap of slot a's slice, of the
// positions with a quiet move to position i of slot a: the opponent's (the side that has
// just moved) pieces are moved back, the kings along their lines, the men one step
// backward. The position before must have no capture (a quiet move is only legal then):
// the caller skips those that have one (hasCapture).
func (sv *solver) predecessors(a int, i uint64, dst []uint64) []uint64 {
	g := sv.g
	q := sv.ix[a].unindex(i)
	var occ sqset
	for k := range 4 {
		for _, d := range q.sq[k][:q.n[k]] {
			occ.add(d)
		}
	}
	ixb := sv.ix[sv.other(a)]
	for _, s := range q.sq[themKings][:q.n[themKings]] {
		for k := range g.lines {
			for _, e := range g.rays[s][k] {
				if occ.has(e) {
					break
				}
				dst = append(dst, sv.before(ixb, &q, themKings, s, e))
				if g.short {
					break
				}
			}
		}
	}
	for _, s := range q.sq[themMen][:q.n[themMen]] {
		for _, e := range g.themBack[s] {
			if !occ.has(e) {
				dst = append(dst, sv.before(ixb, &q, themMen, s, e))
			}
		}
	}
	return dst
}

// before returns the index in ixb of q with the opponent's piece of kind k moved back
// from s to e, seen from the side that moves it.
func (sv *solver) before(ixb *indexer, q *pieces, k int, s, e uint8) uint64 {
	p := *q
	p.remove(k, s)
	p.add(k, e)
	f := p.flipped(sv.g.squares)
	return ixb.index(&f)
}
