package lexfile

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"unsafe"
)

// Write writes the lexicon file at path, with the file mode perm, of a
// database that had made erasures erasures when the rows were read: rows
// rows in ascending id order, row(i) giving the i-th one's id, seq, content
// and term numbers (into terms), and renames it into place under the lock
// once check (nil: none) says the rows are still fit to keep (no erasure
// since they were read). Only the terms some row uses are written. Nothing
// is at path unless the whole file is: the temporary file is removed on
// any failure.
//
// The file is not synced: a crash may leave it empty or torn, which its
// checksum refuses (it is a cache; the next open tokenises and rewrites).
func Write(path string, perm os.FileMode, erasures int64, terms []string, rows int, row func(i int) (id, seq int64, content string, toks []int32), check func() error) (err error) {
	if !nativeLittleEndian() {
		return errBigEndian
	}
	RemoveStaleTemps(path)
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
	// The terms the rows use, numbered in the order they first occur.
	remap := make([]int32, len(terms))
	for i := range remap {
		remap[i] = -1
	}
	var used []int32
	tokens := 0
	var maxSeq int64
	for i := range rows {
		_, seq, _, toks := row(i)
		maxSeq = max(maxSeq, seq)
		tokens += len(toks)
		for _, no := range toks {
			if no < 0 || int(no) >= len(terms) {
				return errors.New("lexicon file: a token names no term")
			}
			if remap[no] < 0 {
				remap[no] = int32(len(used))
				used = append(used, no)
			}
		}
	}
	if rows >= 1<<31 || tokens >= 1<<31 {
		return errors.New("lexicon file: too many rows or tokens")
	}
	if _, err := fd.Write(make([]byte, headerSize)); err != nil {
		return err
	}
	sum := crc32.New(castagnoli)
	w := bufio.NewWriterSize(io.MultiWriter(fd, sum), 1<<20)
	le := binary.LittleEndian
	var b [rowSize]byte
	for i := range rows {
		id, seq, content, _ := row(i)
		le.PutUint64(b[0:], uint64(id))
		le.PutUint64(b[8:], uint64(seq))
		le.PutUint32(b[16:], crc32.Checksum(unsafe.Slice(unsafe.StringData(content), len(content)), castagnoli))
		le.PutUint32(b[20:], uint32(len(content)))
		w.Write(b[:])
	}
	at := 0
	for i := range rows {
		_, _, _, toks := row(i)
		w.Write(le.AppendUint32(b[:0], uint32(at)))
		at += len(toks)
	}
	w.Write(le.AppendUint32(b[:0], uint32(at)))
	off := 0
	for _, no := range used {
		w.Write(le.AppendUint32(b[:0], uint32(off)))
		off += len(terms[no])
	}
	w.Write(le.AppendUint32(b[:0], uint32(off)))
	if off >= 1<<32-4 {
		return errors.New("lexicon file: too many term bytes")
	}
	for _, no := range used {
		w.WriteString(terms[no])
	}
	w.Write(make([]byte, pad4(uint64(off))-uint64(off)))
	for i := range rows {
		_, _, _, toks := row(i)
		for _, no := range toks {
			w.Write(le.AppendUint32(b[:0], uint32(remap[no])))
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	h := make([]byte, headerSize)
	copy(h, magic)
	le.PutUint32(h[8:], version)
	le.PutUint64(h[16:], Identity())
	le.PutUint64(h[24:], uint64(rows))
	le.PutUint64(h[32:], uint64(len(used)))
	le.PutUint64(h[40:], uint64(tokens))
	le.PutUint64(h[48:], uint64(maxSeq))
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
	return RenameCacheFile(tmp, path, check)
}

// Remove deletes the lexicon file of a database (erase: no erased memory's
// terms may survive in it) and any temporary file a writer left, under the
// lock a writer renames under.
func Remove(path string) error { return RemoveCacheFile(path) }
