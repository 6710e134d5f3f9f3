package store_test

import (
	"sync"
	"testing"
	"time"

	"memtrace/engine"
)

// testClock is a deterministic clock that moves one millisecond per reading.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *testClock {
	return &testClock{t: time.Date(2026, 6, 1, 9, 0, 0, 123456789, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

// at returns a fixed UTC time with nanoseconds, day days after 2026-01-01.
func at(day int) time.Time {
	return time.Date(2026, 1, 1, 12, 30, 15, 987654321, time.UTC).AddDate(0, 0, day)
}

func newMemory(key, content string) *engine.Memory {
	return &engine.Memory{
		Key: key, Content: content, Kind: engine.KindFact, Type: "preference", Status: engine.StatusActive,
		Tier: engine.TierWarm, Scope: engine.ScopeGlobal, Importance: 0.625, Role: "user", Session: "s1",
		CreatedAt: at(0), LastAccessedAt: at(1), AccessCount: 2, Boost: 0.125, BoostAt: at(2),
		Hash: engine.ContentHash(content), Embedding: []float32{0.5, -1.25, 3e-7, 42}, Embedder: "hashed-4",
	}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want error %s, got nil", code)
	}
	if got := engine.ErrorCode(err); got != code {
		t.Fatalf("want error code %s, got %s (%v)", code, got, err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
