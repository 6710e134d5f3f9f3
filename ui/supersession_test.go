package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// chainNow is after the three phone messages of openPhoneChain.
var chainNow = time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)

// openPhoneChain captures three facts about the user's phone through the
// real pipeline — the second supersedes the first by the rule ("바꿨어"),
// the third is linked to the second by hand, as a curator would — and
// returns the engine and the ids, oldest first.
func openPhoneChain(t *testing.T) (*engine.Engine, *store.DB, [3]int64) {
	t.Helper()
	clock := func() time.Time { return chainNow }
	db := storetest.MustOpenClock(t, clock)
	ctx := context.Background()
	eng, err := engine.Open(ctx, engine.Options{Store: db, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	var ids [3]int64
	for i, msg := range []engine.Message{
		{ID: "p1", Session: "s1", Role: "user", Text: "내 핸드폰은 갤럭시 S21이야.", At: time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC)},
		{ID: "p2", Session: "s2", Role: "user", Text: "아이폰 15로 바꿨어, 카메라가 훨씬 좋아.", At: time.Date(2026, 4, 3, 9, 0, 0, 0, time.UTC)},
		{ID: "p3", Session: "s3", Role: "user", Text: "My phone is a Pixel 9 now, the iPhone went to my sister.", At: time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)},
	} {
		r, err := capture.Capture(ctx, eng, msg)
		if err != nil || r.Outcome != engine.OutcomeStored {
			t.Fatalf("capture %s: %v %+v", msg.ID, err, r)
		}
		m, ok := eng.MemoryByKey(msg.ID)
		if !ok {
			t.Fatalf("no memory for %s", msg.ID)
		}
		ids[i] = m.ID
	}
	if m, _ := eng.Memory(ids[0]); m.SupersededBy != ids[1] {
		t.Fatalf("the rule did not link the Galaxy to the iPhone: superseded_by %d", m.SupersededBy)
	}
	if m, _ := eng.Memory(ids[1]); m.SupersededBy == 0 {
		if _, _, err := capture.Supersede(ctx, eng, ids[1], ids[2], time.Time{}, engine.Actor{Name: "curator"}); err != nil {
			t.Fatal(err)
		}
	}
	return eng, db, ids
}

// The Memories detail shows the chain: older ← this → newer, oldest first,
// with when each fact stopped holding and when the link was recorded — at
// 120×40 and at 80×24, where the decay forecast still shows beside it.
func TestMemoriesDetailSupersessionChain(t *testing.T) {
	eng, db, ids := openPhoneChain(t)
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := startModel(t, Deps{Engine: eng, Store: db, Now: func() time.Time { return chainNow }, NoColor: true}, size[0], size[1])
			m = drive(t, m, OpenMemoryMsg{Key: "p2"})
			v := screen(m)
			lines := strings.Split(v, "\n")
			var chain []string
			for i, l := range lines {
				if strings.HasPrefix(l, "chain  ") {
					chain = lines[i : i+3]
				}
			}
			if chain == nil {
				t.Fatalf("no supersession chain in the detail:\n%s", v)
			}
			// The rule links the iPhone to the Pixel at capture now (the
			// curator's link is the fallback): the chain shows when it was.
			p2, _ := eng.Memory(ids[1])
			want := []string{
				fmt.Sprintf("chain  ← #%d p1 · until 2026-04-03, recorded 2026-04-03 · 내 핸", ids[0]),
				fmt.Sprintf("       ● this #%d p2 · until 2026-06-01, recorded %s · 아이", ids[1], p2.SupersededAt.UTC().Format(time.DateOnly)),
				fmt.Sprintf("       → #%d p3 · current since 2026-06-01 · My phone", ids[2]),
			}
			for i, w := range want {
				if !strings.HasPrefix(chain[i], w) {
					t.Errorf("chain line %d:\n got %q\nwant %q…", i, chain[i], w)
				}
			}
			if !strings.Contains(v, "drops out of free recall") && !strings.Contains(v, "out of free recall since") && !strings.Contains(v, "free recall until") {
				t.Errorf("the decay forecast is gone:\n%s", v)
			}
			// The audit row of the hand-made link says what it changed.
			if size[0] == 120 && !strings.Contains(v, fmt.Sprintf("superseded_by none→#%d until 2026-06-01", ids[2])) {
				t.Errorf("the audit history does not show the link:\n%s", v)
			}
		})
	}
	// A memory in no chain shows none.
	m := startModel(t, Deps{Engine: eng, Store: db, Now: func() time.Time { return chainNow }, NoColor: true}, 120, 40)
	if v := screen(drive(t, m, OpenMemoryMsg{Key: "nope"})); strings.Contains(v, "chain  ") {
		t.Errorf("a chain without a memory:\n%s", v)
	}
}

// The Trace tab marks superseded items "s", and the whole item says which
// memory replaced it and when, with its forecast.
func TestTraceSupersededItems(t *testing.T) {
	eng, db, ids := openPhoneChain(t)
	p := newTestTrace(eng, db, 220, 40)
	p.c.deps.Now = func() time.Time { return chainNow }
	p = pressTrace(t, p, "/", "내 핸드폰 뭐야? phone", "enter")
	if p.err != "" {
		t.Fatal(p.err)
	}
	p.stage = 2 // exclude
	var at int = -1
	for i, it := range p.stageItems() {
		if it.ID == ids[0] {
			at = i
			if it.DropKind != engine.DropSuperseded || itemMark(it) != "s" {
				t.Fatalf("the Galaxy at exclude: %+v (mark %q)", it, itemMark(it))
			}
		}
	}
	if at < 0 {
		t.Fatalf("the superseded Galaxy is not at stage exclude:\n%s", view(p))
	}
	p.item, p.focus = at, focusItems
	p = p.clampItems()
	if row := rowWith(view(p), "p1"); !strings.HasPrefix(strings.TrimSpace(strings.SplitN(row, "│", 2)[1]), "s ") {
		t.Errorf("the item row has no s mark: %q", row)
	}
	p = pressTrace(t, p, "enter")
	v := view(p)
	for _, want := range []string{
		"s dropped [superseded]",
		fmt.Sprintf("superseded by #%d p2: held until 2026-04-03 (valid_to), link recorded 2026-04-03 — a former fact at the recall's time", ids[1]),
		"forecast: ",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the whole item lacks %q:\n%s", want, v)
		}
	}
}

func rowWith(v, s string) string {
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
