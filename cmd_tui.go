package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"memtrace/engine"
	"memtrace/store"
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
	return openTUI(e, e.dbPath, time.Now)
}

// openTUI opens the database at path with the clock now and runs the UI on
// it full screen until the user quits (q, Ctrl-C) or the command's context
// ends; the demo runs it with the demo's clock.
func openTUI(e *env, path string, now func() time.Time) error {
	db, err := store.Open(e.ctx, path, now)
	if err != nil {
		return err
	}
	defer db.Close()
	eng, err := engine.Open(e.ctx, engine.Options{Store: db, Now: now})
	if err != nil {
		return err
	}
	if err := ui.Run(e.ctx, ui.Deps{Engine: eng, Store: db, Now: now}); err != nil {
		return fmt.Errorf("terminal UI: %w", err)
	}
	return nil
}

// demoClock is the demo's "now": the morning (09:00 UTC) after the day of
// the conversation's last message, moving on with the wall clock from
// start. With the real clock the demo would age with the calendar and the
// Trace tab's "now" would already have forgotten the conversation's
// episodes; this way `now` is the conversation's now and `]` shows them go.
func demoClock(lastMessage, start time.Time) func() time.Time {
	day := lastMessage.UTC().Truncate(24 * time.Hour)
	base := day.Add(24*time.Hour + 9*time.Hour)
	return func() time.Time { return base.Add(time.Since(start)) }
}

// lastCreated is the creation time of the newest memory in eng.
func lastCreated(eng *engine.Engine) time.Time {
	var last time.Time
	eng.EachMemory(func(m *engine.Memory) bool {
		if m.CreatedAt.After(last) {
			last = m.CreatedAt
		}
		return true
	})
	return last
}
