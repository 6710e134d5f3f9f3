package cli

import (
	"context"
	"sync"
	"time"

	"memtrace/engine"
	"memtrace/store"
)

// listenForChanges keeps eng current with what other processes write to
// its database, until the returned func stops it. On SQLite the store
// polls the file's data_version about once a second and asks for the same
// catch-up as a reconnection below. On PostgreSQL each change
// notification, and each reconnection after a lost connection, refreshes
// the engine's caches and indexes from the seq it last applied
// (store.DB.Listen says why that is complete). A notification the engine
// has already applied (its own writes) is checked against the store
// instead. A refresh that fails is tried again at the next notification.
//
// The notifications are applied by a goroutine of their own, in passes
// (follower): a pass first waits for this process's own writes under way
// (store.DB.WaitForWrites, at most followWait) — a capture loads, under
// the space's lock, every memory committed before it, so what was
// notified meanwhile is then applied — and then answers every
// notification that arrived since the last pass at once, with one
// check and one refresh at most, where one notification at a time cost a
// store query each (with four writers on a space, three a capture).
func listenForChanges(ctx context.Context, db *store.DB, eng *engine.Engine) func() {
	lctx := context.WithoutCancel(ctx)
	wctx, cancel := context.WithCancel(lctx)
	f := &follower{wake: make(chan struct{}, 1)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.run(wctx, db, eng)
	}()
	l := db.StartListening(lctx, f.notified, f.reconnected)
	return func() {
		l.Stop()
		cancel()
		<-done
	}
}

// followWait bounds how long a pass waits for the process's own writes: a
// process whose writes overlap without pause still follows the others'.
const followWait = 50 * time.Millisecond

// follower is what arrived since its last pass.
type follower struct {
	mu     sync.Mutex
	wake   chan struct{} // one pending signal stands for any number of arrivals
	noted  bool          // a notification arrived
	lo, hi int64         // the lowest and highest seq notified
	resync bool          // the listener connected again
}

func (f *follower) notified(n store.Notification) {
	f.mu.Lock()
	if !f.noted || n.Seq < f.lo {
		f.lo = n.Seq
	}
	if !f.noted || n.Seq > f.hi {
		f.hi = n.Seq
	}
	f.noted = true
	f.mu.Unlock()
	f.signal()
}

func (f *follower) reconnected() {
	f.mu.Lock()
	f.resync = true
	f.mu.Unlock()
	f.signal()
}

func (f *follower) signal() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// run makes a pass at every signal until ctx ends.
func (f *follower) run(ctx context.Context, db *store.DB, eng *engine.Engine) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.wake:
		}
		db.WaitForWrites(ctx, followWait)
		f.mu.Lock()
		noted, lo, hi, resync := f.noted, f.lo, f.hi, f.resync
		f.noted, f.resync = false, false
		f.mu.Unlock()
		if noted {
			applyNotified(ctx, eng, lo, hi)
		}
		if resync {
			// Back after a lost connection (a server restarted from a
			// backup, perhaps): the same check, then what was missed.
			if moved, err := eng.Diverged(ctx, eng.Seq()); err == nil && moved {
				_ = eng.Resync(ctx)
				continue
			}
			_ = eng.Refresh(ctx)
		}
	}
}

// applyNotified applies notifications of seqs lo to hi. A notification at
// or below what the caches applied is this process's own write, or one a
// refresh already took — or a write into a store whose seq moved back (a
// restored space), which Refresh would never see: that is checked, and
// the caches are rebuilt when the store no longer holds what they
// applied. Diverged(lo) checks every seq from lo up to the caches', so
// one check stands for each of them; RefreshPast(hi) takes everything
// above the caches' seq, so one refresh stands for the rest.
func applyNotified(ctx context.Context, eng *engine.Engine, lo, hi int64) {
	if lo <= eng.Seq() {
		if moved, err := eng.Diverged(ctx, lo); err == nil && moved {
			_ = eng.Resync(ctx)
			return
		}
	}
	if hi > eng.Seq() {
		_ = eng.RefreshPast(ctx, hi)
	}
}
