package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"memtrace/engine"
)

// TestCurateRetypeToTheCurrentTypeIsRefusedAtTheKey: the chooser marks the
// memory's own type and does not open on it; choosing it anyway is refused
// with the reason while the chooser stays open, and nothing is recorded —
// so P never meets a retype that changes nothing.
func TestCurateRetypeToTheCurrentTypeIsRefusedAtTheKey(t *testing.T) {
	ctx := context.Background()
	f, m, rows := openQueue(t)
	target := rows[0]
	mem, err := f.db.GetMemory(ctx, target.MemoryID)
	if err != nil {
		t.Fatal(err)
	}
	types := retypeTargets()
	cur := slices.Index(types, mem.Type)
	if cur < 0 {
		t.Fatalf("memory %d's type %q is not a retype target", mem.ID, mem.Type)
	}
	m = drive(t, m, press("t"))
	d := m.curate().dlg
	if d == nil || d.kind != "retype" || types[d.cursor] == mem.Type || !strings.Contains(screen(m), mem.Type+" (current)") {
		t.Fatalf("the chooser should open off the current type %s, marked:\n%s", mem.Type, screen(m))
	}
	for m.curate().dlg.cursor < cur {
		m = drive(t, m, press("down"))
	}
	for m.curate().dlg.cursor > cur {
		m = drive(t, m, press("up"))
	}
	m = drive(t, m, press("enter"))
	if m.curate().dlg == nil {
		t.Fatal("enter on the current type closed the chooser")
	}
	if e := m.curate().err; !strings.Contains(e, "already "+mem.Type) || !strings.Contains(e, fmt.Sprintf("proposal %d", target.ID)) {
		t.Fatalf("the refusal does not say why: %q\n%s", e, screen(m))
	}
	pr, err := f.db.GetProposal(ctx, target.ID)
	if err != nil {
		t.Fatal(err)
	}
	if pr.Status != target.Status || pr.Kind != target.Kind {
		t.Fatalf("a refused retype was recorded: %+v", pr)
	}
	// Another type goes through, and clears the refusal.
	m = drive(t, m, press("down"), press("enter"))
	if m.curate().dlg != nil || m.curate().err != "" {
		t.Fatalf("a real retype: dialog %v, err %q", m.curate().dlg, m.curate().err)
	}
}

// TestCurateBlockedApplyTakesYouToTheProposal: a retype recorded as
// approved to the type its memory already has (a database from before the
// decision check) stops P; the error names it, the cursor lands on it,
// and x from there rejects it, after which P applies the rest.
func TestCurateBlockedApplyTakesYouToTheProposal(t *testing.T) {
	ctx := context.Background()
	f, m, rows := openQueue(t)
	bad, good := rows[1], rows[0]
	err := f.db.Update(ctx, func(q engine.Queries) error {
		mem, err := q.GetMemory(ctx, bad.MemoryID)
		if err != nil {
			return err
		}
		p, err := q.GetProposal(ctx, bad.ID)
		if err != nil {
			return err
		}
		p.Kind, p.TargetType, p.Status = engine.ProposalRetype, mem.Type, engine.ProposalApproved
		return q.UpdateProposal(ctx, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	m = drive(t, m, press("R"), press("a")) // approve the good one (the cursor is on it)
	m = drive(t, m, press("P"), press("y"))
	e := m.curate().err
	if !strings.Contains(e, fmt.Sprintf("proposal %d", bad.ID)) || !strings.Contains(e, "x rejects it") {
		t.Fatalf("P's error does not name the blocking proposal and the way out: %q", e)
	}
	if cur, ok := m.curate().queues.list.current(); !ok || cur.ID != bad.ID {
		t.Fatalf("the cursor is not on proposal %d:\n%s", bad.ID, screen(m))
	}
	m = drive(t, m, press("x"))
	m = drive(t, m, press("enter"))
	if p, _ := f.db.GetProposal(ctx, bad.ID); p.Status != engine.ProposalRejected {
		t.Fatalf("x from the blocked proposal: %+v (err %q)", p, m.curate().err)
	}
	m = drive(t, m, press("P"), press("y"))
	if p, _ := f.db.GetProposal(ctx, good.ID); p.Status != engine.ProposalApplied || m.curate().err != "" {
		t.Fatalf("P after rejecting the blocker: %+v, err %q", p, m.curate().err)
	}
}

// TestCurateApproveAndApply: ! asks once, then approves and applies the
// proposal under the cursor in a batch of its own and moves the cursor on.
func TestCurateApproveAndApply(t *testing.T) {
	ctx := context.Background()
	f, m, rows := openQueue(t)
	first, second := rows[0], rows[1]
	m = drive(t, m, press("!"))
	if !dialogShows(m, fmt.Sprintf("Approve and apply proposal %d now", first.ID)) {
		t.Fatalf("! did not ask:\n%s", screen(m))
	}
	m = drive(t, m, press("y"))
	p, err := f.db.GetProposal(ctx, first.ID)
	if err != nil || p.Status != engine.ProposalApplied {
		t.Fatalf("after !, y: %+v %v (err %q)", p, err, m.curate().err)
	}
	if cur, ok := m.curate().queues.list.current(); !ok || cur.ID != second.ID {
		t.Fatalf("the cursor did not move on to proposal %d:\n%s", second.ID, screen(m))
	}
	if st := m.curate().status; !strings.Contains(st, "approved and applied in batch") {
		t.Errorf("status %q", st)
	}
}

// openQueue is the curate fixture at 80×24 with the control sample
// labelled, on the first queue, which holds two proposals or more.
func openQueue(t *testing.T) (*curateFixture, Model, []*engine.Proposal) {
	t.Helper()
	f := newCurateFixture(t, 4, 2)
	m := drive(t, f.labelControlByKeys(t, f.open(t, 80, 24)), press("c"))
	rows := m.curate().queues.list.rows
	if len(rows) < 2 {
		t.Fatalf("want two proposals in the queue, have %d", len(rows))
	}
	return f, m, rows
}
