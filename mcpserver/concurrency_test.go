package mcpserver

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/recall"
	"memtrace/store"
)

// Words the writers combine into distinct facts, so that captures are
// stored rather than reinforced as near-duplicates.
const (
	people = "Minji,Jonas,Priya,Tomasz,Aiko,Lucas,Farah,Oskar,Yerin,Diego"
	things = "sourdough bread,the blue kayak,a cello,vintage cameras,the rooftop garden," +
		"chess openings,the night train,hand-made pottery,a vegetable stall,old maps of Seoul"
	places = "Busan,Lisbon,Osaka,Krakow,Nairobi,Quito,Tromso,Hanoi,Dakar,Perth"
)

// pick returns the i-th (modulo) word of a comma-separated list.
func pick(list string, i int) string {
	ws := strings.Split(list, ",")
	return ws[i%len(ws)]
}

func writerText(w, i int) string {
	if i%3 == 2 {
		return fmt.Sprintf("작성자 %d의 메모 %d: %s 씨는 %s에 살고 매주 %s 이야기를 해요.", w, i, pick(people, i+w), pick(places, i*3+w), pick(things, i*7+w))
	}
	return fmt.Sprintf("Writer %d note %d: %s moved to %s last spring and now spends weekends on %s.",
		w, i, pick(people, i+w), pick(places, i*3+w), pick(things, i*7+w))
}

// TestConcurrentWritersAndReader runs four engines writing to one database
// file (as four agents' MCP servers would) while a fifth refreshes and
// recalls (as the TUI does), for a bounded time, and checks that no write
// was lost and that no "database is locked" error surfaced.
func TestConcurrentWritersAndReader(t *testing.T) {
	const writers = 4
	const minWrites = 5 // each writer, however slow the machine
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	path := filepath.Join(t.TempDir(), "shared.db")
	open := func() *engine.Engine {
		db, err := store.Open(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		e, err := engine.Open(ctx, engine.Options{Store: db})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	reader := open()
	ws := make([]*engine.Engine, writers)
	for i := range ws {
		ws[i] = open()
	}

	deadline := time.Now().Add(2 * time.Second)
	type written struct {
		msgID string
		text  string
		res   *engine.CaptureResult
	}
	results := make([][]written, writers)
	errs := make(chan error, writers+1)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := ws[w]
			for i := 0; i < 200 && (i < minWrites || time.Now().Before(deadline)); i++ {
				id := fmt.Sprintf("w%d-%03d", w, i)
				m := engine.Message{ID: id, Session: fmt.Sprintf("writer-%d", w), Role: "user", Text: writerText(w, i), At: e.Now()}
				r, err := capture.Capture(ctx, e, m)
				if err != nil {
					errs <- fmt.Errorf("writer %d capture %s: %w", w, id, err)
					return
				}
				results[w] = append(results[w], written{id, m.Text, r})
				if i%5 == 4 { // a live recall writes access statistics too
					if _, err := recall.Recall(ctx, e, engine.Query{Text: pick(people, i) + " " + pick(places, i), At: e.Now(), K: 5, Budget: 1000}); err != nil {
						errs <- fmt.Errorf("writer %d recall: %w", w, err)
						return
					}
				}
			}
		}()
	}
	done := make(chan struct{})
	seen := make(chan int, 1)
	go func() {
		maxSeen := 0
		defer func() { seen <- maxSeen }()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			if err := reader.Refresh(ctx); err != nil {
				errs <- fmt.Errorf("reader refresh: %w", err)
				return
			}
			maxSeen = max(maxSeen, reader.Len())
			q := engine.Query{Text: pick(people, i) + " " + pick(things, i), At: reader.Now(), K: 5, Budget: 1000, ReadOnly: true}
			if _, err := recall.Recall(ctx, reader, q); err != nil {
				errs <- fmt.Errorf("reader recall: %w", err)
				return
			}
		}
	}()
	wg.Wait()
	close(done)
	readerSaw := <-seen
	close(errs)
	for err := range errs {
		if strings.Contains(err.Error(), "locked") || strings.Contains(err.Error(), "busy") {
			t.Errorf("lock error reached the caller: %v", err)
		} else {
			t.Error(err)
		}
	}
	if t.Failed() {
		return
	}

	// No lost write: every offered message is in the captures log, and every
	// memory a writer was told about exists in the reader's view.
	if err := reader.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	total, stored := 0, 0
	for w := range writers {
		if len(results[w]) < minWrites {
			t.Fatalf("writer %d made only %d captures", w, len(results[w]))
		}
		for _, x := range results[w] {
			total++
			ok, err := reader.Store().CaptureExists(ctx, x.msgID)
			if err != nil || !ok {
				t.Errorf("capture %s lost (%v)", x.msgID, err)
			}
			if x.res.Outcome == engine.OutcomeStored || x.res.Outcome == engine.OutcomeReinforced {
				m, ok := reader.Memory(x.res.MemoryID)
				if !ok {
					t.Errorf("memory %d of %s not visible to the reader", x.res.MemoryID, x.msgID)
					continue
				}
				if x.res.Outcome == engine.OutcomeStored {
					stored++
					if m.Key != x.msgID || m.Content != x.text {
						t.Errorf("memory %d = %q (key %q), want message %s", m.ID, m.Content, m.Key, x.msgID)
					}
				}
			}
		}
	}
	if stored == 0 {
		t.Fatal("nothing was stored: the test exercised no memory writes")
	}
	if readerSaw == 0 {
		t.Fatal("the reader never saw a memory while the writers ran")
	}
	if n := reader.Len(); n < stored {
		t.Fatalf("reader holds %d memories, writers stored %d", n, stored)
	}
	t.Logf("%d captures (%d stored) by %d writers; the reader saw up to %d memories while they ran", total, stored, writers, readerSaw)
}
