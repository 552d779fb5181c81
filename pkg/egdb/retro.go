package egdb

// retro spreads the values back level by level: at level d the positions whose value is
// a win or a loss in d plies are final; each one's predecessors in the group (the
// positions with a quiet move to it) become wins in d+1 when it is a loss, and lose one
// undecided move when it is a win, becoming losses in d+1 when none is left (or later, at
// the longest loss their moves to other slices give them). Wins are found shortest first
// and losses longest, so the distances are exact. What is left undecided is a draw.
func (sv *solver) retro() error {
	var cur, next []uint64
	var preds []uint64
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
		for n, e := range cur {
			if n&0xFFFF == 0xFFFF {
				if err := sv.b.ctx.Err(); err != nil {
					return err
				}
			}
			a, i := int(e>>63), e&idxMask
			loss := sv.val[a][i]&1 == 0 // a loss for its side to move
			b := sv.other(a)
			val, cnt := sv.val[b], sv.cnt[b]
			preds = sv.predecessors(a, i, preds[:0])
			for _, j := range preds {
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
		}
		sv.b.report(Progress{Phase: "retro", Positions: sv.total(), Solved: sv.solved.Load()})
		cur, next = next, cur[:0]
	}
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
		for k := range 4 {
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
