package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// KillListeners terminates the server sessions LISTENing on a space's
// channel (a lost connection, as a restarted server or a network cut
// makes one) and reports how many it ended.
func killListeners(t *testing.T, space string) int {
	t.Helper()
	cfg, err := pgx.ParseConfig(storetest.PGBase(t))
	must(t, err)
	raw := stdlib.OpenDB(*cfg)
	defer raw.Close()
	var n int
	must(t, raw.QueryRowContext(context.Background(), `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE query = 'LISTEN ' || $1`, pgx.Identifier{store.NotifyChannel(space)}.Sanitize()).Scan(&n))
	return n
}

// A listener hears every committed write of its space (and nothing of a
// rolled-back one), with the seq and the ids; after its connection is
// killed it reconnects and asks for a resync.
func TestListen(t *testing.T) {
	ctx := context.Background()
	dsn := storetest.PGDSN(t)
	writer := storetest.MustOpenPath(t, dsn, nil)
	reader := storetest.MustOpenPath(t, dsn, nil)
	var mu sync.Mutex
	var notes []store.Notification
	resyncs := 0
	l := reader.StartListening(ctx, func(n store.Notification) {
		mu.Lock()
		notes = append(notes, n)
		mu.Unlock()
	}, func() {
		mu.Lock()
		resyncs++
		mu.Unlock()
	})
	defer l.Stop()
	wait := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			ok := cond()
			mu.Unlock()
			if ok {
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
		t.Fatalf("timed out waiting for %s", what)
	}
	wait("the first LISTEN", func() bool { return resyncs == 1 })

	m := newMemory("k1", "notified")
	must(t, writer.InsertMemory(ctx, m, engine.Actor{Name: "t", Batch: "b1"}))
	wait("the insert's notification", func() bool { return len(notes) == 1 })
	if n := notes[0]; n.Seq != m.Seq || len(n.Memories) != 1 || n.Memories[0] != m.ID || len(n.Batches) != 1 || n.Batches[0] != "b1" {
		t.Fatalf("notification %+v for memory %d seq %d batch b1", n, m.ID, m.Seq)
	}
	err := writer.Update(ctx, func(q engine.Queries) error {
		if err := q.InsertMemory(ctx, newMemory("k2", "rolled back"), engine.Actor{Name: "t"}); err != nil {
			return err
		}
		return engine.Errorf(engine.EINVALID, "give up")
	})
	wantCode(t, err, engine.EINVALID)
	must(t, writer.SetSetting(ctx, "x", "y")) // writes no memory: no notification
	must(t, writer.RecordAccess(ctx, m.ID, at(3)))
	wait("the access's notification", func() bool { return len(notes) == 2 })
	// The rolled-back insert's seq was rolled back with the counter row.
	if notes[1].Seq != m.Seq+1 {
		t.Fatalf("access notification %+v, want seq %d", notes[1], m.Seq+1)
	}

	if n := killListeners(t, reader.Space()); n != 1 {
		t.Fatalf("terminated %d listening sessions, want 1", n)
	}
	wait("the resync after the lost connection", func() bool { return resyncs == 2 })
	must(t, writer.InsertMemory(ctx, newMemory("k3", "after the reconnect"), engine.Actor{Name: "t"}))
	wait("a notification after the reconnect", func() bool { return len(notes) == 3 })
}
