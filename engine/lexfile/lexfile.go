// Package lexfile is the lexicon file beside a SQLite database
// (PATH-lexicon): every memory's lexical terms, as an open tokenised them,
// so that the next process's open reads a row's term numbers instead of
// tokenising its text again (stemming, particle stripping and the term
// lookups were a third of a 100k-memory open). It is a cache of the
// database, never the truth: a row's terms are used only while the row read
// from the database has the same id, write sequence (seq: every write of a
// row takes a new one), content length and CRC-32C of its content bytes,
// and the file was written by this very binary (the tokeniser's version);
// anything else is tokenised again.
//
// Layout (little-endian, every section 4-byte aligned):
//
//	[0, 72)   header: magic, version, the writer's identity (the
//	          executable's size and modification time), rows, terms,
//	          tokens, the highest seq written, the count of the
//	          database's erasures it was written after, the body's
//	          CRC-32C and the header's own CRC-32C
//	rows      rows·24 bytes: id, seq, content CRC-32C, content length in
//	          bytes; then (rows+1)·4: the first token of each row
//	terms     (terms+1)·4 offsets, then the terms' bytes, padded to 4
//	tokens    tokens·4: each row's term numbers (into terms), in order
//
// A file is written whole to a temporary name and renamed over the old one
// (a rename replaces a symbolic link at the path, never follows it), so a
// reader sees the old file or the new one; the CRC covers every byte, so a
// file a crash tore is refused as a whole. An erasure removes the file
// (Remove) under the lock a writer renames under, after checking that no
// erasure came since its open began: no erased memory's terms stay in it.
// A file written before the database's last erasure (one a build without
// this file made, which left it) is rewritten or removed by the next open.
package lexfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"runtime"
	"sync"
	"unsafe"
)

// Suffix names the file beside its database: PATH + Suffix.
const Suffix = "-lexicon"

const (
	magic      = "MTLEXF\x00\n"
	version    = 1
	headerSize = 72
	rowSize    = 24
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrInvalid: the file is not a whole lexicon file of this version and
// binary (torn, truncated, of another build or not one at all).
var ErrInvalid = errors.New("lexicon file is invalid")

// File is an open lexicon file, mapped read-only (or read into memory where
// there is no mmap) until Close.
type File struct {
	MaxSeq   int64 // the highest seq of a row written
	Erasures int64 // the database's erasures when it was written
	data     []byte
	unmap    func()
	rows     []byte // rows·rowSize
	starts   []byte // (rows+1)·4
	offs     []byte // (terms+1)·4
	text     []byte
	toks     []byte
	n        int
	// cursor is the next row a lookup starts from: rows are asked for in
	// id order, as the database's load reads them.
	cursor int
}

// Open maps the lexicon file at path. A missing file is os.ErrNotExist; a
// symbolic link, or a file that is not whole or of another binary, is
// ErrInvalid.
func Open(path string) (*File, error) {
	if !nativeLittleEndian() {
		return nil, errBigEndian
	}
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
	defer fd.Close()
	st, err := fd.Stat()
	if err != nil {
		return nil, err
	}
	if !os.SameFile(lst, st) || st.Size() < headerSize || st.Size() > 1<<40 {
		return nil, fmt.Errorf("%w: %s: %d bytes", ErrInvalid, path, st.Size())
	}
	data, unmap, err := mapFile(fd, int(st.Size()))
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", path, err)
	}
	f, err := parse(data)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("%w: %s: %v", ErrInvalid, path, err)
	}
	// Unmapped by Close, or once the File is unreachable (an open that
	// failed half-way does not close it).
	f.unmap = sync.OnceFunc(unmap)
	runtime.AddCleanup(f, func(u func()) { u() }, f.unmap)
	return f, nil
}

// parse checks data's header, sizes and checksums and points the sections
// into it.
func parse(data []byte) (*File, error) {
	le := binary.LittleEndian
	h := data[:headerSize]
	if err := CheckHeader(h, magic, version, "lexicon"); err != nil {
		return nil, err
	}
	rows, terms, tokens := le.Uint64(h[24:]), le.Uint64(h[32:]), le.Uint64(h[40:])
	if rows >= 1<<31 || terms >= 1<<31 || tokens >= 1<<31 {
		return nil, fmt.Errorf("%d rows, %d terms, %d tokens", rows, terms, tokens)
	}
	body := data[headerSize:]
	if crc32.Checksum(body, castagnoli) != le.Uint32(h[64:]) {
		return nil, errors.New("the body's checksum does not match")
	}
	f := &File{MaxSeq: int64(le.Uint64(h[48:])), Erasures: int64(le.Uint64(h[56:])), data: data, n: int(rows)}
	take := func(n uint64) ([]byte, bool) {
		if n > uint64(len(body)) {
			return nil, false
		}
		b := body[:n]
		body = body[n:]
		return b, true
	}
	var ok [4]bool
	f.rows, ok[0] = take(rows * rowSize)
	f.starts, ok[1] = take((rows + 1) * 4)
	f.offs, ok[2] = take((terms + 1) * 4)
	if !ok[0] || !ok[1] || !ok[2] {
		return nil, errors.New("truncated")
	}
	textLen := uint64(le.Uint32(f.offs[terms*4:]))
	f.text, ok[3] = take(pad4(textLen))
	if !ok[3] || uint64(len(body)) != tokens*4 {
		return nil, errors.New("sections and size disagree")
	}
	f.text, f.toks = f.text[:textLen], body
	// Offsets and starts ascend within their sections, and every token
	// names a term: a lookup then never reads outside the file.
	for i := uint64(0); i < terms; i++ {
		if le.Uint32(f.offs[i*4:]) > le.Uint32(f.offs[i*4+4:]) {
			return nil, errors.New("term offsets out of order")
		}
	}
	if le.Uint32(f.starts) != 0 || uint64(le.Uint32(f.starts[rows*4:])) != tokens {
		return nil, errors.New("row starts do not span the tokens")
	}
	for i := uint64(0); i < rows; i++ {
		if le.Uint32(f.starts[i*4:]) > le.Uint32(f.starts[i*4+4:]) {
			return nil, errors.New("row starts out of order")
		}
	}
	for i := 0; i < len(f.toks); i += 4 {
		if uint64(le.Uint32(f.toks[i:])) >= terms {
			return nil, errors.New("a token names no term")
		}
	}
	return f, nil
}

func pad4(n uint64) uint64 { return (n + 3) &^ 3 }

// Rows is the number of rows in the file.
func (f *File) Rows() int { return f.n }

// Terms is the number of distinct terms in the file.
func (f *File) Terms() int { return len(f.offs)/4 - 1 }

// Term is the file's term number no.
func (f *File) Term(no int32) string {
	le := binary.LittleEndian
	a, b := le.Uint32(f.offs[int(no)*4:]), le.Uint32(f.offs[int(no)*4+4:])
	return string(f.text[a:b])
}

// find is the row of id, -1 if the file has none. Rows ascend by id.
func (f *File) find(id int64) int {
	le := binary.LittleEndian
	idAt := func(i int) int64 { return int64(le.Uint64(f.rows[i*rowSize:])) }
	if f.cursor < f.n && idAt(f.cursor) == id {
		return f.cursor
	}
	if f.cursor+1 < f.n && idAt(f.cursor+1) == id {
		return f.cursor + 1
	}
	lo, hi := 0, f.n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if idAt(mid) < id {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < f.n && idAt(lo) == id {
		return lo
	}
	return -1
}

// Row is the file's row of the memory with id as written at seq with
// content: the term numbers of its tokens, in order, into Term; false when
// the file has no such row (none of that id, or of another seq, length or
// content checksum). The slice points into the file: read it before Close.
func (f *File) Row(id, seq int64, content string) ([]uint32, bool) {
	i := f.find(id)
	if i < 0 {
		return nil, false
	}
	f.cursor = i + 1
	le := binary.LittleEndian
	r := f.rows[i*rowSize:]
	if int64(le.Uint64(r[8:])) != seq || int(le.Uint32(r[20:])) != len(content) ||
		le.Uint32(r[16:]) != crc32.Checksum(unsafe.Slice(unsafe.StringData(content), len(content)), castagnoli) {
		return nil, false
	}
	a, b := le.Uint32(f.starts[i*4:]), le.Uint32(f.starts[i*4+4:])
	if a == b {
		return nil, true
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&f.toks[a*4])), b-a), true
}

// Close unmaps the file; nothing read from it may be used afterwards but
// the strings Term returned.
func (f *File) Close() {
	if f != nil && f.unmap != nil {
		f.unmap()
	}
}

// errBigEndian: the token section is read as the machine's integers, which
// are little-endian here; elsewhere every open tokenises.
var errBigEndian = fmt.Errorf("lexicon file: %w on a big-endian machine", errors.ErrUnsupported)

func nativeLittleEndian() bool { return binary.NativeEndian.Uint16([]byte{1, 0}) == 1 }
