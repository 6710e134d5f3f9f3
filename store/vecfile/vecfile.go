// Package vecfile is the vector file beside a SQLite database (PATH-vectors):
// every memory's vector in one fixed-stride slab that a new process maps
// instead of reading 100k blobs out of SQLite and copying them into its
// vector index. It is a cache of the database, never the truth: a row is
// used only while its id, write sequence, content hash and embedder are
// those of the database row and its bytes still have the checksum they were
// written with; anything else is read from SQLite.
//
// Layout (little-endian):
//
//	[0, 4096)            header: magic, version, dim, rows, slots, the
//	                     highest seq written, the embedder's name, the
//	                     table's CRC-32C, the width W of a value (4:
//	                     float32, 2: float16) and the header's own CRC-32C
//	[4096, 4096+S·W·dim) the slab: slot i's vector at 4096+i·W·dim
//	[table, table+S·32)  one entry a slot: id, seq, CRC-32C of the content
//	                     hash, flags, CRC-32C of the vector's bytes
//
// Version 2 added the width: a dense embedder's vectors, which the engine
// keeps at float16 precision (internal/half/embedder.go), are stored in half
// the bytes (1.5 KB a 768-d row, not 3 KB). A file of version 1 is not
// read (ErrInvalid), so the next load rewrites it.
//
// Slots past the rows are spare (holes in the file): the rows a process adds
// after its open land there without moving the slab. A file is written
// whole to a temporary name, synced and renamed over the old one, so a
// reader sees the old file or the new one, never half of one; a torn or
// truncated file fails its size or checksums and is ignored as a whole.
package vecfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"unsafe"

	"memtrace/engine/lexfile"
	"memtrace/internal/half"
)

// Suffix names the file beside its database: PATH + Suffix.
const Suffix = "-vectors"

const (
	magic      = "MTVECS\x00\n"
	version    = 2
	headerSize = 4096
	entrySize  = 32
	maxName    = 256
	flagVector = 1 // the slot holds the row's vector
	// widthAt is where the header keeps the width of a value, crcAt its
	// checksum of every byte before.
	widthAt = 48 + maxName
	crcAt   = widthAt + 4
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrInvalid: the file is not a whole vector file of this version (torn,
// truncated, from another version or not one at all).
var ErrInvalid = errors.New("vector file is invalid")

// File is an open vector file. Its slab is a private mapping: writes to it
// (a vector normalised or replaced in place) stay in this process and never
// reach the file. Once the File is unreachable its pages are given back to
// the system (the mapping stays, so a vector slice kept past its File reads
// the file again instead of faulting); keep the File while its slab is used.
type File struct {
	Dim      int
	Embedder string
	MaxSeq   int64 // the highest seq of a row written
	rows     int
	width    int       // bytes a value: 4 (float32) or 2 (float16)
	slab     []float32 // slots · dim floats
	raw      []byte    // the mapped slab (float16 files: the halves)
	table    []byte
}

// Half reports whether the file keeps its vectors as float16; their floats
// are then decoded into a slab on the heap as Vector reads them.
func (f *File) Half() bool { return f.width == 2 }

// Rows is the number of slots that hold a database row; Slots counts the
// spare ones too.
func (f *File) Rows() int  { return f.rows }
func (f *File) Slots() int { return len(f.table) / entrySize }

// Slab is every slot's vector, slot i at [i·dim, (i+1)·dim).
func (f *File) Slab() []float32 { return f.slab }

// ID is the database id of slot i (0: a spare slot).
func (f *File) ID(i int) int64 { return int64(binary.LittleEndian.Uint64(f.table[i*entrySize:])) }

// Vector returns slot i's vector when it is the one of the database row
// (id, seq, hash, embedder): the slot is that row's, as it was at that
// write, and its bytes are whole. Otherwise nil: read the row from SQLite.
//
// The vector returned is slot i's row of the slab; in a float16 file it is
// decoded into that row first, over whatever the row held. CopyVector
// leaves the slab alone.
func (f *File) Vector(i int, id, seq int64, hash, embedder string) []float32 {
	if !f.current(i, id, seq, hash, embedder) {
		return nil
	}
	v := f.slab[i*f.Dim : (i+1)*f.Dim : (i+1)*f.Dim]
	if f.width == 2 {
		half.Decode(v, f.raw[i*2*f.Dim:(i+1)*2*f.Dim])
	}
	return v
}

// CopyVector is Vector in memory of its own: the slab is not written.
func (f *File) CopyVector(i int, id, seq int64, hash, embedder string) []float32 {
	if !f.current(i, id, seq, hash, embedder) {
		return nil
	}
	v := make([]float32, f.Dim)
	if f.width == 2 {
		half.Decode(v, f.raw[i*2*f.Dim:(i+1)*2*f.Dim])
	} else {
		copy(v, f.slab[i*f.Dim:(i+1)*f.Dim])
	}
	return v
}

// current reports whether slot i is the row's, as it was written, with its
// bytes whole.
func (f *File) current(i int, id, seq int64, hash, embedder string) bool {
	if i < 0 || i >= f.rows || embedder != f.Embedder {
		return false
	}
	e := f.table[i*entrySize : (i+1)*entrySize]
	if int64(binary.LittleEndian.Uint64(e)) != id || int64(binary.LittleEndian.Uint64(e[8:])) != seq ||
		binary.LittleEndian.Uint32(e[16:]) != hashCRC(hash) || binary.LittleEndian.Uint32(e[20:])&flagVector == 0 {
		return false
	}
	b := f.raw[i*f.width*f.Dim : (i+1)*f.width*f.Dim]
	if f.width == 4 {
		b = floatBytes(f.slab[i*f.Dim : (i+1)*f.Dim])
	}
	return crc32.Checksum(b, castagnoli) == binary.LittleEndian.Uint32(e[24:])
}

func hashCRC(hash string) uint32 { return crc32.Checksum([]byte(hash), castagnoli) }

func floatBytes(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))
}

// PageOut gives the resident pages of a float32 slab back to the page
// cache, once the load that read them is over: the vector index keeps its
// own lists of a sparse row's values (engine/index/vector_postings.go) and
// reads a row again only when a memory's vector is asked for, so at 1M
// hashed memories the gigabyte of slab the load touched need not stay
// resident. A row read later is mapped again from the page cache. It is a
// no-op for a float16 file (its slab is on the heap) and where there is no
// mmap, and for a file of dense float32 vectors (written before float16):
// a dense index scores a pool of rows a search, read from the slab.
func (f *File) PageOut() {
	if f.width != 4 || len(f.slab) == 0 || f.rows == 0 {
		return
	}
	for i := range min(f.rows, 64) {
		if binary.LittleEndian.Uint32(f.table[i*entrySize+20:])&flagVector != 0 {
			if half.Dense(f.slab[i*f.Dim : (i+1)*f.Dim]) {
				return
			}
			break
		}
	}
	pageOut(f.raw)
}

// Open maps the vector file at path. A missing file is os.ErrNotExist; one
// that is not whole is ErrInvalid.
func Open(path string) (*File, error) {
	if !nativeLittleEndian() {
		return nil, errBigEndian
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
	if st.Size() < headerSize || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s: %d bytes", ErrInvalid, path, st.Size())
	}
	hdr := make([]byte, headerSize)
	if _, err := fd.ReadAt(hdr, 0); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrInvalid, path, err)
	}
	f, slots, tableCRC, err := parseHeader(hdr)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrInvalid, path, err)
	}
	size := int64(headerSize) + int64(slots)*int64(f.width*f.Dim) + int64(slots)*entrySize
	if st.Size() != size {
		return nil, fmt.Errorf("%w: %s: %d bytes, not %d", ErrInvalid, path, st.Size(), size)
	}
	data, err := mapFile(fd, int(size))
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", path, err)
	}
	slabEnd := headerSize + slots*f.width*f.Dim
	f.table = data[slabEnd:]
	if crc32.Checksum(f.table, castagnoli) != tableCRC {
		return nil, fmt.Errorf("%w: %s: the table's checksum does not match", ErrInvalid, path)
	}
	f.raw = data[headerSize:slabEnd]
	switch {
	case slots == 0:
	case f.width == 4:
		f.slab = unsafe.Slice((*float32)(unsafe.Pointer(&data[headerSize])), slots*f.Dim)
	default:
		// Rows are decoded into it by Vector; the spare slots' pages are
		// never touched until the index writes a row there.
		f.slab = make([]float32, slots*f.Dim)
	}
	releaseWhenUnreachable(f, data)
	return f, nil
}

func parseHeader(h []byte) (*File, int, uint32, error) {
	if string(h[:8]) != magic {
		return nil, 0, 0, errors.New("no vector file header")
	}
	le := binary.LittleEndian
	if v := le.Uint32(h[8:]); v != version {
		return nil, 0, 0, fmt.Errorf("version %d, not %d", v, version)
	}
	if crc32.Checksum(h[:crcAt], castagnoli) != le.Uint32(h[crcAt:]) {
		return nil, 0, 0, errors.New("the header's checksum does not match")
	}
	width := int(le.Uint32(h[widthAt:]))
	if width != 4 && width != 2 {
		return nil, 0, 0, fmt.Errorf("values of %d bytes", width)
	}
	dim, rows, slots := int(le.Uint32(h[12:])), le.Uint64(h[16:]), le.Uint64(h[24:])
	nameLen := int(le.Uint32(h[40:]))
	if dim <= 0 || dim > 1<<16 || rows > slots || slots > 1<<32 || nameLen > maxName {
		return nil, 0, 0, fmt.Errorf("dim %d, %d rows in %d slots", dim, rows, slots)
	}
	f := &File{Dim: dim, width: width, rows: int(rows), MaxSeq: int64(le.Uint64(h[32:])), Embedder: string(h[48 : 48+nameLen])}
	return f, int(slots), le.Uint32(h[44:]), nil
}

// Writer writes a new vector file, row by row in the database's id order.
// Nothing is at path until Commit.
type Writer struct {
	path, tmp string
	fd        *os.File
	dim       int
	width     int // bytes a value, chosen by the first vector (0: none yet)
	embedder  string
	table     []byte
	maxSeq    int64
	vectors   int
	err       error
	// buf holds the vectors of the slots from bufFrom on, written in
	// blocks rather than a system call a row.
	buf     []byte
	bufFrom int
	halves  []byte // a float16 row's bytes
}

// writeBlock is the size of the blocks the slab is written in.
const writeBlock = 1 << 20

// Create starts a vector file for path whose vectors are embedder's, of
// dim floats, with the file mode perm.
func Create(path, embedder string, dim int, perm os.FileMode) (*Writer, error) {
	if !nativeLittleEndian() {
		return nil, errBigEndian
	}
	if dim <= 0 || len(embedder) > maxName {
		return nil, fmt.Errorf("vector file %s: dim %d, embedder %q", path, dim, embedder)
	}
	lexfile.RemoveStaleTemps(path) // what a writer that died left
	fd, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	if err := fd.Chmod(perm); err != nil {
		fd.Close()
		os.Remove(fd.Name())
		return nil, err
	}
	return &Writer{path: path, tmp: fd.Name(), fd: fd, dim: dim, embedder: embedder}, nil
}

// Add writes the next row: its id, seq, content hash, embedder and vector.
// A vector of another embedder or length takes its slot without one.
//
// The first vector chooses the file's width: float16 when it is dense (at
// most a quarter of its values zero, as a model's embeddings are) and each
// of its values is a float16 exactly (the engine rounded them: a dense
// embedder's vectors are kept at that precision), float32 otherwise (the
// hashed embedder's sparse vectors, which stay exact). In a float16 file a
// later vector that is not exactly float16 takes its slot without it (it is
// read from the database), so no value is ever rounded here.
func (w *Writer) Add(id, seq int64, hash, embedder string, vec []float32) {
	if w.err != nil {
		return
	}
	i := len(w.table) / entrySize
	var e [entrySize]byte
	le := binary.LittleEndian
	le.PutUint64(e[0:], uint64(id))
	le.PutUint64(e[8:], uint64(seq))
	le.PutUint32(e[16:], hashCRC(hash))
	if embedder == w.embedder && len(vec) == w.dim && w.width == 0 {
		w.width = 4
		if half.Keeps(vec) {
			w.width = 2
		}
	}
	if embedder == w.embedder && len(vec) == w.dim && (w.width == 4 || half.Exact(vec)) {
		b := floatBytes(vec)
		if w.width == 2 {
			w.halves = half.Encode(w.halves[:0], vec)
			b = w.halves
		}
		w.vectors++
		le.PutUint32(e[20:], flagVector)
		le.PutUint32(e[24:], crc32.Checksum(b, castagnoli))
		if stride := w.width * w.dim; w.bufFrom+len(w.buf)/stride != i || len(w.buf)+len(b) > writeBlock {
			w.flush()
			w.bufFrom = i
		}
		w.buf = append(w.buf, b...)
	}
	w.table = append(w.table, e[:]...)
	w.maxSeq = max(w.maxSeq, seq)
}

// flush writes the buffered vectors at their slots.
func (w *Writer) flush() {
	if len(w.buf) > 0 && w.err == nil {
		_, w.err = w.fd.WriteAt(w.buf, int64(headerSize)+int64(w.bufFrom)*int64(w.width*w.dim))
	}
	w.buf = w.buf[:0]
}

// Rows is the number of rows added, Vectors of those with their vector.
func (w *Writer) Rows() int    { return len(w.table) / entrySize }
func (w *Writer) Vectors() int { return w.vectors }

// Commit adds spare slots, writes the table and the header, syncs the file
// and renames it over path. The file is whole at path or not there at all.
// The rename happens under the file's lock after check (nil: none) said
// the rows written are still fit to keep (no erasure since they were read):
// Remove takes the same lock, so an erased vector never reaches path.
func (w *Writer) Commit(spare int, check func() error) error {
	defer w.Abort()
	w.flush()
	if w.err != nil {
		return w.err
	}
	rows := len(w.table) / entrySize
	slots := rows + max(spare, 0)
	if w.width == 0 {
		w.width = 4
	}
	w.table = append(w.table, make([]byte, (slots-rows)*entrySize)...)
	tableAt := int64(headerSize) + int64(slots)*int64(w.width*w.dim)
	if _, err := w.fd.WriteAt(w.table, tableAt); err != nil {
		return err
	}
	h := make([]byte, headerSize)
	le := binary.LittleEndian
	copy(h, magic)
	le.PutUint32(h[8:], version)
	le.PutUint32(h[12:], uint32(w.dim))
	le.PutUint64(h[16:], uint64(rows))
	le.PutUint64(h[24:], uint64(slots))
	le.PutUint64(h[32:], uint64(w.maxSeq))
	le.PutUint32(h[40:], uint32(len(w.embedder)))
	le.PutUint32(h[44:], crc32.Checksum(w.table, castagnoli))
	copy(h[48:], w.embedder)
	le.PutUint32(h[widthAt:], uint32(w.width))
	le.PutUint32(h[crcAt:], crc32.Checksum(h[:crcAt], castagnoli))
	if _, err := w.fd.WriteAt(h, 0); err != nil {
		return err
	}
	if err := w.fd.Sync(); err != nil {
		return err
	}
	if err := w.fd.Close(); err != nil {
		return err
	}
	w.fd = nil
	if err := lexfile.RenameCacheFile(w.tmp, w.path, check); err != nil {
		return err
	}
	w.tmp = ""
	if d, err := os.Open(filepath.Dir(w.path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Abort drops an uncommitted file.
func (w *Writer) Abort() {
	if w.fd != nil {
		w.fd.Close()
		w.fd = nil
	}
	if w.tmp != "" {
		os.Remove(w.tmp)
		w.tmp = ""
	}
}

// Remove deletes the vector file of a database (erase: no erased vector
// may survive in it) and any temporary file a crashed writer left.
func Remove(path string) error { return lexfile.RemoveCacheFile(path) }

// errBigEndian: the slab is the machine's floats, which are little-endian
// here; elsewhere the vectors are read from SQLite.
var errBigEndian = fmt.Errorf("vector file: %w on a big-endian machine", errors.ErrUnsupported)

func nativeLittleEndian() bool { return binary.NativeEndian.Uint16([]byte{1, 0}) == 1 }
