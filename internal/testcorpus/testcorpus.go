package testcorpus

import (
	"bytes"
	"os"
)

// FullEnv names the environment variable that makes the tests read the corpus whole.
const FullEnv = "RAFLE_FULL_CORPUS"

// Full reports whether FullEnv asks for the whole corpus.
func Full() bool { return os.Getenv(FullEnv) != "" }

// Limit is the size of a file above which Sample cuts it, and about the size of the sample.
const Limit = 1 << 20

// windows is how many stretches of the file a sample takes.
const windows = 4

// Sample returns data when it is at most Limit bytes or Full is set; otherwise about Limit
// bytes of it: windows stretches of Limit/windows bytes, evenly spread from its start to
// its end, each beginning where a game begins (after a blank line, at a tag) and ending
// where the next one does, so that a sample holds whole games only (except where the
// file itself has no blank line before a tag).
func Sample(data []byte) []byte {
	if len(data) <= Limit || Full() {
		return data
	}
	var out []byte
	size := Limit / windows
	for k := range windows {
		from := gameStart(data, (len(data)-size)*k/(windows-1))
		to := gameStart(data, from+size)
		out = append(out, data[from:to]...)
	}
	return out
}

// gameStart returns the first offset at or after off where a game begins, or len(data).
func gameStart(data []byte, off int) int {
	if off <= 0 {
		return 0
	}
	if off >= len(data) {
		return len(data)
	}
	for _, sep := range [][]byte{[]byte("\n\n["), []byte("\r\n\r\n[")} {
		if i := bytes.Index(data[off:], sep); i >= 0 {
			return off + i + len(sep) - 1
		}
	}
	return len(data)
}
