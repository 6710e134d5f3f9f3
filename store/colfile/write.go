package colfile

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"memtrace/engine/lexfile"
)

// Stride is the bytes of a row:
//
//	[0, 48)     id, seq, importance (float64 bits), boost (float64 bits),
//	            access count, superseded by
//	[48, 88)    the times' seconds since 1970 (Row.Times order)
//	[88, 108)   the times' nanoseconds
//	[108, 116)  content CRC-32C, content length in bytes
//	[116, 120)  flags (flagHashString)
//	[120, 160)  the strings' numbers (Row.Strs order)
//	[160, 192)  the hash's 32 bytes (a SHA-256 in hex), or with
//	            flagHashString the number of its string
const Stride = 192

// flagHashString: the hash is not 64 lowercase hex digits and is kept as a
// string.
const flagHashString = 1

// Writer collects the rows of a file to write: Add each memory as the load
// reads it, in ascending id order, then Write. A row Add cannot keep as it
// is is left out (the load reads it from the database).
type Writer struct {
	rows   []byte
	n      int
	maxSeq int64
	lastID int64
	strs   []string
	idx    map[string]uint32
	bytes  int
	broken bool
}

// NewWriter starts a file of about n rows.
func NewWriter(n int) *Writer {
	return &Writer{rows: make([]byte, 0, n*Stride), idx: map[string]uint32{}, lastID: math.MinInt64}
}

func (w *Writer) str(s string) uint32 {
	if i, ok := w.idx[s]; ok {
		return i
	}
	i := uint32(len(w.strs))
	w.strs = append(w.strs, s)
	w.idx[s] = i
	w.bytes += len(s)
	return i
}

// Add adds r, whose content is content, and reports whether it was kept:
// a row out of id order, or whose times a row cannot give back exactly
// (not UTC), is not.
func (w *Writer) Add(r *Row, content string) bool {
	if w == nil || r.ID <= w.lastID {
		if w != nil {
			w.broken = true
		}
		return false
	}
	for _, t := range r.Times {
		if time.Unix(t.Unix(), int64(t.Nanosecond())).UTC() != t {
			return false
		}
	}
	le := binary.LittleEndian
	var b [Stride]byte
	le.PutUint64(b[0:], uint64(r.ID))
	le.PutUint64(b[8:], uint64(r.Seq))
	le.PutUint64(b[16:], math.Float64bits(r.Importance))
	le.PutUint64(b[24:], math.Float64bits(r.Boost))
	le.PutUint64(b[32:], uint64(r.AccessCount))
	le.PutUint64(b[40:], uint64(r.SupersededBy))
	for i, t := range r.Times {
		le.PutUint64(b[48+8*i:], uint64(t.Unix()))
		le.PutUint32(b[88+4*i:], uint32(t.Nanosecond()))
	}
	le.PutUint32(b[108:], ContentSum(content))
	le.PutUint32(b[112:], uint32(len(content)))
	for i, s := range r.Strs {
		le.PutUint32(b[120+4*i:], w.str(s))
	}
	if h, err := hex.DecodeString(r.Hash); err == nil && len(h) == 32 && hex.EncodeToString(h) == r.Hash {
		copy(b[160:], h)
	} else {
		le.PutUint32(b[116:], flagHashString)
		le.PutUint32(b[160:], w.str(r.Hash))
	}
	w.rows = append(w.rows, b[:]...)
	w.n++
	w.maxSeq = max(w.maxSeq, r.Seq)
	w.lastID = r.ID
	return true
}

// Rows is the number of rows kept.
func (w *Writer) Rows() int { return w.n }

// Write writes the file at path, with the file mode perm, of a database
// that had made erasures erasures when the rows were read, and renames it
// into place under the lock once check (nil: none) says the rows are still
// fit to keep (no erasure since they were read). Nothing is at path unless
// the whole file is: the temporary file is removed on any failure. The
// file is not synced: a crash may leave it empty or torn, which its
// checksum refuses (it is a cache; the next load reads the columns from
// the database and writes it again).
func (w *Writer) Write(path string, perm os.FileMode, erasures int64, check func() error) (err error) {
	if w.broken {
		return errors.New("column file: rows out of id order")
	}
	if len(w.strs) >= 1<<31 || w.bytes >= 1<<32-8 || w.n >= 1<<31 {
		return errors.New("column file: too many rows or string bytes")
	}
	lexfile.RemoveStaleTemps(path)
	fd, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := fd.Name()
	defer func() {
		if fd != nil {
			fd.Close()
		}
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if err := fd.Chmod(perm); err != nil {
		return err
	}
	if _, err := fd.Write(make([]byte, headerSize)); err != nil {
		return err
	}
	sum := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(fd, sum), 1<<20)
	le := binary.LittleEndian
	var b [4]byte
	off := 0
	for _, s := range w.strs {
		bw.Write(le.AppendUint32(b[:0], uint32(off)))
		off += len(s)
	}
	bw.Write(le.AppendUint32(b[:0], uint32(off)))
	for _, s := range w.strs {
		bw.WriteString(s)
	}
	at := uint64(headerSize) + uint64(len(w.strs)+1)*4 + uint64(off)
	bw.Write(make([]byte, pad8(at)-at))
	bw.Write(w.rows)
	if err := bw.Flush(); err != nil {
		return err
	}
	h := make([]byte, headerSize)
	copy(h, magic)
	le.PutUint32(h[8:], version)
	le.PutUint32(h[12:], Stride)
	le.PutUint64(h[16:], lexfile.Identity())
	le.PutUint64(h[24:], uint64(w.n))
	le.PutUint64(h[32:], uint64(len(w.strs)))
	le.PutUint64(h[40:], uint64(off))
	le.PutUint64(h[48:], uint64(w.maxSeq))
	le.PutUint64(h[56:], uint64(erasures))
	le.PutUint32(h[64:], sum.Sum32())
	le.PutUint32(h[68:], crc32.Checksum(h[:68], castagnoli))
	if _, err := fd.WriteAt(h, 0); err != nil {
		return err
	}
	if err := fd.Close(); err != nil {
		fd = nil
		return err
	}
	fd = nil
	return lexfile.RenameCacheFile(tmp, path, check)
}

// Remove deletes the column file of a database (erase: no erased memory's
// key, session or hash may survive in it) and any temporary file a writer
// left, under the lock a writer renames under.
func Remove(path string) error { return lexfile.RemoveCacheFile(path) }
