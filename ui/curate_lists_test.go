package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// curateListsFixture is a real store with 30 archive proposals by the
// heartbeat and 3 quarantine proposals by the judge, the UI open on it.
func curateListsFixture(t *testing.T, w, h int) (Model, *store.DB, *engine.Engine, []int64) {
	t.Helper()
	ctx := context.Background()
	clock := func() time.Time { return testNow }
	db := storetest.MustOpenClock(t, clock)
	eng, err := engine.Open(ctx, engine.Options{Store: db, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	var archive []int64
	for i := range 33 {
		text := fmt.Sprintf("memory number %02d about the garden", i)
		if i >= 30 {
			text = fmt.Sprintf("echo %d: 오늘 정말 최고의 하루였어", i)
		}
		m := &engine.Memory{Content: text, Type: "note", Kind: engine.KindFact, Importance: 0.5, CreatedAt: testNow.AddDate(0, 0, -100)}
		if err := eng.AddMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
		p := &engine.Proposal{Kind: engine.ProposalArchive, MemoryID: m.ID, Proposer: engine.ProposerHeartbeat, Confidence: 1, Reason: "unused", Status: engine.ProposalPending}
		if i >= 30 {
			p = &engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: m.ID, Proposer: engine.ProposerJudge, Confidence: 0.73, Reason: "echo", Status: engine.ProposalPending}
		}
		if err := db.InsertProposal(ctx, p); err != nil {
			t.Fatal(err)
		}
		if i < 30 {
			archive = append(archive, p.ID)
		}
	}
	m := startModel(t, Deps{Engine: eng, Store: db, Now: clock, NoColor: true}, w, h)
	return goTo(t, m, "Curate"), db, eng, archive
}

func toQueue(t *testing.T, m Model, kind string) Model {
	t.Helper()
	for i := 0; curateKinds()[m.curate().queues.kindIdx] != kind; i++ {
		if i > len(curateKinds()) {
			t.Fatalf("no queue %s", kind)
		}
		m = drive(t, m, press("l"))
	}
	return m
}

// CONF shows the judge's confidence and nothing for the heartbeat's.
func TestCurateConfidenceOnlyFromAJudge(t *testing.T) {
	m, _, _, _ := curateListsFixture(t, 100, 30)
	m = toQueue(t, m, engine.ProposalQuarantine)
	if row := lineWith(screen(m), "echo 30"); !strings.Contains(row, "0.73") {
		t.Errorf("a judge's proposal shows no confidence: %q", row)
	}
	m = toQueue(t, m, engine.ProposalArchive)
	row := lineWith(screen(m), "memory number 00")
	if strings.Contains(row, "1.00") || !strings.Contains(row, "—") {
		t.Errorf("a heartbeat proposal shows a confidence: %q", row)
	}
	if !strings.Contains(screen(m), "no confidence: proposed by heartbeat, not a judge") {
		t.Errorf("the detail claims a confidence:\n%s", screen(m))
	}
}

// A click selects the row under the pointer, the wheel scrolls, G/g jump.
func TestCurateMouseAndListKeys(t *testing.T) {
	m, _, _, archive := curateListsFixture(t, 80, 24)
	m = toQueue(t, m, engine.ProposalArchive)
	// Tab bar (1 line), queue header, column header: row 3 of the pane's
	// second row is y = 1 + 2 + 2.
	m = drive(t, m, tea.MouseClickMsg{X: 10, Y: 1 + 2 + 2, Button: tea.MouseLeft})
	if c := m.curate().queues.list.cursor; c != 2 {
		t.Fatalf("click on the third row: cursor %d", c)
	}
	m = drive(t, m, tea.MouseWheelMsg{X: 10, Y: 5, Button: tea.MouseWheelDown})
	if p := m.curate(); p.queues.list.top != 3 || p.queues.list.cursor != 3 {
		t.Fatalf("wheel down: top %d cursor %d, want 3 and 3 (dragged along)", p.queues.list.top, p.queues.list.cursor)
	}
	m = drive(t, m, press("G"))
	if q := m.curate().queues.list.rows; m.curate().queues.list.cursor != len(q)-1 || q[len(q)-1].ID != archive[len(archive)-1] {
		t.Fatalf("G: cursor %d of %d", m.curate().queues.list.cursor, len(q))
	}
	if !strings.Contains(screen(m), "memory number 29") {
		t.Errorf("G does not show the last row:\n%s", screen(m))
	}
	m = drive(t, m, press("g"))
	if m.curate().queues.list.cursor != 0 || m.curate().queues.list.top != 0 {
		t.Fatalf("g: cursor %d top %d", m.curate().queues.list.cursor, m.curate().queues.list.top)
	}
}

// / filters a queue as you type, an unknown field or value is said inline
// and selects nothing, esc clears.
func TestCurateFilter(t *testing.T) {
	m, _, _, _ := curateListsFixture(t, 100, 30)
	m = toQueue(t, m, engine.ProposalArchive)
	m = drive(t, m, press("/"))
	if !m.curate().Typing() {
		t.Fatal("/ did not focus the filter")
	}
	m = typeText(t, m, "number 1")
	if n := len(m.curate().queues.list.rows); n != 10 {
		t.Fatalf("filter 'number 1': %d rows, want 10 (10–19)", n)
	}
	m = typeText(t, m, " stat:x")
	if !strings.Contains(screen(m), "unknown field stat: use status, by, flag") {
		t.Errorf("unknown field not reported:\n%s", screen(m))
	}
	if n := len(m.curate().queues.list.rows); n != 10 {
		t.Errorf("an unknown field changed the rows: %d", n)
	}
	m = drive(t, m, press("enter"))
	if m.curate().Typing() {
		t.Fatal("enter did not leave the filter")
	}
	m = drive(t, m, press("esc"))
	if n := len(m.curate().queues.list.rows); n != 30 || m.curate().filter.input.Value() != "" {
		t.Fatalf("esc: %d rows, filter %q", n, m.curate().filter.input.Value())
	}
	// The value check: status:pend is no status.
	m = drive(t, m, press("/"))
	m = typeText(t, m, "status:pend")
	if !strings.Contains(screen(m), "unknown status pend: use pending, needs_review, approved") {
		t.Errorf("unknown value not reported:\n%s", screen(m))
	}
	m = drive(t, m, press("esc"))
	// A flag no proposal carries names the flags there are, and
	// selects nothing (the rows stay); a part of a known flag is quiet.
	m = drive(t, m, press("/"))
	m = typeText(t, m, "flag:xyz")
	if !strings.Contains(screen(m), "unknown flag xyz: use injection_attempt, low_confidence, label_prefix_stripped") {
		t.Errorf("unknown flag not reported with the known ones:\n%s", screen(m))
	}
	if n := len(m.curate().queues.list.rows); n != 30 {
		t.Errorf("an unknown flag changed the rows: %d, want 30", n)
	}
	m = drive(t, m, press("esc"), press("/"))
	m = typeText(t, m, "flag:inject")
	if strings.Contains(screen(m), "unknown flag") {
		t.Errorf("flag:inject (part of injection_attempt) reported as unknown:\n%s", screen(m))
	}
	m = drive(t, m, press("esc"))
	// The history's filter knows its own fields.
	m = drive(t, m, press("H"), press("/"))
	m = typeText(t, m, "state:gone")
	if !strings.Contains(screen(m), "unknown state gone: use applied, rollback, rolled_back, blocked, undoable") {
		t.Errorf("history filter value not reported:\n%s", screen(m))
	}
}

// The history's kind and state fields read the batch's recorded kind,
// never its id: a rollback is one by its Kind, whatever its id looks like.
func TestCurateHistoryFilterReadsTheBatchKind(t *testing.T) {
	rollback := engine.BatchInfo{Batch: "undo-7", Kind: engine.BatchRollback, RollbackOf: "capture-20260601T090000Z-3", CanRollback: true}
	capture := engine.BatchInfo{Batch: "capture-20260601T090000Z-3", Kind: engine.BatchCapture, RolledBack: true}
	named := engine.BatchInfo{Batch: "rollback:by-hand", CanRollback: true} // an id a caller chose: no kind
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"kind:rollback", []string{"undo-7"}},
		{"kind:capture", []string{"capture-20260601T090000Z-3"}},
		{"state:rollback", []string{"undo-7"}},
		{"state:applied", []string{"rollback:by-hand"}},
	} {
		match, problem := curateHistoryQuery().parse(tc.query)
		if problem != "" {
			t.Fatalf("%s: %s", tc.query, problem)
		}
		var got []string
		for _, b := range []engine.BatchInfo{rollback, capture, named} {
			if match(b) {
				got = append(got, b.Batch)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s matches %v, want %v", tc.query, got, tc.want)
		}
	}
}

// V marks a range; the second V selects it; x rejects the selection with
// the reason typed, u undoes it: the proposals are pending again.
func TestCurateRangeRejectWithReasonAndUndo(t *testing.T) {
	ctx := context.Background()
	m, db, _, archive := curateListsFixture(t, 100, 30)
	m = toQueue(t, m, engine.ProposalArchive)
	m = drive(t, m, press("j"), press("V"), press("j"), press("j"), press("j"), press("V"))
	if n := len(m.curate().queues.selected); n != 4 {
		t.Fatalf("V…V selected %d, want 4", n)
	}
	m = drive(t, m, press("x"))
	if !dialogShows(m, "Reject 4 proposals (4 archive)") || !strings.Contains(screen(m), "reason › still needed") {
		t.Fatalf("reject dialog:\n%s", screen(m))
	}
	// Clear the prefilled reason and type another.
	for range len("still needed") {
		m = drive(t, m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	m = typeText(t, m, "used every spring")
	m = drive(t, m, press("enter"))
	if e := m.curate().err; e != "" {
		t.Fatal(e)
	}
	var batch string
	for _, id := range archive[1:5] {
		p, err := db.GetProposal(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if p.Status != engine.ProposalRejected || p.Reason != "unused" || p.RejectNote != "used every spring" || p.PriorStatus != engine.ProposalPending {
			t.Fatalf("proposal %d: %+v", id, p)
		}
		if batch == "" {
			batch = p.Batch
		} else if p.Batch != batch {
			t.Fatalf("the rejection is in two batches: %s, %s", batch, p.Batch)
		}
	}
	if n := len(m.curate().queues.list.rows); n != 26 {
		t.Fatalf("the queue has %d open, want 26", n)
	}
	// The history lists the rejection; enter lists its changes.
	m = drive(t, m, press("H"))
	if row := historyRow(screen(m), batch); !strings.Contains(row, "rejected 4") || !strings.Contains(row, "reject") {
		t.Fatalf("history row of the rejection: %q\n%s", row, screen(m))
	}
	m = drive(t, m, press("enter"))
	if m.curate().mode != modeBatch || !strings.Contains(screen(m), fmt.Sprintf("proposal %d archive: pending → rejected", archive[1])) {
		t.Fatalf("enter on the rejection:\n%s", screen(m))
	}
	m = drive(t, m, press("esc"), press("H"))
	if !strings.Contains(screen(m), "u undo last reject") {
		t.Errorf("the footer does not offer undo:\n%s", screen(m))
	}
	m = drive(t, m, press("u"))
	if e := m.curate().err; e != "" {
		t.Fatal(e)
	}
	for _, id := range archive[1:5] {
		p, _ := db.GetProposal(ctx, id)
		if p.Status != engine.ProposalPending || p.Reason != "unused" || p.Batch != "" {
			t.Fatalf("after undo, proposal %d: %+v", id, p)
		}
	}
	if n := len(m.curate().queues.list.rows); n != 30 || len(m.curate().rejects) != 0 {
		t.Fatalf("after undo: %d open, %d undoable", n, len(m.curate().rejects))
	}
	if !strings.Contains(m.curate().status, "undid rejection "+batch+": 4 proposals open again") {
		t.Errorf("status: %q", m.curate().status)
	}
}

// enter on an audited batch lists its rows before → after; u from there
// asks to roll it back.
func TestCurateBatchChangesBeforeRollback(t *testing.T) {
	m, db, _, _ := curateListsFixture(t, 100, 30)
	m = toQueue(t, m, engine.ProposalQuarantine)
	m = drive(t, m, press("a"))
	m = drive(t, m, press("P"))
	m = drive(t, m, press("enter"))
	if e := m.curate().err; e != "" {
		t.Fatal(e)
	}
	bs, _ := db.Batches(context.Background(), 1)
	if len(bs) == 0 {
		t.Fatalf("no batch after apply; status %q\n%s", m.curate().status, screen(m))
	}
	m = drive(t, m, press("H"))
	for m.curate().hist.list.rows[m.curate().hist.list.cursor].Batch != bs[0].Batch {
		m = drive(t, m, press("j"))
	}
	m = drive(t, m, press("enter"))
	view := screen(m)
	if !strings.Contains(view, "BATCH "+bs[0].Batch) || !strings.Contains(view, "status active→quarantined") || !strings.Contains(view, "quarantine") {
		t.Fatalf("the batch's changes:\n%s", view)
	}
	m = drive(t, m, press("u"))
	if !dialogShows(m, "Roll back batch "+bs[0].Batch) {
		t.Fatalf("u in the batch view:\n%s", screen(m))
	}
}

// ? lists the list keys of every Curate list, and the footer inside the
// filter offers only what the filter does.
func TestCurateHelpIsTrue(t *testing.T) {
	m, _, _, _ := curateListsFixture(t, 120, 40)
	m = toQueue(t, m, engine.ProposalArchive)
	want := func(mode string, keys ...[2]string) {
		t.Helper()
		h := m.helpKeys()
		for _, k := range keys {
			if !hasKey(h.FullHelp(), k[0], k[1]) {
				t.Errorf("%s: ? lacks %s %s", mode, k[0], k[1])
			}
		}
	}
	want("queue", [2]string{"x", "reject…"}, [2]string{"space", "select & move down"}, [2]string{"V", "select range"},
		[2]string{"/", "filter"}, [2]string{"g", "first"}, [2]string{"G", "last"}, [2]string{"pgdn", "page down"}, [2]string{"S", "superseded links"})
	m = drive(t, m, press("H"))
	// This fixture's history is empty: enter and u would act on no batch,
	// so neither is offered (TestFooterKeysAct sends them where they are).
	if len(m.curate().hist.list.rows) != 0 {
		t.Fatalf("the fixture's history has %d batches; this check wants none", len(m.curate().hist.list.rows))
	}
	want("history", [2]string{"/", "filter"})
	for _, k := range [][2]string{{"enter", "list changes"}, {"u", "roll back batch…"}} {
		if hasKey(m.helpKeys().FullHelp(), k[0], k[1]) {
			t.Errorf("history: ? offers %s %s on an empty history", k[0], k[1])
		}
	}
	m = drive(t, m, press("S"))
	want("superseded", [2]string{"/", "filter"}, [2]string{"S", "superseded links"})
	if hasKey(m.helpKeys().FullHelp(), "u", "undo link") {
		t.Error("superseded: ? offers u with no link to undo")
	}
	m = drive(t, m, press("/"))
	if f := lastLine(screen(m)); !strings.Contains(f, "enter keep filter") || !strings.Contains(f, "esc clear filter") || strings.Contains(f, "q quit") {
		t.Errorf("footer in the filter: %q", f)
	}
}

// The flags a queue filter knows are the judge's and every other flag an
// open proposal's verdict carries, once each; a closed proposal's are not.
func TestCurateKnownFlags(t *testing.T) {
	verdict := func(flags ...string) []byte {
		b, _ := json.Marshal(curate.ProposalVerdict{TriageVerdict: engine.TriageVerdict{Verdict: engine.TriageEcho, Flags: flags}})
		return b
	}
	props := []*engine.Proposal{
		{ID: 1, Kind: engine.ProposalQuarantine, Status: engine.ProposalPending, Verdict: verdict("self_reference", engine.FlagLowConfidence, "pii")},
		{ID: 2, Kind: engine.ProposalQuarantine, Status: engine.ProposalPending, Verdict: verdict("pii")},
		{ID: 3, Kind: engine.ProposalQuarantine, Status: engine.ProposalRejected, Verdict: verdict("closed_flag")},
	}
	m, _, _, _ := curateListsFixture(t, 100, 30)
	v := m.curate().queues.setProps(props, curateMemories{})
	if got, want := strings.Join(v.knownFlags(), ","), "injection_attempt,low_confidence,label_prefix_stripped,self_reference,pii"; got != want {
		t.Errorf("known flags %s, want %s", got, want)
	}
	if _, problem := v.setFilter("flag:closed"); !strings.Contains(problem, "unknown flag closed: use injection_attempt, low_confidence, label_prefix_stripped, self_reference, pii") {
		t.Errorf("flag:closed: %q", problem)
	}
}
