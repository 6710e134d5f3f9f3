// Package enginetest holds the engine fixtures the tests of several
// packages share: an engine over a real SQLite file at a pinned clock, the
// labelled demo conversation loaded as memories, and readers of a trace.
package enginetest

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/recall"
	"memtrace/store"
)

// DemoNow is just after the last message of testdata/demo.jsonl.
var DemoNow = time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC)

// DemoLabels is the part of testdata/demo_labels.json the recall tests use.
type DemoLabels struct {
	MustKeep          []string            `json:"must_keep"`
	Facts             []string            `json:"facts"`
	Preferences       []string            `json:"preferences"`
	Episodes          []string            `json:"episodes"`
	GenuineMilestones []string            `json:"genuine_milestones"`
	Association       map[string][]string `json:"association"`
	DecayPairs        map[string][]string `json:"decay_pairs"`
	EscapeSequences   []string            `json:"escape_sequences"`
}

// HotMilestones are the two genuine milestones the fixture puts in the HOT
// tier with importance 1.0 — the set-up of seed 001's failure.
var HotMilestones = []string{"m0255", "m0369"}

// Open opens an engine over a fresh SQLite file with the clock fixed
// at now.
func Open(t testing.TB, path string, now time.Time) (*engine.Engine, *store.DB) {
	t.Helper()
	return OpenConfig(t, path, now, engine.Config{})
}

// OpenConfig is Open with a configuration (zero fields take the
// defaults).
func OpenConfig(t testing.TB, path string, now time.Time, cfg engine.Config) (*engine.Engine, *store.DB) {
	t.Helper()
	clock := func() time.Time { return now }
	var db *store.DB
	if path == "" {
		db = storetest.MustOpenClock(t, clock)
	} else {
		db = storetest.MustOpenPath(t, path, clock)
	}
	e, err := engine.Open(context.Background(), engine.Options{Store: db, Now: clock, Config: cfg})
	if err != nil {
		t.Fatalf("open engine: %v", err)
	}
	return e, db
}

// LoadDemo stores every must-keep message of the demo conversation as a
// memory of importance 0.4, typed and tiered from the labels (the capture pipeline's job, done
// here directly so these tests exercise recall alone): episodes are kind
// episode, milestones importance 1.0 and the two HotMilestones HOT.
func LoadDemo(t testing.TB, e *engine.Engine) *DemoLabels {
	t.Helper()
	var labels DemoLabels
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "demo_labels.json"))
	if err != nil {
		t.Fatalf("read labels: %v", err)
	}
	if err := json.Unmarshal(raw, &labels); err != nil {
		t.Fatalf("parse labels: %v", err)
	}
	f, err := os.Open(filepath.Join("..", "testdata", "demo.jsonl"))
	if err != nil {
		t.Fatalf("open demo: %v", err)
	}
	defer f.Close()
	ctx := context.Background()
	var ms []*engine.Memory
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var msg engine.Message
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("parse demo line: %v", err)
		}
		if !slices.Contains(labels.MustKeep, msg.ID) {
			continue
		}
		m := &engine.Memory{
			Key: msg.ID, Content: msg.Text, Kind: engine.KindFact, Type: "note", Importance: 0.4,
			Role: msg.Role, Session: msg.Session, Scope: engine.ProjectScope(msg.Project),
			CreatedAt: msg.At, Tier: engine.TierWarm,
		}
		switch {
		case slices.Contains(labels.Episodes, msg.ID):
			m.Kind, m.Type = engine.KindEpisode, "episode"
		case slices.Contains(labels.Preferences, msg.ID):
			m.Type = "preference"
		case slices.Contains(labels.GenuineMilestones, msg.ID):
			m.Type, m.Importance = "milestone", 1.0
		}
		if slices.Contains(HotMilestones, msg.ID) {
			m.Tier, m.Scope = engine.TierHot, engine.ScopeGlobal
		}
		if err := e.PrepareMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	err = e.Update(ctx, func(q engine.Queries) error {
		for _, m := range ms {
			if err := q.InsertMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("insert demo memories: %v", err)
	}
	if e.Len() != len(labels.MustKeep) {
		t.Fatalf("engine holds %d memories, want %d", e.Len(), len(labels.MustKeep))
	}
	return &labels
}

// Add stores one memory and returns it with its id.
func Add(t testing.TB, e *engine.Engine, m engine.Memory) engine.Memory {
	t.Helper()
	if err := e.AddMemory(context.Background(), &m, engine.Actor{Name: "test"}); err != nil {
		t.Fatalf("Add %q: %v", m.Content, err)
	}
	return m
}

func Recall(t testing.TB, e *engine.Engine, q engine.Query) *engine.Trace {
	t.Helper()
	if q.At.IsZero() {
		q.At = DemoNow
	}
	tr, err := recall.Recall(context.Background(), e, q)
	if err != nil {
		t.Fatalf("recall %q: %v", q.Text, err)
	}
	return tr
}

func ReadOnly(text string) engine.Query { return engine.Query{Text: text, ReadOnly: true} }

// SurvivorKeys are the keys of the budget stage's survivors, in order.
func SurvivorKeys(tr *engine.Trace) []string {
	var out []string
	for _, s := range tr.Survivors {
		out = append(out, s.Key)
	}
	return out
}

// Item finds a memory in a stage by key.
func Item(tr *engine.Trace, stage, key string) (engine.TraceItem, bool) {
	for _, it := range tr.Stage(stage).Items {
		if it.Key == key {
			return it, true
		}
	}
	return engine.TraceItem{}, false
}

// RankOf is the 1-based position of key among a stage's kept items, or 0.
func RankOf(tr *engine.Trace, stage, key string) int {
	n := 0
	for _, it := range tr.Stage(stage).Items {
		if it.Dropped != "" {
			continue
		}
		n++
		if it.Key == key {
			return n
		}
	}
	return 0
}
