// Package sidefile holds what every cache file beside a database shares
// (the lexicon file, the column file): its lock, the rename that makes a
// written file current under that lock, and the removal of the file and
// of what a dead writer left.
package sidefile

import (
	"errors"
	"os"
	"path/filepath"
	"time"
)

// Rename makes the finished temporary file tmp the file at path: under
// path's lock, after check (nil: none) passes — a writer's last look that
// no erasure came since its load began, so an eraser's Remove and this
// rename never interleave.
func Rename(tmp, path string, check func() error) error {
	unlock, err := Lock(path)
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

// RemoveStale removes the temporary files a writer that died left beside
// path (an hour is far beyond any write).
func RemoveStale(path string) {
	tmps, _ := filepath.Glob(globEscape(path) + ".tmp-*")
	for _, t := range tmps {
		if st, err := os.Lstat(t); err == nil && time.Since(st.ModTime()) > time.Hour {
			os.Remove(t)
		}
	}
}

// Remove deletes the file at path and any temporary file a writer left,
// under the lock a writer renames under (erase: nothing of an erased
// memory may survive in a cache file). A missing file is no error.
func Remove(path string) error {
	unlock, err := Lock(path)
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
