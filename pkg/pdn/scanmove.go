package pdn

// The tokens that start with a digit or a square: results, move numbers
// and moves. scanNumberFast and scanCapture read the commonest in place;
// scanNumber and scanMove read them all (FuzzPlain checks that both ways
// give the same tokens).

// moveWindow is how many bytes a move, number or result token may span.
const moveWindow = 256

// window returns the unread bytes, with at least moveWindow of them
// buffered unless the input ends sooner.
func (s *Scanner) window() []byte {
	if s.n-s.i < moveWindow {
		s.fill(moveWindow)
	}
	return s.buf[s.i:s.n]
}

// at returns b[j], or -1 past the end.
func at(b []byte, j int) int {
	if j < len(b) {
		return int(b[j])
	}
	return -1
}

// scanNumber scans a token starting with a digit: a result, a move number
// or a numeric move.
func (s *Scanner) scanNumber() {
	if s.n-s.i >= 8 && !s.slow && s.scanNumberFast(s.buf[s.i:s.i+8]) {
		return
	}
	b := s.window()
	c0, c1 := at(b, 0), at(b, 1)
	// Results. "1-1" is a result only when no digit follows (1-10 is a move).
	if c1 == '-' && c0 <= '2' {
		c2 := at(b, 2)
		if c2 >= '0' && c2 <= '2' && !isDigit(at(b, 3)) {
			switch (c0-'0')*3 + c2 - '0' {
			case 3, 1, 6, 2, 4, 0: // 1-0 0-1 2-0 0-2 1-1 0-0
				s.setRaw(TokResult, 3)
				return
			}
		}
	}
	if c0 == '1' && c1 == '/' && len(b) >= 7 && string(b[2:7]) == "2-1/2" && !isDigit(at(b, 7)) {
		s.setRaw(TokResult, 7)
		return
	}
	j := 0
	n := 0
	// The run is looked at up to moveWindow digits: b may hold the whole
	// rest of the input, and a long run is cut into tokens of that size.
	for j < len(b) && j < moveWindow && isDigit(int(b[j])) {
		if j < 9 {
			n = n*10 + int(b[j]-'0')
		}
		j++
	}
	if at(b, j) == '.' {
		k := 1
		for at(b, j+k) == '.' {
			k++
		}
		if k == 2 || k > 3 {
			s.warn(WarnMoveNumber, s.pos(), string(b[:j+k]))
		}
		s.setRaw(TokMoveNumber, j+k)
		s.tok.num = n
		s.tok.cont = k >= 2
		return
	}
	if !s.scanMove(b) {
		s.scanUnknown()
	}
}

// scanNumberFast scans the commonest tokens that start with a digit, a
// move number "N." and a move of two squares "N-N" ('-', 'x' or ':'),
// each number of one or two digits, from the next 8 bytes. It reports
// false, having consumed nothing, for anything else (a result, longer
// numbers, more dots or squares, anything to repair), which scanNumber
// reads as before.
func (s *Scanner) scanNumberFast(b []byte) bool {
	_ = b[7]
	n, j := int(b[0]-'0'), 1
	if c := b[1]; c >= '0' && c <= '9' {
		n, j = n*10+int(c-'0'), 2
	}
	switch c := b[j]; c {
	case '.':
		if b[j+1] == '.' {
			return false
		}
		s.setRaw(TokMoveNumber, j+1)
		s.tok.num = n
		return true
	case '-', 'x', ':':
		if n == 0 || j == 1 && b[0] <= '2' && b[2] >= '0' && b[2] <= '2' && !isDigit(int(b[3])) {
			return false // (perhaps a result: 1-0, 2-0, 1-1...)
		}
		d := b[j+1]
		if d < '0' || d > '9' {
			return false
		}
		m, e := int(d-'0'), j+2
		if d := b[e]; d >= '0' && d <= '9' {
			m, e = m*10+int(d-'0'), e+1
		}
		if b[e] == c && c != '-' && m > 0 {
			return s.scanCapture(n, m, c, e)
		}
		if d := b[e]; m == 0 || d >= '0' && d <= '9' || d == '-' || d == 'x' || d == ':' || d == 'X' {
			return false
		}
		s.sq = append(s.sq[:0], Square(n), Square(m))
		s.finishMove(Sep(c), e)
		return true
	}
	return false
}

// scanCapture scans the rest of a move of more than two numeric squares
// (16 at most), each of one or two digits, all apart by sep, 'x' or ':',
// such as "26x17x10x1": the squares n and m that scanNumberFast read, and
// the next separator at the token's byte e. It reads as scanMove does, and
// reports false, having consumed nothing, for anything else (a square cut
// or of three digits, blanks, another separator).
func (s *Scanner) scanCapture(n, m int, sep byte, e int) bool {
	b := s.buf[s.i:s.n]
	s.sq = append(s.sq[:0], Square(n), Square(m))
	for b[e] == sep && len(s.sq) < 16 {
		if e+3 >= len(b) {
			return false
		}
		d := b[e+1] - '0'
		if d > 9 {
			return false
		}
		q, k := int(d), e+2
		if d := b[k] - '0'; d <= 9 {
			q, k = q*10+int(d), k+1
		}
		if q == 0 {
			return false
		}
		s.sq = append(s.sq, Square(q))
		e = k
	}
	if d := b[e]; d >= '0' && d <= '9' || d == '-' || d == 'x' || d == ':' || d == 'X' {
		return false
	}
	s.finishMove(Sep(sep), e)
	return true
}

// squareAt parses a square at b[j]. It returns the square, its length
// and whether it was written in upper case; length 0 means no square.
func squareAt(b []byte, j int, alg bool) (Square, int, bool) {
	c := at(b, j)
	if isDigit(c) {
		if alg {
			return 0, 0, false
		}
		n := c - '0'
		k := 1
		if d := at(b, j+1); isDigit(d) {
			n = n*10 + d - '0'
			k = 2
			if isDigit(at(b, j+2)) {
				return 0, 0, false
			}
		}
		if n == 0 {
			return 0, 0, false
		}
		return Square(n), k, false
	}
	if c < 0 || !isLetter(byte(c)) || !alg {
		return 0, 0, false
	}
	lc := byte(c) | 0x20
	d := at(b, j+1)
	if lc == 'x' || !isDigit(d) || d == '0' {
		return 0, 0, false
	}
	r := d - '0'
	k := 2
	if d2 := at(b, j+2); isDigit(d2) {
		r = r*10 + d2 - '0'
		k = 3
	}
	return AlgSquare(lc, r), k, c < 'a'
}

// scanMove scans a move at the start of b. It reports false (consuming
// nothing) when the text is not a move.
func (s *Scanner) scanMove(b []byte) bool {
	alg := isLetter(b[0])
	s.sq = s.sq[:0]
	var sep Sep
	repair := ""
	first, k, upper := squareAt(b, 0, alg)
	if k == 0 {
		// Four digits with no separator: 3228 = 32-28.
		if !alg && len(b) >= 4 && isDigit(int(b[0])) && isDigit(int(b[1])) && isDigit(int(b[2])) && isDigit(int(b[3])) &&
			!isDigit(at(b, 4)) && at(b, 4) != '.' && b[0] != '0' && b[2] != '0' {
			s.sq = append(s.sq, Square((b[0]-'0')*10+b[1]-'0'), Square((b[2]-'0')*10+b[3]-'0'))
			s.warn(WarnMoveSyntax, s.pos(), "no separator in "+string(b[:4]))
			s.finishMove('-', 4)
			return true
		}
		return false
	}
	if upper {
		repair = "upper case"
	}
	s.sq = append(s.sq, first)
	j := k
	for len(s.sq) < 64 {
		c := at(b, j)
		var cs Sep
		switch c {
		case '-', 'x', ':':
			cs = Sep(c)
		case 'X':
			cs = 'x'
		}
		if cs != 0 {
			m := j + 1
			for d := at(b, m); d == ' ' || d == '\t'; d = at(b, m) {
				m++
			}
			sq, k, up := squareAt(b, m, alg)
			if k == 0 {
				break
			}
			switch {
			case c == 'X':
				repair = "separator X"
			case up:
				repair = "upper case"
			}
			if sep == 0 {
				sep = cs
			} else if sep != cs {
				repair = "mixed separators"
				if cs != '-' {
					sep = cs
				}
			}
			s.sq = append(s.sq, sq)
			j = m + k
			continue
		}
		if alg && sep == 0 && len(s.sq) == 1 {
			if sq, k, up := squareAt(b, j, true); k > 0 {
				if up {
					repair = "upper case"
				}
				s.sq = append(s.sq, sq)
				j += k
			}
		}
		break
	}
	if len(s.sq) < 2 {
		return false
	}
	if sep == '-' && len(s.sq) > 2 {
		repair = "'-' between more than two squares"
	}
	if repair != "" {
		s.warn(WarnMoveSyntax, s.pos(), string(b[:j])+": "+repair)
	}
	s.finishMove(sep, j)
	return true
}

// finishMove makes the scanned squares (s.sq) a TokMove of length k. Its
// text is built on demand by Token.Text.
func (s *Scanner) finishMove(sep Sep, k int) {
	t := &s.tok
	t.Kind = TokMove
	t.start, t.end = s.i, s.i+k
	t.sep = sep
	s.i += k
}
