package lexfile

import (
	"context"
	"errors"
	"os"
)

// Load is one engine open's use of the lexicon file: the rows it takes from
// the file, the rows it tokenised, and the rewrite at its end. A nil *Load
// (no file for this store) takes nothing and writes nothing. It is not safe
// for concurrent use: the open's tokenising goroutine owns it.
type Load struct {
	path     string
	perm     os.FileMode
	file     *File
	erasures func(context.Context) (int64, error)
	before   int64 // the erasures when the load began
	// purge: the file was written before an erasure it did not see (a
	// build without it erased): it must not stay as it is.
	purge bool
	// trans is the file's term number → the index's, -1 until first met.
	trans      []int32
	hits, miss int
}

// MinRows is the number of memories from which an open writes the file:
// below it tokenising costs less than the file's write. A variable for
// tests.
var MinRows = 4096

// FileEnv turns the lexicon file off when set to "off" (every open
// tokenises and writes none); set to "on" an open writes it whatever the
// number of memories. It follows MEMTRACE_VECTOR_FILE.
const FileEnv = "MEMTRACE_LEXICON_FILE"

// Start begins a load with the file at path ("" or FileEnv=off: none),
// written with mode perm; erasures counts the store's erasures (a file is
// renamed into place only if none came since Start). A file that is
// missing, torn or of another build is not used; the load rewrites it.
func Start(ctx context.Context, path string, perm os.FileMode, erasures func(context.Context) (int64, error)) *Load {
	if path == "" || os.Getenv(FileEnv) == "off" {
		return nil
	}
	n, err := erasures(ctx)
	if err != nil {
		return nil
	}
	l := &Load{path: path, perm: perm, erasures: erasures, before: n}
	if f, err := Open(path); err == nil {
		l.file, l.purge = f, f.Erasures != n
		l.trans = make([]int32, f.Terms())
		for i := range l.trans {
			l.trans[i] = -1
		}
	}
	return l
}

// Terms appends to dst the term numbers, as termNo numbers terms, of the
// memory with id, seq and content when the file holds that row as it is,
// and reports whether it did; dst is returned unchanged otherwise (the
// caller tokenises).
func (l *Load) Terms(dst []int32, id, seq int64, content string, termNo func(string) int32) ([]int32, bool) {
	if l == nil {
		return dst, false
	}
	if l.file == nil {
		l.miss++
		return dst, false
	}
	toks, ok := l.file.Row(id, seq, content)
	if !ok {
		l.miss++
		return dst, false
	}
	l.hits++
	for _, no := range toks {
		t := l.trans[no]
		if t < 0 {
			t = termNo(l.file.Term(int32(no)))
			l.trans[no] = t
		}
		dst = append(dst, t)
	}
	return dst, true
}

// Finish closes the file and rewrites it when it was not there, too many
// rows were tokenised (more than max(256, rows/32)) or it predates an
// erasure: rows rows in id order as row gives them, their term numbers into
// terms. A file that predates an erasure and is not rewritten is removed.
// A file that cannot be written leaves the open as it is (it is a cache);
// the error is returned for tests.
func (l *Load) Finish(ctx context.Context, terms []string, rows int, row func(i int) (id, seq int64, content string, toks []int32)) error {
	if l == nil {
		return nil
	}
	l.file.Close()
	stale := l.purge || l.file == nil || l.miss > max(256, rows/32) || l.file.Rows() > rows+max(256, rows/32)
	if !stale {
		return nil
	}
	if rows < MinRows && os.Getenv(FileEnv) != "on" {
		if l.purge {
			return Remove(l.path)
		}
		return nil
	}
	err := Write(l.path, l.perm, l.before, terms, rows, row, func() error {
		n, err := l.erasures(context.WithoutCancel(ctx))
		if err != nil {
			return err
		}
		if n != l.before {
			return errors.New("an erasure came after the load began")
		}
		return nil
	})
	if err != nil && l.purge {
		return errors.Join(err, Remove(l.path))
	}
	return err
}

// Counts is the number of rows the load took from the file and the number
// it tokenised.
func (l *Load) Counts() (fromFile, tokenised int) {
	if l == nil {
		return 0, 0
	}
	return l.hits, l.miss
}
