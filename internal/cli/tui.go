package cli

import (
	"context"
	"flag"
	"fmt"
	"sync"

	"memtrace/engine"
	"memtrace/store"
	"memtrace/ui"
)

// cmdTUI runs `memtrace [--db PATH]` (and `memtrace tui`): the terminal UI on
// an existing database. It never creates one: a missing file is almost
// always a wrong path, and an empty database would show empty tabs.
func cmdTUI(fs *flag.FlagSet) runFunc {
	return func(e *env, pos []string) error {
		if len(pos) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q (the TUI takes only --db PATH)", pos[0])}
		}
		// Checked before the UI starts, so that the error is printed on a
		// normal terminal rather than inside the opening screen.
		if err := checkDatabase(e.dbPath); err != nil {
			return err
		}
		return openTUI(e)
	}
}

// openTUI opens the database at e.dbPath, which must exist, and runs the UI
// on it full screen until the user quits (q, Ctrl-C) or the command's
// context ends. A database that pins its clock (the demo does) is shown at
// that clock, so "now" in the Trace tab is the end of its conversation.
// The first frame is drawn at once and the engine opens behind it (half a
// second and more at 100k memories).
func openTUI(e *env) error {
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	var op backgroundOpen
	label := e.dbPath
	if store.IsDSN(label) {
		label = store.RedactDSN(label)
	}
	err := ui.RunOpening(ctx, label, func(ctx context.Context) (ui.Deps, error) {
		if !op.begin(ctx) {
			return ui.Deps{}, ctx.Err()
		}
		oe := *e
		oe.ctx = ctx
		eng, db, closeDB, err := openEngine(&oe, true, engine.Options{})
		op.end(closeDB)
		if err != nil {
			return ui.Deps{}, err
		}
		releaseVectorPages(eng)
		// The engine follows other processes' writes (listenForChanges:
		// PostgreSQL notifications, SQLite's data_version): the tabs
		// reload when it applied some.
		deps := ui.Deps{Engine: eng, Store: db, Now: eng.Now, OpenStore: openStoreFile, DBPath: e.dbPath, Changes: eng.Changes(), Sets: DemoSets}
		return deps, nil
	})
	// Quitting during the open cancels it; either way the store is closed
	// once the open has ended, and an open that never began never will.
	cancel()
	op.close()
	if err != nil {
		return fmt.Errorf("terminal UI: %w", err)
	}
	return nil
}

// backgroundOpen tracks an open running in a UI command, so that the
// command that started the UI can close what it opened — and does not wait
// for an open that never started.
type backgroundOpen struct {
	mu      sync.Mutex
	state   int // 0 not begun, 1 running, 2 ended, 3 closed
	closeFn func()
	ended   chan struct{}
}

// begin reports whether the open may run (it has not been closed first).
func (b *backgroundOpen) begin(ctx context.Context) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state != 0 || ctx.Err() != nil {
		return false
	}
	b.state, b.ended = 1, make(chan struct{})
	return true
}

// end records how to close what the open made (nil: nothing).
func (b *backgroundOpen) end(closeFn func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.state, b.closeFn = 2, closeFn
	close(b.ended)
}

// close waits for a running open and closes what it made; an open that has
// not begun is refused from now on.
func (b *backgroundOpen) close() {
	b.mu.Lock()
	if b.state == 0 {
		b.state = 3
		b.mu.Unlock()
		return
	}
	ended := b.ended
	b.mu.Unlock()
	<-ended
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closeFn != nil {
		b.closeFn()
		b.closeFn = nil
	}
	b.state = 3
}
