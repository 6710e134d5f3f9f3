package ui

import (
	"bytes"
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// TestSupersessionByHand runs the whole program headless on a real SQLite
// file: s in Memories links the older fact to the newer one (the store
// holds the link, audited in a curator batch), Curate's superseded queue
// lists it and u undoes it, a second link is marked reviewed with m (the
// queue empties, the link stays), and s on the superseded memory unlinks
// it again.
func TestSupersessionByHand(t *testing.T) {
	ctx := context.Background()
	clock := func() time.Time { return demoNow }
	db := storetest.MustOpenClock(t, clock)
	eng, err := engine.Open(ctx, engine.Options{Store: db, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i, text := range []string{"I live in Seoul, near Hapjeong station.", "My home is in Busan now, by the sea.", "녹차를 좋아해."} {
		m := &engine.Memory{Content: text, Kind: engine.KindFact, Type: "home", Importance: 0.6, CreatedAt: demoNow.AddDate(0, 0, -100+40*i)}
		if err := eng.AddMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	older, newer := ids[0], ids[1]

	tm := teatest.NewTestModel(t, newModel(ctx, Deps{Engine: eng, Store: db, Now: clock, NoColor: true}),
		teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	// wait reads the output until every one of want was written (what it
	// read is gone for the next wait).
	wait := func(want ...string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			for _, s := range want {
				if !bytes.Contains(b, []byte(s)) {
					return false
				}
			}
			return true
		}, teatest.WithDuration(5*time.Second))
	}
	// linkIs waits until the store holds want as older's newer memory.
	linkIs := func(want int64) *engine.Memory {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			m, err := db.GetMemory(ctx, older)
			if err != nil {
				t.Fatal(err)
			}
			if m.SupersededBy == want {
				return m
			}
			if time.Now().After(deadline) {
				t.Fatalf("memory %d is superseded by %d, want %d", older, m.SupersededBy, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	link := func() {
		t.Helper()
		tm.Type("4")
		tm.Type("g")
		tm.Type("s")
		tm.Type("j")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		wait("superseded by newer")
		tm.Type("y")
	}

	wait("press / or i to type a query")
	tm.Type("4")
	wait("CONTENT")
	tm.Type("s")
	wait("linking #1: select the other memory")
	tm.Type("j")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	wait("superseded by newer")
	tm.Type("y")
	m := linkIs(newer)
	if !m.ValidTo.Equal(demoNow.AddDate(0, 0, -60)) {
		t.Errorf("valid_to %v, want the newer memory's creation %v", m.ValidTo, demoNow.AddDate(0, 0, -60))
	}
	audit, err := db.AuditForMemory(ctx, older)
	if err != nil {
		t.Fatal(err)
	}
	last := audit[len(audit)-1]
	if last.Action != "supersede" || last.Actor != curatorActor || last.Batch == "" || last.After.SupersededBy != newer {
		t.Fatalf("the link's audit row: %+v", last)
	}

	// Curate's superseded queue lists it; u undoes it.
	tm.Type("3")
	tm.Type("S")
	// (The renderer writes changed cells only: wait for lines that are new
	// as a whole.)
	wait("newer:  My home is in Busan now, by the sea.")
	tm.Type("u")
	wait("is current again")
	linkIs(0)

	// Linked again, then marked reviewed: the queue empties, the link stays.
	link()
	linkIs(newer)
	tm.Type("3")
	wait("newer:  My home is in Busan now, by the sea.")
	tm.Type("m")
	wait("marked 1 link reviewed", "no supersession links since the last review")
	if v, err := db.GetSetting(ctx, settingSupersededReviewed); err != nil || v == "" {
		t.Fatalf("review mark = %q, %v", v, err)
	}
	linkIs(newer)

	// s on the superseded memory unlinks it.
	tm.Type("4")
	tm.Type("g")
	tm.Type("s")
	wait("Unlink memory #1")
	tm.Type("y")
	linkIs(0)
	// The store changes before the pane hears of it: quit only once the
	// batch joined the undo stack.
	wait("done (batch")
	tm.Type("q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	if n := len(final.memories().batches); n != 3 {
		t.Errorf("the Memories tab can undo %d batches, want 3 (two links, one unlink)", n)
	}
	if mm, _ := db.GetMemory(ctx, newer); mm.SupersededBy != 0 || mm.Status != engine.StatusActive {
		t.Errorf("the newer memory changed: %+v", mm)
	}
}
