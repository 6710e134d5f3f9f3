// Package colfile is the column file beside a SQLite database
// (PATH-columns): every memory's fields but its text and its vector, as
// fixed-stride rows of integers and numbers of interned strings, so that a
// load reads from SQLite only each row's id, seq and content (and the
// vector blob where there is no vector file) instead of every column —
// the per-column cost of the driver and the parsing of five timestamps a
// row were most of a 100k-memory load's decode. It is a cache of the
// database, never the truth: a row is used only while the row read from
// the database has the same id, write sequence (seq: every write of a row
// takes a new one), content length and CRC-32C of its content bytes, and
// the file was written by this very binary; any other row is read from the
// database whole.
//
// Layout (little-endian, every section 8-byte aligned):
//
//	[0, 72)   header: magic, version, row stride, the writer's identity
//	          (the executable's size and modification time), rows,
//	          strings, string bytes, the highest seq written, the count
//	          of the database's erasures it was written after, the body's
//	          CRC-32C and the header's own CRC-32C
//	strings   (strings+1)·4 offsets, then the strings' bytes, padded to 8
//	rows      rows·Stride bytes in ascending id order (see the row layout
//	          in write.go)
//
// A file is written whole to a temporary name and renamed over the old one
// (a rename replaces a symbolic link at the path, never follows it), so a
// reader sees the old file or the new one; the CRC covers every byte, so a
// file a crash tore is refused as a whole. An erasure removes the file
// (Remove) under the lock a writer renames under, after checking that no
// erasure came since its load began: no erased memory's key, session or
// hash stays in it (it holds no text). The file is read, not mapped: a
// first pass checks the CRC, the load then reads the rows in order through
// a small buffer, so the file adds little to a process's resident set.
package colfile

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"time"
	"unsafe"

	"memtrace/engine/lexfile"
)

// Suffix names the file beside its database: PATH + Suffix.
const Suffix = "-columns"

// FileEnv turns the column file off when set to "off" (every load reads
// every column from SQLite and writes none); set to "on" a load writes it
// whatever the number of memories. It follows MEMTRACE_LEXICON_FILE.
const FileEnv = "MEMTRACE_COLUMNS_FILE"

// MinRows is the number of memories from which a load writes the file:
// below it reading every column costs less than the file's write. A
// variable for tests.
var MinRows = 4096

const (
	magic      = "MTCOLF\x00\n"
	version    = 1
	headerSize = 72
)

// The strings of a row, in Row.Strs.
const (
	Key = iota
	Kind
	Type
	OrigType
	Status
	Tier
	Scope
	Role
	Session
	Embedder
	NStrs
)

// The times of a row, in Row.Times.
const (
	CreatedAt = iota
	LastAccessedAt
	BoostAt
	ValidTo
	SupersededAt
	NTimes
)

// Row is one memory's columns. Times are UTC.
type Row struct {
	ID, Seq, AccessCount, SupersededBy int64
	Importance, Boost                  float64
	Times                              [NTimes]time.Time
	Strs                               [NStrs]string
	Hash                               string
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrInvalid: the file is not a whole column file of this version and
// binary (torn, truncated, of another build or not one at all).
var ErrInvalid = errors.New("column file is invalid")

// File is an open column file, read in id order until Close.
type File struct {
	MaxSeq   int64 // the highest seq of a row written
	Erasures int64 // the database's erasures when it was written
	fd       *os.File
	strs     []string
	rowsAt   int64 // the rows' offset in the file
	n        int
	// buf holds rows [bufFirst, bufFirst+len(buf)/Stride); next is the
	// row a lookup starts from: rows are asked for in id order.
	buf      []byte
	bufFirst int
	next     int
}

// Open opens the column file at path and checks it whole. A missing file
// is os.ErrNotExist; a symbolic link, or a file that is not whole or of
// another binary, is ErrInvalid.
func Open(path string) (*File, error) {
	lst, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !lst.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file", ErrInvalid, path)
	}
	fd, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	f, err := parse(fd, lst)
	if err != nil {
		fd.Close()
		return nil, fmt.Errorf("%w: %s: %v", ErrInvalid, path, err)
	}
	return f, nil
}

func parse(fd *os.File, lst os.FileInfo) (*File, error) {
	st, err := fd.Stat()
	if err != nil {
		return nil, err
	}
	if !os.SameFile(lst, st) || st.Size() < headerSize || st.Size() > 1<<40 {
		return nil, fmt.Errorf("%d bytes", st.Size())
	}
	le := binary.LittleEndian
	h := make([]byte, headerSize)
	if _, err := fd.ReadAt(h, 0); err != nil {
		return nil, err
	}
	if err := lexfile.CheckHeader(h, magic, version, "column"); err != nil {
		return nil, err
	}
	if s := le.Uint32(h[12:]); s != Stride {
		return nil, fmt.Errorf("rows of %d bytes, not %d", s, Stride)
	}
	rows, strs, strBytes := le.Uint64(h[24:]), le.Uint64(h[32:]), le.Uint64(h[40:])
	if rows >= 1<<31 || strs >= 1<<31 || strBytes >= 1<<32 {
		return nil, fmt.Errorf("%d rows, %d strings of %d bytes", rows, strs, strBytes)
	}
	strsAt := uint64(headerSize)
	textAt := strsAt + (strs+1)*4
	rowsAt := pad8(textAt + strBytes)
	if uint64(st.Size()) != rowsAt+rows*Stride {
		return nil, errors.New("sections and size disagree")
	}
	// One pass over the body for its checksum, then the strings.
	sum := crc32.New(castagnoli)
	if _, err := io.Copy(sum, io.NewSectionReader(fd, headerSize, st.Size()-headerSize)); err != nil {
		return nil, err
	}
	if sum.Sum32() != le.Uint32(h[64:]) {
		return nil, errors.New("the body's checksum does not match")
	}
	sec := make([]byte, rowsAt-strsAt)
	if _, err := fd.ReadAt(sec, int64(strsAt)); err != nil {
		return nil, err
	}
	offs, text := sec[:(strs+1)*4], sec[(strs+1)*4:][:strBytes]
	f := &File{MaxSeq: int64(le.Uint64(h[48:])), Erasures: int64(le.Uint64(h[56:])), fd: fd, rowsAt: int64(rowsAt), n: int(rows)}
	f.strs = make([]string, strs)
	// One allocation for every string: they live as long as the memories
	// that hold them.
	all := string(text)
	for i := range f.strs {
		a, b := le.Uint32(offs[i*4:]), le.Uint32(offs[i*4+4:])
		if a > b || uint64(b) > strBytes {
			return nil, errors.New("string offsets out of order")
		}
		f.strs[i] = all[a:b]
	}
	return f, nil
}

func pad8(n uint64) uint64 { return (n + 7) &^ 7 }

// Rows is the number of rows in the file.
func (f *File) Rows() int { return f.n }

// rowBytes is row i, read through the buffer; nil on a read failure.
func (f *File) rowBytes(i int) []byte {
	if i < f.bufFirst || i >= f.bufFirst+len(f.buf)/Stride {
		const chunk = 2048 // rows a read (≈ 400 KB)
		k := min(chunk, f.n-i)
		if cap(f.buf) < k*Stride {
			f.buf = make([]byte, chunk*Stride)
		}
		f.buf = f.buf[:k*Stride]
		if _, err := f.fd.ReadAt(f.buf, f.rowsAt+int64(i)*Stride); err != nil {
			f.buf = f.buf[:0]
			return nil
		}
		f.bufFirst = i
	}
	at := (i - f.bufFirst) * Stride
	return f.buf[at : at+Stride]
}

// Row is the file's row of the memory with id as written at seq with
// content, and whether the file has it so (a row of that id, seq, content
// length and content checksum). Rows must be asked for in ascending id
// order: a lookup never goes back.
func (f *File) Row(id, seq int64, content string) (Row, bool) {
	le := binary.LittleEndian
	for f.next < f.n {
		b := f.rowBytes(f.next)
		if b == nil {
			f.next = f.n // unreadable: every later row comes from the database
			break
		}
		rid := int64(le.Uint64(b[0:]))
		if rid > id {
			break
		}
		f.next++
		if rid < id {
			continue
		}
		if int64(le.Uint64(b[8:])) != seq || le.Uint32(b[112:]) != uint32(len(content)) ||
			le.Uint32(b[108:]) != ContentSum(content) {
			return Row{}, false
		}
		return f.decode(b)
	}
	return Row{}, false
}

// decode reads a row whose id, seq and content were checked.
func (f *File) decode(b []byte) (Row, bool) {
	le := binary.LittleEndian
	r := Row{
		ID: int64(le.Uint64(b[0:])), Seq: int64(le.Uint64(b[8:])),
		Importance: math.Float64frombits(le.Uint64(b[16:])), Boost: math.Float64frombits(le.Uint64(b[24:])),
		AccessCount: int64(le.Uint64(b[32:])), SupersededBy: int64(le.Uint64(b[40:])),
	}
	for i := range r.Times {
		sec, nsec := int64(le.Uint64(b[48+8*i:])), le.Uint32(b[88+4*i:])
		if nsec >= 1e9 {
			return Row{}, false
		}
		r.Times[i] = time.Unix(sec, int64(nsec)).UTC()
	}
	for i := range r.Strs {
		s := le.Uint32(b[120+4*i:])
		if int(s) >= len(f.strs) {
			return Row{}, false
		}
		r.Strs[i] = f.strs[s]
	}
	if le.Uint32(b[116:])&flagHashString != 0 {
		s := le.Uint32(b[160:])
		if int(s) >= len(f.strs) {
			return Row{}, false
		}
		r.Hash = f.strs[s]
	} else {
		r.Hash = hex.EncodeToString(b[160:192])
	}
	return r, true
}

// Close closes the file.
func (f *File) Close() {
	if f != nil && f.fd != nil {
		f.fd.Close()
		f.fd = nil
	}
}

// ContentSum is the CRC-32C of a memory's content bytes, as a row holds it.
func ContentSum(content string) uint32 {
	return crc32.Checksum(unsafe.Slice(unsafe.StringData(content), len(content)), castagnoli)
}
