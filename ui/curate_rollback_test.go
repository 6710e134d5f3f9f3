package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
)

// On the demo database, four keys (3 H u y) quarantined everything the
// ingest run remembered, with a history that did not show the batch the
// Memories tab had just made. Now the history lists that batch at once,
// the rollback of the ingest run says what it will do, and it needs a
// second, different key.
func TestCurateHistoryFollowsTheMemoriesTabAndGuardsARunRollback(t *testing.T) {
	ctx := context.Background()
	eng, db := openDemo(t)
	active := func() int {
		st := engine.StatusActive
		_, n, err := db.FindMemories(ctx, engine.MemoryFilter{Status: &st, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	total := active()
	bs, err := db.Batches(ctx, 0)
	if err != nil || len(bs) != 1 || bs[0].Effect.Created == 0 {
		t.Fatalf("the demo's batches: %+v %v", bs, err)
	}
	run := bs[0]

	m := startModel(t, Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true}, 170, 40)
	m = drive(t, m, press("3"), press("H")) // the Curate history, loaded before the curator acts
	m = drive(t, m, press("4"), press("x")) // quarantine a memory in the Memories tab
	if e := m.memories().err; e != "" {
		t.Fatalf("quarantine: %s", e)
	}
	bs, _ = db.Batches(ctx, 0)
	if len(bs) != 2 || !strings.HasPrefix(bs[0].Batch, engine.BatchCurator+"-") {
		t.Fatalf("after x: %+v", bs)
	}
	curator := bs[0].Batch
	m = drive(t, m, press("3"))
	view := screen(m)
	if row := historyRow(view, curator); !strings.Contains(row, "quarantined 1") || !strings.Contains(row, "u undoes") {
		t.Fatalf("the history does not show %s without a reload:\n%s", curator, view)
	}
	if row := historyRow(view, run.Batch); !strings.Contains(row, "blocked") {
		t.Fatalf("the run's row should say it is blocked by the later change:\n%s", view)
	}

	// The run is blocked by the curator's change: u says so, opens nothing.
	m = drive(t, m, press("down"), press("u"))
	if m.curate().dlg != nil || !strings.Contains(m.curate().err, "changed after it") {
		t.Fatalf("u on a blocked batch: dialog %v, err %q", m.curate().dlg, m.curate().err)
	}
	// Undo the curator's batch: one memory, one confirmation.
	m = drive(t, m, press("up"), press("u"))
	if !dialogShows(m, "make 1 memory active again") {
		t.Fatalf("rollback dialog of %s:\n%s", curator, screen(m))
	}
	m = drive(t, m, press("y"))
	if e := m.curate().err; e != "" || active() != total {
		t.Fatalf("undo of %s: err %q, %d active of %d", curator, e, active(), total)
	}

	// Now the run: the dialog counts the effect, y opens the second
	// confirmation, which neither y nor enter passes.
	for i, b := range m.curate().hist.batches() {
		if b.Batch == run.Batch {
			m.panes[2] = withHistCursor(m.curate(), i)
		}
	}
	m = drive(t, m, press("u"))
	if !dialogShows(m, "This will quarantine ") || !strings.Contains(screen(m), run.Batch) {
		t.Fatalf("rollback dialog of the run:\n%s", screen(m))
	}
	m = drive(t, m, press("y"))
	if d := m.curate().dlg; d == nil || d.kind != "rollback-force" || !strings.Contains(screen(m), "Press Y (shift+y)") {
		t.Fatalf("no second confirmation after y:\n%s", screen(m))
	}
	m = drive(t, m, press("y"), press("enter"))
	if active() != total || m.curate().dlg == nil {
		t.Fatalf("y or enter at the second confirmation rolled back: %d active", active())
	}
	m = drive(t, m, press("esc"))
	if m.curate().dlg != nil || active() != total {
		t.Fatal("esc did not cancel the second confirmation")
	}
	m = drive(t, m, press("u"))
	m = drive(t, m, press("y"))
	m = drive(t, m, press("Y"))
	if e := m.curate().err; e != "" {
		t.Fatalf("rollback of the run: %s", e)
	}
	if n := active(); n != 0 {
		t.Fatalf("%d memories still active after rolling the run back", n)
	}
	if st := m.curate().status; !strings.Contains(st, "restored") || !strings.Contains(st, "quarantined") {
		t.Errorf("status after the rollback: %q", st)
	}
}

func withHistCursor(p curatePane, i int) curatePane {
	p.hist.list = p.hist.list.moveTo(i)
	return p
}
