package lexfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// What every cache file beside a database shares with this one (the column
// file, store/colfile, uses these too): the 72-byte header's common part
// (magic at 0, version at 8, the writer's identity at 16, the header's
// CRC-32C at 68), the lock a writer renames under and an eraser removes
// under, and the sweep of what a dead writer left.

// Identity is what tells this binary's files from another build's: the
// executable's size and modification time. A new build (a changed
// tokeniser among others) writes its own file on its first open.
var Identity = sync.OnceValue(func() uint64 {
	exe, err := os.Executable()
	if err != nil {
		return 0
	}
	st, err := os.Stat(exe)
	if err != nil {
		return 0
	}
	return uint64(st.Size())*0x9E3779B97F4A7C15 ^ uint64(st.ModTime().UnixNano())
})

// CheckHeader checks a cache file header's common part: magic, version,
// the header's own checksum and the writing binary; what names the file
// in the error ("lexicon", "column").
func CheckHeader(h []byte, magic string, version uint32, what string) error {
	le := binary.LittleEndian
	if string(h[:8]) != magic {
		return fmt.Errorf("no %s file header", what)
	}
	if v := le.Uint32(h[8:]); v != version {
		return fmt.Errorf("version %d, not %d", v, version)
	}
	if crc32.Checksum(h[:68], castagnoli) != le.Uint32(h[68:]) {
		return errors.New("the header's checksum does not match")
	}
	if le.Uint64(h[16:]) != Identity() {
		return errors.New("written by another build of memtrace")
	}
	return nil
}

// RenameCacheFile makes the finished temporary file tmp the file at path,
// under path's lock, after check (nil: none) passes — a writer's last look
// that no erasure came since its load began, so an eraser's removal and
// this rename never interleave.
func RenameCacheFile(tmp, path string, check func() error) error {
	unlock, err := lock(path)
	if err != nil {
		return err
	}
	defer unlock()
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	return os.Rename(tmp, path)
}

// RemoveStaleTemps removes the temporary files a writer that died left
// beside path (an hour is far beyond any write).
func RemoveStaleTemps(path string) {
	tmps, _ := filepath.Glob(globEscape(path) + ".tmp-*")
	for _, t := range tmps {
		if st, err := os.Lstat(t); err == nil && time.Since(st.ModTime()) > time.Hour {
			os.Remove(t)
		}
	}
}

// RemoveCacheFile deletes the cache file at path and any temporary file a
// writer left, under the lock a writer renames under (erase: nothing of an
// erased memory may survive in one). A missing file is no error.
func RemoveCacheFile(path string) error {
	unlock, err := lock(path)
	if err != nil {
		return err
	}
	defer unlock()
	err = os.Remove(path)
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	tmps, _ := filepath.Glob(globEscape(path) + ".tmp-*")
	for _, t := range tmps {
		os.Remove(t)
	}
	return err
}

func globEscape(p string) string {
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '*', '?', '[', '\\':
			out = append(out, '\\')
		}
		out = append(out, p[i])
	}
	return string(out)
}
