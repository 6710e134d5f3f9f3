package inspector_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// demo is the demo conversation captured into a real database file through
// the capture pipeline, with the engine's clock pinned the way `memtrace
// demo` pins it: 09:00 UTC the day after the last message.
type demo struct {
	e    *engine.Engine
	path string
	now  time.Time
}

func openDemo(t testing.TB) demo {
	t.Helper()
	ctx := context.Background()
	f, err := os.Open("../testdata/demo.jsonl")
	if err != nil {
		t.Skipf("demo data absent: %v", err)
	}
	defer f.Close()
	var msgs []engine.Message
	var last time.Time
	errs, err := capture.ReadMessages(f, func(_ int, m engine.Message) error {
		msgs = append(msgs, m)
		if m.At.After(last) {
			last = m.At
		}
		return nil
	})
	if err != nil || len(errs) > 0 {
		t.Fatalf("demo.jsonl: %v %v", err, errs)
	}
	now := last.UTC().Truncate(24 * time.Hour).Add(24*time.Hour + 9*time.Hour)
	path := filepath.Join(t.TempDir(), "demo.db")
	db := storetest.MustOpenPath(t, path, func() time.Time { return now })
	e, err := engine.Open(ctx, engine.Options{Store: db, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	c, err := capture.NewCapturer(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CaptureBatch(ctx, msgs); err != nil {
		t.Fatal(err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if e.Len() == 0 {
		t.Fatal("the demo captured no memory")
	}
	return demo{e: e, path: path, now: now}
}

// fileSum is the SHA-256 of the database file and of its write-ahead log
// (where SQLite puts a write before a checkpoint moves it into the file).
func fileSum(t testing.TB, path string) string {
	t.Helper()
	h := sha256.New()
	for _, p := range []string{path, path + "-wal"} {
		f, err := os.Open(p)
		if os.IsNotExist(err) {
			h.Write([]byte("absent\x00"))
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(h, f); err != nil {
			t.Fatal(err)
		}
		f.Close()
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
