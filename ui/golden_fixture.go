package ui

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"memtrace/engine"
	"memtrace/golden"
)

// fixtureDB is the database a Golden run built from its set's fixture. It
// stays open after the run, so that the Trace tab can show a probe's own
// recall and re-run it there (enter on a probe), and is closed when a
// newer run replaces it or the program ends.
type fixtureDB struct {
	eng        *engine.Engine
	set        string // the set file
	fixture    string // the fixture file the database was built from
	quarantine string // the quarantine file applied after the ingest, "" none

	once    sync.Once
	closed  atomic.Bool
	closeFn func() error
	err     error
}

func newFixtureDB(set *golden.Set, eng *engine.Engine, closeFn func() error) *fixtureDB {
	fx := &fixtureDB{eng: eng, set: set.File, fixture: set.Fixture, closeFn: closeFn}
	if q := golden.QuarantinePath(set.File); fileExists(q) {
		fx.quarantine = q
	}
	return fx
}

// Close closes the database and removes its temporary directory, once.
func (f *fixtureDB) Close() error {
	if f == nil {
		return nil
	}
	f.once.Do(func() {
		f.closed.Store(true)
		if f.closeFn != nil {
			f.err = f.closeFn()
		}
	})
	return f.err
}

// Closed reports that the database is closed (a newer run replaced it).
func (f *fixtureDB) Closed() bool { return f != nil && f.closed.Load() }

// label names the database for headers: the fixture file and the
// quarantine applied to it.
func (f *fixtureDB) label() string {
	s := "fixture " + displayPath(f.fixture)
	if f.quarantine != "" {
		s += " + " + filepath.Base(f.quarantine)
	}
	return s
}

// resources are what the panes opened that must be closed when the program
// ends (the fixture databases of Golden runs). Runs add to it from their
// commands' goroutines.
type resources struct {
	mu   sync.Mutex
	open []*fixtureDB
}

func (r *resources) track(f *fixtureDB) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.open = append(r.open, f)
}

// closeAll closes everything tracked; the first error is returned.
func (r *resources) closeAll() error {
	r.mu.Lock()
	open := r.open
	r.open = nil
	r.mu.Unlock()
	var first error
	for _, f := range open {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// findSet resolves the default set path: as given when it is absolute or
// exists from the working directory; else the first directory up from the
// working directory, then from the executable's, that holds it (so the
// project's own set is found from a subdirectory, or by a binary built in
// the repository run from anywhere). tried lists where it looked.
func findSet(name string) (path string, tried []string) {
	if fileExists(name) {
		return name, []string{name}
	}
	if filepath.IsAbs(name) {
		return "", []string{name}
	}
	var roots []string
	if wd, err := os.Getwd(); err == nil {
		roots = append(roots, wd)
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		roots = append(roots, filepath.Dir(exe))
	}
	seen := map[string]bool{}
	for _, root := range roots {
		for dir := root; ; dir = filepath.Dir(dir) {
			p := filepath.Join(dir, name)
			if !seen[p] {
				seen[p] = true
				tried = append(tried, p)
				if fileExists(p) {
					return p, tried
				}
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return "", tried
}

// displayPath shortens path for a header: relative to the working
// directory when that is shorter.
func displayPath(path string) string {
	if path == "" {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(wd, abs); err == nil && len(rel) < len(abs) && !strings.HasPrefix(rel, "../../..") {
		return rel
	}
	return abs
}
