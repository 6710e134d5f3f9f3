package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
)

func seedCaptures() []*engine.CaptureRecord {
	var cs []*engine.CaptureRecord
	add := func(n int, outcome, layer, reason, text string) {
		for range n {
			id := int64(len(cs) + 1) // the id the store gives it
			cs = append(cs, &engine.CaptureRecord{MessageID: fmt.Sprint("m", id), Session: "s1", Role: "user",
				Text: text, At: testNow, Outcome: outcome, DroppedBy: layer, Reason: reason,
				Trail: []engine.Decision{{Layer: engine.LayerL1, Verdict: "pass"}, {Layer: layer, Verdict: "drop", Pattern: reason, Reason: "matched " + reason}}})
		}
	}
	add(4, engine.OutcomeDropped, engine.LayerL1, "HEARTBEAT", "HEARTBEAT_OK")
	add(2, engine.OutcomeDropped, engine.LayerL2, "I don't have access", "I don't have access to your calendar")
	add(1, engine.OutcomeDropped, engine.LayerJudge, "small talk", "ㅋㅋㅋ 좋아요")
	add(3, engine.OutcomeStored, "", "", "나는 녹차를 좋아해")
	return cs
}

func TestCapturesLayersPatternsAndTrail(t *testing.T) {
	m := newTestModel(t, openStore(t, nil, seedCaptures()), 120, 30)
	m = goTo(t, m, "Captures")
	view := screen(m)
	for _, want := range []string{"dropped, per pattern", "HEARTBEAT", "I don't have access", "10 captures"} {
		if !strings.Contains(view, want) {
			t.Errorf("captures view lacks %q:\n%s", want, view)
		}
	}
	if line := lineWith(view, "l1          4 HEARTBEAT"); line == "" {
		t.Errorf("no count 4 for HEARTBEAT:\n%s", view)
	}

	m = drive(t, m, press("l")) // layer l1
	if p := m.captures(); p.list.total != 4 || p.filter().DroppedBy != engine.LayerL1 {
		t.Fatalf("layer l1: total %d, filter %+v", p.list.total, p.filter())
	}
	for range 4 {
		m = drive(t, m, press("l"))
	}
	if p := m.captures(); p.filter().Outcome != engine.OutcomeStored || p.list.total != 3 {
		t.Fatalf("layer stored: total %d, filter %+v", p.list.total, p.filter())
	}

	// Pick a pattern in the side table: the list shows only those captures.
	m = drive(t, m, press("f"), press("down"), press("enter"))
	p := m.captures()
	if p.reason != "I don't have access" || p.list.total != 2 || p.filter().DroppedBy != engine.LayerL2 {
		t.Fatalf("picked pattern: reason %q total %d filter %+v", p.reason, p.list.total, p.filter())
	}
	view = screen(m)
	if !strings.Contains(view, "capture 5") || !strings.Contains(view, "matched I don't have access") {
		t.Errorf("the trail of the selected capture is missing:\n%s", view)
	}
	m = drive(t, m, press("esc"))
	// esc clears the pattern and keeps the layer it selected.
	if p := m.captures(); p.reason != "" || p.filter().DroppedBy != engine.LayerL2 || p.list.total != 2 {
		t.Errorf("esc: reason %q total %d filter %+v", p.reason, p.list.total, p.filter())
	}
}

func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// A on the Captures tab audits the open store: the noise patterns of the
// memories a store brought with it, its label prefixes and the share the
// capture pipeline would not have stored.
func TestCapturesAuditView(t *testing.T) {
	var ms []*engine.Memory
	for i, text := range []string{"HEARTBEAT_OK", "HEARTBEAT_OK", "NO_REPLY",
		"[MILESTONE:love] We adopted a cat called Momo on a rainy Sunday.",
		"I keep my passport in the blue folder in the second drawer."} {
		ms = append(ms, &engine.Memory{Key: fmt.Sprint("k", i), Content: text, Kind: engine.KindFact, Type: "note",
			Status: engine.StatusActive, Tier: engine.TierWarm, Scope: engine.ScopeGlobal, Importance: 0.5,
			CreatedAt: testNow, LastAccessedAt: testNow, Hash: engine.ContentHash(text)})
	}
	s := openStore(t, ms, nil)
	eng, err := engine.Open(context.Background(), engine.Options{Store: s, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	m := startModel(t, Deps{Store: s, Engine: eng, Now: func() time.Time { return testNow }, NoColor: true}, 120, 40)
	m = goTo(t, m, "Captures")
	m = drive(t, m, press("A"))
	view := screen(m)
	for _, want := range []string{"store audit · 5 memories", "noise: 3 (60.0%)", "heartbeat_ok", "no_reply",
		"label prefixes: 1 memory with one", "MILESTONE:love", "duplicates: 1 exact",
		"would not be stored by today's capture pipeline: 3 (60.0%)"} {
		if !strings.Contains(view, want) {
			t.Errorf("audit view lacks %q:\n%s", want, view)
		}
	}
	m = drive(t, m, press("A"))
	if view := screen(m); strings.Contains(view, "store audit ·") || !strings.Contains(view, "dropped, per pattern") {
		t.Errorf("A again should return to the captures list:\n%s", view)
	}
}
