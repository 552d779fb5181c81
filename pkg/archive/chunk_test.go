package archive

import "testing"

// TestFinderStages calls each stage of finder.scan alone, in the state it
// follows, on the bytes where that state starts, and checks where it goes on
// and the state it leaves.
func TestFinderStages(t *testing.T) {
	type stage func(f *finder, data []byte, i int) (int, step)
	noStep := func(g func(*finder, []byte, int64, int) int) stage {
		return func(f *finder, data []byte, i int) (int, step) { return g(f, data, 0, i), stepOn }
	}
	top := func(f *finder, data []byte, i int) (int, step) { return f.top(data, 0, i, true, 0) }
	afterOpen := func(f *finder, data []byte, i int) (int, step) { return f.afterOpen(data, 0, i, false) }
	for _, tc := range []struct {
		name   string
		state  findState
		n      int
		data   string
		i      int
		stage  stage
		next   int
		step   step
		after  findState
		afterN int
		line   int
	}{
		// The name ends before the '"', which top then follows.
		{"tag name", findTagName, 1, `[Event "x"]`, 2, noStep((*finder).tagName), 7, stepOn, findTop, 6, 1},
		{"tag name at a line break", findTagName, 1, "[Ev\nx", 2, noStep((*finder).tagName), 4, stepOn, findTop, 2, 2},
		{"tag name of 256 bytes", findTagName, 255, "[abcd", 1, noStep((*finder).tagName), 3, stepOn, findTop, 257, 1},
		{"string", findString, 1, `"a b" x`, 1, noStep((*finder).quoted), 5, stepOn, findTop, 5, 1},
		{"string to an escape", findString, 1, `"a\"b"`, 1, noStep((*finder).quoted), 3, stepOn, findString, 3, 1},
		{"string to its line's end", findString, 1, "\"ab\r\nx", 1, noStep((*finder).quoted), 4, stepOn, findTop, 3, 2},
		{"comment", findComment, 0, "{a [b}c", 1, noStep((*finder).comment), 6, stepOn, findTop, 0, 1},
		{"comment over lines", findComment, 0, "{a\n", 1, noStep((*finder).comment), 3, stepOn, findComment, 0, 2},
		{"';' comment", findLine, 1, "; x", 1, noStep((*finder).lineComment), 2, stepOn, findLine, 2, 1},
		{"setup ends", findSetup, 0, "/W:W1/ 1-0", 5, noStep((*finder).setup), 6, stepOn, findTop, 0, 1},
		{"after '[' blank", findAfterOpen, 0, "[ Event", 1, afterOpen, 2, stepOn, findAfterOpen, 0, 1},
		{"after '[' a name starts", findAfterOpen, 0, "[Event", 1, afterOpen, 2, stepOn, findTagName, 1, 1},
		{"after '[' needs the next byte", findAfterOpen, 0, `[\`, 1, afterOpen, 1, stepMore, findAfterOpen, 0, 1},
		{"terminator then line break", findTop, 0, "1. 11-15 1-0\n[", 0, top, 12, stepCut, findTop, 0, 1},
		{"'[' after movetext", findTop, 0, "1. 11-15\n[", 0, top, 9, stepOn, findTop, 0, 2},
		{"'{' starts a comment", findTop, 0, "11-15 {a}", 0, top, 7, stepOn, findComment, 0, 1},
	} {
		f := newFinder(0, 0)
		f.state, f.n = tc.state, tc.n
		next, s := tc.stage(f, []byte(tc.data), tc.i)
		if next != tc.next || s != tc.step || f.state != tc.after || f.n != tc.afterN || f.line != tc.line {
			t.Errorf("%s: next %d, step %d, state %d, n %d, line %d; want %d, %d, %d, %d, %d", tc.name,
				next, s, f.state, f.n, f.line, tc.next, tc.step, tc.after, tc.afterN, tc.line)
		}
	}

	// After movetext, a '[' that starts a line is a boundary.
	f := newFinder(0, 0)
	data := []byte("1. 11-15\n[")
	i, _ := f.top(data, 0, 0, true, 0)
	if i, s := f.top(data, 0, i, true, 0); i != 9 || s != stepCutTag {
		t.Errorf("'[' after movetext: next %d, step %d; want 9, %d", i, s, stepCutTag)
	}
}
