package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"memtrace/curate"
	"memtrace/engine"
)

// TestCurateRetypeOverridesTheJudge: t opens the type chooser on a queued
// proposal; the choice replaces the judge's verdict, is approved at once,
// and apply retypes the memory keeping its old label in orig_type.
func TestCurateRetypeOverridesTheJudge(t *testing.T) {
	ctx := context.Background()
	f := newCurateFixture(t, 4, 2)
	m := f.labelControlByKeys(t, f.open(t, 120, 40))
	m = drive(t, m, press("c"))
	if k := curateKinds()[m.curate().queues.kindIdx]; k != engine.ProposalQuarantine {
		t.Fatalf("the queue opens on %s", k)
	}
	target := m.curate().queues.list.rows[0]
	m = drive(t, m, press("t"))
	if !m.curate().Typing() || !strings.Contains(screen(m), "Retype to:") {
		t.Fatalf("t did not open the chooser:\n%s", screen(m))
	}
	// The chooser owns the keys: q is not quit, and 1 does not switch tabs.
	next, cmd := m.Update(press("q"))
	m = next.(Model)
	if cmd != nil {
		if msgs := runCmd(t, cmd); len(msgs) != 0 {
			t.Errorf("q in the chooser produced %v", msgs)
		}
	}
	types := retypeTargets()
	want := -1
	for i, typ := range types {
		if typ == "note" {
			want = i
		}
	}
	for range want {
		m = drive(t, m, press("down"))
	}
	if !strings.Contains(screen(m), "> note") {
		t.Fatalf("the chooser's cursor is not on note:\n%s", screen(m))
	}
	m = drive(t, m, press("enter"))
	pr, err := f.db.GetProposal(ctx, target.ID)
	if err != nil {
		t.Fatal(err)
	}
	if pr.Kind != engine.ProposalRetype || pr.TargetType != "note" || pr.Status != engine.ProposalApproved || pr.DecidedBy != curatorActor ||
		!strings.HasPrefix(pr.Reason, "curator: retype:note (judge: ") {
		t.Fatalf("after the chooser: %+v", pr)
	}
	if st := m.curate().status; st != fmt.Sprintf("proposal %d approved as retype:note", target.ID) {
		t.Errorf("status %q", st)
	}
	m = drive(t, m, press("P"))
	if !dialogShows(m, "Apply 1 proposal (1 retype)") {
		t.Fatalf("apply dialog not on screen:\n%s", screen(m))
	}
	m = drive(t, m, press("n"))
	if m.curate().dlg != nil || m.curate().status != "cancelled" {
		t.Fatalf("n did not cancel: %+v %q", m.curate().dlg, m.curate().status)
	}
	if n := len(f.proposals(t, engine.ProposalFilter{Status: engine.ProposalApplied})); n != 0 {
		t.Fatalf("a cancelled apply applied %d", n)
	}
	m = drive(t, m, press("P"), press("y"))
	got, err := f.db.GetMemory(ctx, target.MemoryID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Type != "note" || got.OrigType != "milestone" || got.Status != engine.StatusActive {
		t.Errorf("memory %d after apply: type %s orig_type %s status %s", got.ID, got.Type, got.OrigType, got.Status)
	}
	if cached, _ := f.e.Memory(target.MemoryID); cached.Type != "note" {
		t.Errorf("the engine's cache says type %s", cached.Type)
	}
}

// dialogShows reports whether a dialog is open and its text, want, is on
// screen.
func dialogShows(m Model, want string) bool {
	return m.curate().dlg != nil && strings.Contains(screen(m), want)
}

// TestCurateControlLabelsRoleplayAndRetype: s labels a control item a
// role-play scene; t opens the type chooser and labels it retype:<type>.
// Both are stored on the proposal as the curator's blind label.
func TestCurateControlLabelsRoleplayAndRetype(t *testing.T) {
	ctx := context.Background()
	f := newCurateFixture(t, 2, 2)
	m := f.open(t, 120, 40)
	items := m.curate().control.list.rows
	if len(items) != 2 || m.curate().mode != modeControl {
		t.Fatalf("control sample %d items, mode %d", len(items), m.curate().mode)
	}
	m = drive(t, m, press("s"))
	m = drive(t, m, press("t"))
	if !strings.Contains(screen(m), "Retype to:") {
		t.Fatalf("t did not open the chooser in the control sample:\n%s", screen(m))
	}
	for range 2 {
		m = drive(t, m, press("down")) // preference, health, date
	}
	m = drive(t, m, press("enter"))
	for i, want := range []string{engine.TriageRoleplay, "retype:date"} {
		pr, err := f.db.GetProposal(ctx, items[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		pv, _ := curate.ParseProposalVerdict(pr)
		if pv.CuratorLabel != want || pr.Status != engine.ProposalPending {
			t.Errorf("proposal %d: label %q status %s, want %q and still pending", pr.ID, pv.CuratorLabel, pr.Status, want)
		}
	}
	if view := screen(m); !strings.Contains(view, "2 of 2 labelled") || !strings.Contains(lineWith(view, "retype:date"), fmt.Sprint(items[1].MemoryID)) {
		t.Errorf("the labels are not on screen:\n%s", view)
	}
}
