package egdb

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// The slice file format (docs/egdb.md#format), little-endian throughout:
//
//	magic "RAFLEGDB" | uint32 version | uint32 h | h bytes of JSON header |
//	(blocks+1) uint64 offsets of the blocks in the data area | the data area |
//	uint32 CRC-32C (Castagnoli) of every byte before it | "EGDBEND\n"
//
// Block k holds the values of positions k*block to (k+1)*block-1 (the last one fewer),
// width bytes each, compressed with DEFLATE (RFC 1951). A value is 0 for a draw, 2d+1 for
// a win in d plies, 2d+2 for a loss in d plies; in a file without distances (header
// "distances": false), 0 for a draw, 1 for a win, 2 for a loss.
const (
	fileMagic   = "RAFLEGDB"
	fileTrailer = "EGDBEND\n"
	fileVersion = 1
	// FileExt is the extension of slice files.
	FileExt = ".egdb"
	// BlockPositions is the number of positions in a block, the unit of compression and of
	// the cache.
	BlockPositions = 8192
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// flateWriters keeps compressors for writeSlice: making one clears tables of about a MiB,
// which costs more than compressing a small slice.
var flateWriters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(io.Discard, flate.DefaultCompression)
	return zw
}}

// SliceStats are the figures of a slice, kept in its file's header.
type SliceStats struct {
	Positions uint64 `json:"positions"`
	Wins      uint64 `json:"wins"`
	Draws     uint64 `json:"draws"`
	Losses    uint64 `json:"losses"`
	// LongestWin is the longest win in plies (-1 without wins) and LongestIndex the index
	// of a position that has it.
	LongestWin   int    `json:"longestWin"`
	LongestIndex uint64 `json:"longestIndex"`
	// LongestLoss is the longest loss in plies (-1 without losses).
	LongestLoss int `json:"longestLoss"`
}

// header is a slice file's JSON header.
type header struct {
	Variant string `json:"variant"`
	Slice   string `json:"slice"`
	Width   int    `json:"width"`
	Block   int    `json:"block"`
	Blocks  int    `json:"blocks"`
	Codec   string `json:"codec"`
	// Distances: the values carry the distance in plies (otherwise win, draw, loss).
	Distances bool `json:"distances"`
	// CapturesOmitted: the values of the positions whose side to move has a capture are
	// not stored (each holds the value stored before it, which compresses best): a reader
	// plays the captures and looks up the positions after them.
	CapturesOmitted bool       `json:"capturesOmitted"`
	Stats           SliceStats `json:"stats"`
}

// fileName is the name of a slice's file.
func fileName(s Slice) string { return s.String() + FileExt }

// statsOf counts the values of codes (LongestWin and LongestLoss are -1 for codes
// without distances).
func statsOf(codes []uint16) SliceStats {
	st := SliceStats{Positions: uint64(len(codes)), LongestWin: -1, LongestLoss: -1}
	for i, c := range codes {
		switch {
		case c == 0:
			st.Draws++
		case c >= noDistLoss:
			if c == noDistWin {
				st.Wins++
			} else {
				st.Losses++
			}
		case c&1 == 1:
			st.Wins++
			if d := int(c-1) / 2; d > st.LongestWin {
				st.LongestWin, st.LongestIndex = d, uint64(i)
			}
		default:
			st.Losses++
			st.LongestLoss = max(st.LongestLoss, int(c-2)/2)
		}
	}
	return st
}

// writeSlice writes the codes of a slice into dir atomically: a temporary file in dir,
// synced, then renamed to its name; without distances, only win, draw or loss. It returns
// the file's size. The codes are changed to what the file holds.
//
// omit, when not nil, tells the positions whose side to move has a capture: their values
// are left out (header capturesOmitted).
//
// It stops with ctx's error when ctx is cancelled.
func writeSlice(ctx context.Context, dir, variant string, s Slice, codes []uint16, distances bool, omit func(i int) bool) (int64, error) {
	width := 1
	for i, c := range codes {
		switch {
		case !distances && c != 0 && c&1 == 1:
			codes[i] = noDistWin
		case !distances && c != 0:
			codes[i] = noDistLoss
		case distances && c >= noDistLoss:
			return 0, fmt.Errorf("egdb: %s: a value without its distance in a slice with distances", s)
		case c > 255:
			width = 2
		}
	}
	st := statsOf(codes)
	blocks := (len(codes) + BlockPositions - 1) / BlockPositions
	h := header{Variant: variant, Slice: s.String(), Width: width, Block: BlockPositions, Blocks: blocks, Codec: "deflate", Distances: distances, CapturesOmitted: omit != nil, Stats: st}
	hj, err := json.Marshal(h)
	if err != nil {
		return 0, err
	}
	var data bytes.Buffer
	offsets := make([]uint64, 0, blocks+1)
	raw := make([]byte, 0, BlockPositions*width)
	zw := flateWriters.Get().(*flate.Writer)
	defer flateWriters.Put(zw)
	var prev uint16
	for b := range blocks {
		if b&63 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		offsets = append(offsets, uint64(data.Len()))
		raw = raw[:0]
		lo := b * BlockPositions
		for k, c := range codes[lo:min(len(codes), lo+BlockPositions)] {
			if omit != nil && omit(lo+k) {
				c = prev
			}
			prev = c
			if !distances {
				c = fileCode(c)
			}
			if width == 1 {
				raw = append(raw, byte(c))
			} else {
				raw = binary.LittleEndian.AppendUint16(raw, c)
			}
		}
		zw.Reset(&data)
		if _, err := zw.Write(raw); err != nil {
			return 0, err
		}
		if err := zw.Close(); err != nil {
			return 0, err
		}
	}
	offsets = append(offsets, uint64(data.Len()))
	var out bytes.Buffer
	out.WriteString(fileMagic)
	out.Write(binary.LittleEndian.AppendUint32(nil, fileVersion))
	out.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hj))))
	out.Write(hj)
	for _, o := range offsets {
		out.Write(binary.LittleEndian.AppendUint64(nil, o))
	}
	out.Write(data.Bytes())
	out.Write(binary.LittleEndian.AppendUint32(nil, crc32.Checksum(out.Bytes(), castagnoli)))
	out.WriteString(fileTrailer)

	final := filepath.Join(dir, fileName(s))
	removeTemps(dir, s)
	tmp, err := os.CreateTemp(dir, "."+fileName(s)+".tmp*")
	if err != nil {
		return 0, fmt.Errorf("egdb: %w", err)
	}
	_, err = tmp.Write(out.Bytes())
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), final)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return 0, fmt.Errorf("egdb: write %s: %w", final, err)
	}
	return int64(out.Len()), nil
}

// removeTemps removes what a killed build left of slice s: writeSlice's temporary files of
// s. Only the slice's writer removes them, never a build's start: the shards of a stage
// run at once in one folder, each writing its own slices, and a shard that starts must
// not remove the file another is writing.
func removeTemps(dir string, s Slice) {
	old, _ := filepath.Glob(filepath.Join(dir, "."+fileName(s)+".tmp*"))
	for _, f := range old {
		os.Remove(f)
	}
}

// sliceFile is an open slice file: its header and block table in memory, the blocks read
// on demand.
type sliceFile struct {
	path    string
	f       *os.File
	h       header
	table   []uint64
	dataOff int64
	size    int64
}

// damaged returns an error naming path that wraps ErrDamaged.
func damaged(path, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrDamaged, path, fmt.Sprintf(format, args...))
}

// openSlice opens path, checks its checksum (reading the whole file once), its header
// against the variant and the slice expected, and reads its block table.
func openSlice(path, variant string, s Slice, positions uint64) (*sliceFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	sf, err := readSliceFile(f, path, variant, s, positions)
	if err != nil {
		f.Close()
		return nil, err
	}
	return sf, nil
}

func readSliceFile(f *os.File, path, variant string, s Slice, positions uint64) (*sliceFile, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	size := fi.Size()
	if size < int64(len(fileMagic)+8+4+len(fileTrailer)) {
		return nil, damaged(path, "truncated (%d bytes)", size)
	}
	// the checksum of everything before the trailer
	crc := crc32.New(castagnoli)
	if _, err := io.Copy(crc, io.NewSectionReader(f, 0, size-4-int64(len(fileTrailer)))); err != nil {
		return nil, fmt.Errorf("egdb: %s: %w", path, err)
	}
	tail := make([]byte, 4+len(fileTrailer))
	if _, err := f.ReadAt(tail, size-int64(len(tail))); err != nil {
		return nil, fmt.Errorf("egdb: %s: %w", path, err)
	}
	if string(tail[4:]) != fileTrailer {
		return nil, damaged(path, "truncated (no end marker)")
	}
	if got, want := crc.Sum32(), binary.LittleEndian.Uint32(tail); got != want {
		return nil, damaged(path, "checksum %08x, the file says %08x", got, want)
	}
	head := make([]byte, 16)
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, fmt.Errorf("egdb: %s: %w", path, err)
	}
	if string(head[:8]) != fileMagic {
		return nil, damaged(path, "not an egdb slice file")
	}
	if v := binary.LittleEndian.Uint32(head[8:]); v != fileVersion {
		return nil, damaged(path, "format version %d, this program reads %d", v, fileVersion)
	}
	hl := int64(binary.LittleEndian.Uint32(head[12:]))
	if 16+hl > size {
		return nil, damaged(path, "header longer than the file")
	}
	hj := make([]byte, hl)
	if _, err := f.ReadAt(hj, 16); err != nil {
		return nil, fmt.Errorf("egdb: %s: %w", path, err)
	}
	sf := &sliceFile{path: path, f: f, size: size}
	if err := json.Unmarshal(hj, &sf.h); err != nil {
		return nil, damaged(path, "header: %v", err)
	}
	h := &sf.h
	switch {
	case h.Variant != variant:
		return nil, damaged(path, "a slice of %s, not %s", h.Variant, variant)
	case h.Slice != s.String():
		return nil, damaged(path, "holds slice %s, not %s", h.Slice, s)
	case h.Stats.Positions != positions:
		return nil, damaged(path, "%d positions, the slice has %d", h.Stats.Positions, positions)
	case h.Codec != "deflate" || h.Width != 1 && h.Width != 2 || !h.Distances && h.Width != 1 || h.Block <= 0 ||
		uint64(h.Blocks) != (positions+uint64(h.Block)-1)/uint64(h.Block):
		return nil, damaged(path, "header %s", hj)
	}
	tl := int64(h.Blocks+1) * 8
	sf.dataOff = 16 + hl + tl
	dataEnd := size - int64(len(tail))
	if sf.dataOff > dataEnd {
		return nil, damaged(path, "block table longer than the file")
	}
	tb := make([]byte, tl)
	if _, err := f.ReadAt(tb, 16+hl); err != nil {
		return nil, fmt.Errorf("egdb: %s: %w", path, err)
	}
	sf.table = make([]uint64, h.Blocks+1)
	for i := range sf.table {
		sf.table[i] = binary.LittleEndian.Uint64(tb[8*i:])
		if i > 0 && sf.table[i] < sf.table[i-1] || int64(sf.table[i]) > dataEnd-sf.dataOff {
			return nil, damaged(path, "block table entry %d out of order", i)
		}
	}
	return sf, nil
}

// block reads and decompresses block k: the values of its positions as codes, width bytes
// each.
func (sf *sliceFile) block(k int) ([]byte, error) {
	lo, hi := sf.table[k], sf.table[k+1]
	comp := make([]byte, hi-lo)
	if _, err := sf.f.ReadAt(comp, sf.dataOff+int64(lo)); err != nil {
		return nil, fmt.Errorf("egdb: %s: %w", sf.path, err)
	}
	n := uint64(sf.h.Block)
	if last := sf.h.Stats.Positions - uint64(k)*n; last < n {
		n = last
	}
	raw := make([]byte, n*uint64(sf.h.Width))
	zr := flate.NewReader(bytes.NewReader(comp))
	if _, err := io.ReadFull(zr, raw); err != nil {
		return nil, damaged(sf.path, "block %d: %v", k, err)
	}
	if _, err := zr.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		return nil, damaged(sf.path, "block %d: longer than its positions", k)
	}
	return raw, nil
}

// The codes in memory of a win and a loss without distance (files without distances hold
// 1 and 2 instead).
const (
	noDistLoss = 0x7FFE
	noDistWin  = 0x7FFF
)

// fileCode returns the code of a file without distances for a code in memory.
func fileCode(c uint16) uint16 {
	switch c {
	case noDistWin:
		return 1
	case noDistLoss:
		return 2
	}
	return 0
}

// code returns the code in memory of position i of a decompressed block.
func (sf *sliceFile) code(raw []byte, i int) uint16 {
	var c uint16
	if sf.h.Width == 1 {
		c = uint16(raw[i])
	} else {
		c = binary.LittleEndian.Uint16(raw[2*i:])
	}
	if !sf.h.Distances {
		switch c {
		case 1:
			return noDistWin
		case 2:
			return noDistLoss
		}
	}
	return c
}

// decode turns a code into a Result.
func decode(c uint16) Result {
	switch {
	case c == 0:
		return Result{Value: Draw, Plies: -1}
	case c == noDistWin:
		return Result{Value: Win, Plies: -1}
	case c == noDistLoss:
		return Result{Value: Loss, Plies: -1}
	case c&1 == 1:
		return Result{Value: Win, Plies: int(c-1) / 2}
	}
	return Result{Value: Loss, Plies: int(c-2) / 2}
}

// encode turns a win or loss in d plies into a code.
func encodeWin(d int) uint16  { return uint16(2*d + 1) }
func encodeLoss(d int) uint16 { return uint16(2*d + 2) }

// readAll decompresses every block of the file: the codes of all positions.
func (sf *sliceFile) readAll() ([]uint16, error) {
	codes := make([]uint16, 0, sf.h.Stats.Positions)
	for k := range sf.h.Blocks {
		raw, err := sf.block(k)
		if err != nil {
			return nil, err
		}
		for i := range len(raw) / sf.h.Width {
			codes = append(codes, sf.code(raw, i))
		}
	}
	return codes, nil
}
