package golden

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"memtrace/capture"
	"memtrace/engine"
)

// A golden set's fixture: the database a set runs on, built fresh from its
// fixture file by `golden run`, `golden stress` and the TUI's Golden tab.

// StoreOpener opens the database file at path, creating it when absent.
// golden never opens databases itself: the caller (the CLI) passes
// store.Open.
type StoreOpener func(ctx context.Context, path string) (engine.Store, error)

// OpenEngine opens the database at path through open and an engine on it
// with the default options (the rule-based judge, the offline embedder), as
// `golden run` does, under the policy cfg when one is given (none, or the
// zero Config: the defaults); close closes the database.
func OpenEngine(ctx context.Context, path string, open StoreOpener, cfg ...engine.Config) (*engine.Engine, func() error, error) {
	var c engine.Config
	if len(cfg) > 0 {
		c = cfg[0]
	}
	db, err := open(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	eng, err := engine.Open(ctx, engine.Options{Store: db, Config: c})
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return eng, db.Close, nil
}

// stem is a set file's path without its extension: the prefix of the files
// that travel with the set.
func stem(setFile string) string {
	return strings.TrimSuffix(setFile, filepath.Ext(setFile))
}

// QuarantinePath is the curation file applied after building a set's
// fixture: <set file without extension>.quarantine, beside the set.
func QuarantinePath(setFile string) string { return stem(setFile) + ".quarantine" }

// BaselinePath is where a set's reviewed baseline lives by convention:
// <set file without extension>.baseline.json, beside the set.
func BaselinePath(setFile string) string { return stem(setFile) + ".baseline.json" }

// BuildFixture ingests the set's fixture through the capture pipeline into a
// new database at path, applies the set's quarantine file when it exists,
// and closes the database. Errors say which file to fix.
func BuildFixture(ctx context.Context, set *Set, path string, open StoreOpener) error {
	return buildFixture(ctx, set, path, open, nil, engine.Config{})
}

// BuildFixtureUnder is BuildFixture with the capture pipeline under the
// policy cfg: its capture-time tunables (detail, dedupe and gate
// similarity) decide what the fixture database stores.
func BuildFixtureUnder(ctx context.Context, set *Set, path string, open StoreOpener, cfg engine.Config) error {
	return buildFixture(ctx, set, path, open, nil, cfg)
}

// FixtureProgress is told, after every batch the capture pipeline takes,
// how many of the fixture's messages are in (done of total).
type FixtureProgress func(done, total int)

func buildFixture(ctx context.Context, set *Set, path string, open StoreOpener, progress FixtureProgress, cfg engine.Config) error {
	total := 0
	if progress != nil {
		total = countLines(set.Fixture)
		progress(0, total)
	}
	f, err := os.Open(set.Fixture)
	if err != nil {
		return engine.Errorf(engine.ENOTFOUND, "fixture of %s: %v; the path is relative to the set file", set.File, err)
	}
	defer f.Close()
	eng, closeDB, err := OpenEngine(ctx, path, open, cfg)
	if err != nil {
		return err
	}
	defer closeDB()
	var batch []engine.Message
	done := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		_, err := capture.CaptureBatch(ctx, eng, batch)
		done += len(batch)
		batch = batch[:0]
		if err == nil && progress != nil {
			progress(done, max(total, done))
		}
		return err
	}
	lineErrs, err := capture.ReadMessages(f, func(_ int, m engine.Message) error {
		batch = append(batch, m)
		if len(batch) == 64 {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return fmt.Errorf("fixture %s: %w", set.Fixture, err)
	}
	if len(lineErrs) > 0 {
		return engine.Errorf(engine.EINVALID, "fixture %s: line %d: %s; fix the fixture", set.Fixture, lineErrs[0].Line, lineErrs[0].Error)
	}
	sels, err := QuarantineList(QuarantinePath(set.File))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return engine.Errorf(engine.EINVALID, "%v", err)
	}
	return Quarantine(ctx, eng, sels)
}

// FixtureEngine builds the set's fixture into a fresh database in a new
// temporary directory under dir ("" for the system's) and opens an engine
// on it, telling progress (nil: nobody asks) how far the ingest is; close
// closes the database and removes the directory.
func FixtureEngine(ctx context.Context, set *Set, dir string, open StoreOpener, progress FixtureProgress) (*engine.Engine, func() error, error) {
	return FixtureEngineUnder(ctx, set, dir, open, progress, engine.Config{})
}

// FixtureEngineUnder is FixtureEngine under the policy cfg (zero: the
// defaults): the fixture is captured under its capture-time keys and the
// engine recalls under its recall-time keys.
func FixtureEngineUnder(ctx context.Context, set *Set, dir string, open StoreOpener, progress FixtureProgress, cfg engine.Config) (*engine.Engine, func() error, error) {
	if set.Fixture == "" {
		return nil, nil, engine.Errorf(engine.EINVALID, "golden set %s has no fixture", set.Name)
	}
	tmp, err := os.MkdirTemp(dir, "memtrace-golden-")
	if err != nil {
		return nil, nil, fmt.Errorf("golden fixture: temporary directory: %w", err)
	}
	path := filepath.Join(tmp, "fixture.db")
	if err := buildFixture(ctx, set, path, open, progress, cfg); err != nil {
		os.RemoveAll(tmp)
		return nil, nil, err
	}
	eng, closeDB, err := OpenEngine(ctx, path, open, cfg)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, nil, err
	}
	return eng, func() error {
		err := closeDB()
		if rmErr := os.RemoveAll(tmp); err == nil {
			err = rmErr
		}
		return err
	}, nil
}

// countLines counts the non-empty lines of a fixture file (its messages,
// for the progress of its ingest); 0 when it cannot be read, and the
// ingest itself then says why.
func countLines(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n := 0
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			n++
		}
	}
	return n
}
