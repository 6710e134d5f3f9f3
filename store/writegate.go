package store

import (
	"context"
	"sync"
	"time"
)

// A process's change listener (internal/cli) has little to do while one
// of the process's own PostgreSQL writes is under way: a capture reads,
// under the space's lock, every memory committed since its caches' seq and
// loads it, so the notifications of those commits find them applied once
// the write ends. Answering each at once costs a store query per
// notification — with four writers three a capture, about a third of the
// PostgreSQL capture's CPU, taken from the writer that holds the lock —
// where waiting for the write lets one query answer them all. WaitForWrites
// is that wait.

// writeGate counts the write transactions of a DB under way.
type writeGate struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n falls to 0; nil while n is 0
}

func (g *writeGate) enter() {
	g.mu.Lock()
	if g.n == 0 {
		g.idle = make(chan struct{})
	}
	g.n++
	g.mu.Unlock()
}

func (g *writeGate) leave() {
	g.mu.Lock()
	if g.n--; g.n == 0 {
		close(g.idle)
		g.idle = nil
	}
	g.mu.Unlock()
}

// WaitForWrites returns once no PostgreSQL write transaction of db is
// under way (at once when none is), or after at most max, or when ctx
// ends: a bound, so that a process whose writes overlap without pause
// still follows the others' commits.
func (db *DB) WaitForWrites(ctx context.Context, max time.Duration) {
	db.writing.mu.Lock()
	idle := db.writing.idle
	db.writing.mu.Unlock()
	if idle == nil {
		return
	}
	t := time.NewTimer(max)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	case <-ctx.Done():
	}
}
