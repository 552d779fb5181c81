package pdn

import (
	"encoding/binary"
	"sync"
)

// The strings a Reader makes: short ones looked up in a cache, and the
// text of the commonest moves found in a table.

// str returns b as a string. Short strings (tag names and values, move
// strengths, results) are looked up in a cache first, so that the
// strings a file repeats are allocated once in a while rather than each
// time.
func (r *Reader) str(b []byte) string {
	if len(b) > 32 {
		return string(b)
	}
	return r.strHashed(b, strHash(b))
}

// strHashed is str of b (32 bytes or less), h = strHash(b).
func (r *Reader) strHashed(b []byte, h uint64) string {
	if len(b) > 32 {
		return string(b)
	}
	if r.strs == nil {
		r.strs = new(strCache)
	}
	slot := &r.strs[h>>(64-strCacheBits)]
	if *slot == string(b) {
		return *slot
	}
	s := string(b)
	*slot = s
	return s
}

// strCache is a direct-mapped cache of short strings: slot h>>(64 -
// strCacheBits) holds the last string of hash h (strHash) there.
type strCache [1 << strCacheBits]string

const strCacheBits = 11

// strHash hashes b for strCache: its 8-byte words (little-endian), the
// last one completed with zeros, mixed in turn (strMix).
func strHash(b []byte) uint64 {
	h := uint64(0)
	for ; len(b) >= 8; b = b[8:] {
		h = strMix(h, binary.LittleEndian.Uint64(b))
	}
	if len(b) > 0 {
		w := uint64(0)
		for i, c := range b {
			w |= uint64(c) << (8 * i)
		}
		h = strMix(h, w)
	}
	return h
}

// strMix mixes word w into hash h: the top bits of the result depend on
// every bit of both.
func strMix(h, w uint64) uint64 {
	h = (h ^ w) * 0x9e3779b97f4a7c15 // 2^64 / golden ratio (Knuth's multiplicative hashing)
	return h ^ h>>29
}

// moveText returns the canonical text of a move token, without
// allocating for the common two-square numeric moves.
func (r *Reader) moveText(t *Token) string {
	if sq := t.Squares(); len(sq) == 2 && sq[0]-1 < 99 && sq[1]-1 < 99 && t.sep != 0 {
		simpleOnce.Do(buildSimple)
		return simpleMove(int(sq[0]), int(sq[1]), byte(t.sep))
	}
	return r.str(t.Text())
}

// simpleMoves holds the canonical text of every two-square numeric move
// a<sep>b (sep '-', 'x' or ':' as k = 0, 1, 2; 0 < a, b < 100) in a slot
// of simpleSlot bytes at ((k*100+a)*100+b)*simpleSlot. A move's text is
// then a substring found by arithmetic: no table of string headers to
// load (cache misses) or for the GC to scan.
var (
	simpleOnce  sync.Once
	simpleMoves string
)

const simpleSlot = 5

func buildSimple() {
	// The digits of 1 to 99 as Square.appendTo writes them, written byte
	// by byte: the table is made at every run of the pdn command, where a
	// call per square cost much of the validation of a tiny file
	// (docs/benchmarks.md, measured choices).
	var digits [100][2]byte
	for a := 1; a < 100; a++ {
		digits[a] = [2]byte{'0' + byte(a/10), '0' + byte(a%10)}
	}
	all := make([]byte, 3*100*100*simpleSlot)
	for k, sep := range []byte{'-', 'x', ':'} {
		for a := 1; a < 100; a++ {
			da := digits[a][:]
			if a < 10 {
				da = da[1:]
			}
			for b := 1; b < 100; b++ {
				off := ((k*100+a)*100 + b) * simpleSlot
				slot := all[off : off+simpleSlot]
				w := copy(slot, da)
				slot[w] = sep
				if b < 10 {
					slot[w+1] = digits[b][1]
				} else {
					slot[w+1], slot[w+2] = digits[b][0], digits[b][1]
				}
			}
		}
	}
	simpleMoves = string(all)
}

// simpleText returns the canonical text of the move from<sep>to, two
// numeric squares below 100, from simpleMoves.
func simpleText(from, to int, sep byte) string {
	simpleOnce.Do(buildSimple)
	return simpleMove(from, to, sep)
}

// simpleMove is simpleText once simpleMoves is built.
func simpleMove(from, to int, sep byte) string {
	ks := 0
	switch sep {
	case 'x':
		ks = 1
	case ':':
		ks = 2
	}
	o, w := ((ks*100+from)*100+to)*simpleSlot, 3 // (without leading zeros, as moveText)
	if from >= 10 {
		w++
	}
	if to >= 10 {
		w++
	}
	return simpleMoves[o : o+w]
}
