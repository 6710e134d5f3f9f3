package capture

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// demoLabels is the part of testdata/demo_labels.json the capture tests use.
type demoLabels struct {
	Noise             []string            `json:"noise"`
	Genuine           []string            `json:"genuine"`
	MustKeep          []string            `json:"must_keep"`
	Episodes          []string            `json:"episodes"`
	GenuineMilestones []string            `json:"genuine_milestones"`
	FalseMilestones   []string            `json:"false_milestones"`
	Corrections       map[string][]string `json:"corrections"`
	LessonStatus      map[string]string   `json:"lesson_status"`
	NotLessons        []string            `json:"not_lessons"`
	NoiseWithInfo     []string            `json:"noise_with_info"`
}

// loadDemo reads the demo conversation and its labels, or skips.
func loadDemo(t testing.TB) ([]engine.Message, map[string]engine.Message, demoLabels) {
	t.Helper()
	f, err := os.Open("../testdata/demo.jsonl")
	if err != nil {
		t.Skipf("demo data absent: %v", err)
	}
	defer f.Close()
	var msgs []engine.Message
	byID := map[string]engine.Message{}
	errs, err := ReadMessages(f, func(_ int, m engine.Message) error {
		msgs = append(msgs, m)
		byID[m.ID] = m
		return nil
	})
	if err != nil || len(errs) > 0 {
		t.Fatalf("demo.jsonl: %v %v", err, errs)
	}
	b, err := os.ReadFile("../testdata/demo_labels.json")
	if err != nil {
		t.Fatal(err)
	}
	var l demoLabels
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	return msgs, byID, l
}

// TestDemoDecisions runs the stages that need no database over the demo
// conversation and checks each labelled message's fate by id.
func TestDemoDecisions(t *testing.T) {
	_, byID, l := loadDemo(t)
	ctx := context.Background()
	db := storetest.MustOpenClock(t, func() time.Time { return time.Unix(0, 0) })
	e, err := engine.Open(ctx, engine.Options{Store: db, Embedder: engine.NewHashed(0), Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCapturer(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	decide := func(id string) *pending {
		p := &pending{msg: byID[id], res: &engine.CaptureResult{MessageID: id}}
		if err := c.decide(ctx, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, id := range l.Noise {
		p := decide(id)
		if (p.res.DroppedBy != engine.LayerL1 && p.res.DroppedBy != engine.LayerL2) || p.res.Reason == "" {
			t.Errorf("noise %s not dropped by L1/L2 with a named reason: %+v %q", id, p.res, byID[id].Text)
		}
	}
	for _, id := range append(l.MustKeep, l.NoiseWithInfo...) {
		if p := decide(id); !p.store {
			t.Errorf("must-keep %s not stored: %s %q", id, p.res.Reason, byID[id].Text)
		}
	}
	for _, id := range l.Episodes {
		if p := decide(id); p.verdict.Kind != engine.KindEpisode {
			t.Errorf("episode %s stored as %s: %q", id, p.verdict.Kind, byID[id].Text)
		}
	}
	for _, id := range l.GenuineMilestones {
		if p := decide(id); p.res.Type != "milestone" {
			t.Errorf("genuine milestone %s typed %q: %v %q", id, p.res.Type, p.res.Trail, byID[id].Text)
		}
	}
	for _, id := range l.FalseMilestones {
		if p := decide(id); isDeclaration(p.res.Type) {
			t.Errorf("false milestone %s typed %q: %q", id, p.res.Type, byID[id].Text)
		}
	}
	for lesson, ids := range l.Corrections {
		keys := map[string]bool{}
		for _, id := range ids {
			f := detectLesson(byID[id].Text, false)
			if f == nil || f.Skip != "" {
				t.Errorf("lesson %s: %s not detected: %q", lesson, id, byID[id].Text)
				continue
			}
			keys[f.Key] = true
		}
		// Rewordings may name one subject more or less: the keys must be
		// one lesson by the canonicaliser's rule (sameLesson).
		for a := range keys {
			for b := range keys {
				if _, same := sameLesson(a, b); !same && a < b {
					t.Errorf("lesson %s has keys that are not one lesson: %v", lesson, keys)
				}
			}
		}
	}
	for _, id := range l.NotLessons {
		if f := detectLesson(byID[id].Text, false); f != nil && f.Skip == "" {
			t.Errorf("not-a-lesson %s recorded as %s: %q", id, f.Key, byID[id].Text)
		}
	}
}
