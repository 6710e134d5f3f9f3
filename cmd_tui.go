package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"memtrace/engine"
	"memtrace/ui"
)

// cmdTUI runs `memtrace [--db PATH]` (and `memtrace tui`): the terminal UI on
// an existing database. It never creates one: a missing file is almost
// always a wrong path, and an empty database would show empty tabs.
func cmdTUI(e *env, args []string) error {
	fs := flag.NewFlagSet("tui", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&e.dbPath, "db", e.dbPath, "database file")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return usageError{err.Error()}
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q (the TUI takes only --db PATH)", pos[0])}
	}
	if _, err := os.Stat(e.dbPath); errors.Is(err, os.ErrNotExist) {
		return engine.Errorf(engine.ENOTFOUND,
			"no database at %s — run `memtrace demo` to try the bundled demo, or `memtrace ingest FILE.jsonl` to build one", e.dbPath)
	}
	return openTUI(e)
}

// openTUI opens the database at e.dbPath, which must exist, and runs the UI
// on it full screen until the user quits (q, Ctrl-C) or the command's
// context ends. A database that pins its clock (the demo does) is shown at
// that clock, so "now" in the Trace tab is the end of its conversation.
func openTUI(e *env) error {
	eng, db, closeDB, err := openEngine(e, true, engine.Options{})
	if err != nil {
		return err
	}
	defer closeDB()
	if err := ui.Run(e.ctx, ui.Deps{Engine: eng, Store: db, Now: eng.Now, OpenStore: openStoreFile}); err != nil {
		return fmt.Errorf("terminal UI: %w", err)
	}
	return nil
}
