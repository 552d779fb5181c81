package pdn

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// decompress returns a reader for r that undoes gzip compression when r
// starts with the gzip magic bytes, and reads r unchanged otherwise.
func decompress(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		return zr, nil
	}
	return br, nil
}

// ReaderOptions configures the Reader that NewGameReader creates for PDN
// input.
type ReaderOptions struct {
	Strict   bool
	Encoding Encoding
}

// NewGameReader returns a GameReader for r: a JSONReader when r holds JSON
// lines as JSONWriter writes them, otherwise a PDN Reader configured with
// opt. gzip input is decompressed first.
func NewGameReader(r io.Reader, opt ReaderOptions) (GameReader, error) {
	br, isJSON, err := OpenInput(r)
	if err != nil {
		return nil, err
	}
	if isJSON {
		return NewJSONReader(br), nil
	}
	pr := NewReader(br)
	pr.Strict = opt.Strict
	pr.Encoding = opt.Encoding
	return pr, nil
}

// ErrBinary means input that is not text: a NUL byte, or many other
// control characters, in its first bytes (an image, an executable, UTF-16
// text), which PDN never has.
var ErrBinary = errors.New("binary data, not PDN text")

// binarySample is how many bytes OpenInput looks at for binary data.
const binarySample = 8 << 10

// OpenInput undoes gzip compression of r and tells JSON lines from PDN,
// as NewGameReader does. It returns an error wrapping ErrBinary for
// binary data.
func OpenInput(r io.Reader) (br *bufio.Reader, isJSON bool, err error) {
	d, err := decompress(r)
	if err != nil {
		return nil, false, err
	}
	br, ok := d.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(d, 64<<10)
	}
	sample, _ := br.Peek(binarySample)
	if err := checkText(sample); err != nil {
		return nil, false, err
	}
	head := sample[:min(len(sample), 512)]
	head = bytes.TrimLeft(head, " \t\r\n")
	for _, key := range []string{`{"tags":`, `{"moves":`, `{"result":`} {
		if bytes.HasPrefix(head, []byte(key)) {
			return br, true, nil
		}
	}
	return br, false, nil
}

// checkText returns an error wrapping ErrBinary when b, the first bytes of
// an input, has a NUL byte or more than one control character in a
// hundred (other than tab, line breaks, form feed, vertical tab, and the
// ^Z and ESC some old files hold).
func checkText(b []byte) error {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return fmt.Errorf("%w (a NUL byte at offset %d)", ErrBinary, i)
	}
	n := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1a && c != 0x1b {
			n++
		}
	}
	if n > 0 && n*100 > len(b) {
		return fmt.Errorf("%w (%d control characters in its first %d bytes)", ErrBinary, n, len(b))
	}
	return nil
}
