// Package tierstest holds the fixtures the curate and tiers tests share:
// a settable clock, an engine over a real SQLite file under it, and the
// labelled demo conversation.
package tierstest

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// Epoch is the fixtures' "now".
// Clock is a settable test clock.
type Clock struct{ T time.Time }

func (c *Clock) Now() time.Time { return c.T }

var Epoch = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)

func Open(t *testing.T) (*engine.Engine, *Clock) {
	t.Helper()
	c := &Clock{T: Epoch}
	db := storetest.MustOpenClock(t, c.Now)
	e, err := engine.Open(context.Background(), engine.Options{Store: db, Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	return e, c
}

func AddMemory(t *testing.T, e *engine.Engine, key, text string, tier engine.Tier, scope string, lastUse time.Time) int64 {
	t.Helper()
	m := &engine.Memory{Key: key, Content: text, Tier: tier, Scope: scope, Type: "note", Importance: 0.5,
		CreatedAt: lastUse, LastAccessedAt: lastUse}
	if err := e.AddMemory(context.Background(), m, engine.Actor{Name: "test"}); err != nil {
		t.Fatal(err)
	}
	return m.ID
}

type Labels struct {
	Noise        []string            `json:"noise"`
	NoiseReason  map[string]string   `json:"noise_reason"`
	Preferences  []string            `json:"preferences"`
	MustKeep     []string            `json:"must_keep"`
	Episodes     []string            `json:"episodes"`
	NoiseInfo    []string            `json:"noise_with_info"`
	Corrections  map[string][]string `json:"corrections"`
	LessonStatus map[string]string   `json:"lesson_status"`
	NotLessons   []string            `json:"not_lessons"`
}

func ReadDemo(t *testing.T) ([]engine.Message, Labels) {
	t.Helper()
	f, err := os.Open("../testdata/demo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var msgs []engine.Message
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m engine.Message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	raw, err := os.ReadFile("../testdata/demo_labels.json")
	if err != nil {
		t.Fatal(err)
	}
	var l Labels
	if err := json.Unmarshal(raw, &l); err != nil {
		t.Fatal(err)
	}
	return msgs, l
}
