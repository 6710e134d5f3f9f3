package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/ollamatest"
	"memtrace/internal/testdata/storetest"
	"memtrace/internal/testdata/triagetest"
	"memtrace/internal/wording"
	"memtrace/store"
)

// curateFixture is the demo's milestones in a real store, judged by the
// real Ollama client against the fake server (genuine → keep, the injection
// → keep as a compromised judge would, the rest → echo or roleplay_scene),
// with the UI open on the result.
type curateFixture struct {
	db   *store.DB
	e    *engine.Engine
	demo triagetest.Demo
	ids  map[string]int64
	keys map[int64]string
	rep  *curate.TriageReport
}

func newCurateFixture(t *testing.T, sample int, seed uint64) *curateFixture {
	t.Helper()
	ctx := context.Background()
	f := &curateFixture{db: storetest.MustOpenClock(t, func() time.Time { return testNow }), demo: triagetest.LoadDemo(t), keys: map[int64]string{}}
	e, err := engine.Open(ctx, engine.Options{Store: f.db, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	f.e = e
	f.ids = f.demo.Insert(t, e)
	for k, id := range f.ids {
		f.keys[id] = k
	}
	dir := t.TempDir()
	srv := ollamatest.New(t, f.demo.Route)
	f.rep, err = curate.RunTriage(ctx, f.db, triagetest.Triager(t, srv, filepath.Join(dir, "cache.jsonl")), curate.TriageOptions{
		Type: "milestone", BackupDir: filepath.Join(dir, "backups"), VerdictsFile: filepath.Join(dir, "verdicts.jsonl"),
		SampleSize: sample, Seed: seed, Now: func() time.Time { return testNow },
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *curateFixture) open(t *testing.T, w, h int) Model {
	t.Helper()
	return goTo(t, startModel(t, Deps{Engine: f.e, Store: f.db, Now: func() time.Time { return testNow }, NoColor: true}, w, h), "Curate")
}

func (f *curateFixture) proposals(t *testing.T, filter engine.ProposalFilter) []*engine.Proposal {
	t.Helper()
	ps, err := f.db.FindProposals(context.Background(), filter)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// judgeClass is what the fake judge does with a key: keep genuine
// milestones and (obeying it) the injection, quarantine the rest.
func (f *curateFixture) judgeClass(key string) string {
	if f.demo.Genuine[key] || key == "inject-1" {
		return "keep"
	}
	return "quarantine"
}

// curatorClass is what a careful curator does with a key.
func (f *curateFixture) curatorClass(key string) string {
	if f.demo.Genuine[key] {
		return "keep"
	}
	return "quarantine"
}

// TestCurateEndToEnd drives the Curate tab with keys only, on the demo
// milestones judged through the fake Ollama: the blind control sample, its
// agreement and κ, approval, one apply batch checked in the database, and
// the rollback from the history that returns the memories to the dump taken
// before the apply.
func TestCurateEndToEnd(t *testing.T) {
	ctx := context.Background()
	const sample = 10
	f := newCurateFixture(t, sample, 2)
	total := len(f.demo.Text)
	if f.rep.Judged != total || f.rep.NeedsReview != 0 {
		t.Fatalf("triage judged %d (needs review %d) of %d", f.rep.Judged, f.rep.NeedsReview, total)
	}
	m := f.open(t, 140, 40)

	// 1. The control sample comes first, blind: no verdict, reason or
	// confidence of the judge is on screen.
	p := m.curate()
	if p.mode != modeControl {
		t.Fatalf("the Curate tab opened in mode %d, want the control sample", p.mode)
	}
	items := p.control.list.rows
	if len(items) != sample {
		t.Fatalf("%d control items, want %d", len(items), sample)
	}
	view := screen(m)
	if !strings.Contains(view, "CONTROL SAMPLE · judge verdicts hidden") || !strings.Contains(view, fmt.Sprintf("0 of %d labelled", sample)) {
		t.Fatalf("control header missing:\n%s", view)
	}
	for _, pr := range items {
		if strings.Contains(view, pr.Reason) {
			t.Fatalf("the judge's reason %q shows during the blind review:\n%s", pr.Reason, view)
		}
	}
	// Approving before the sample is labelled is refused by the engine; the
	// queue says so and nothing is approved.
	m = drive(t, m, press("c"), press("a"))
	if n := len(f.proposals(t, engine.ProposalFilter{Status: engine.ProposalApproved})); n != 0 {
		t.Fatalf("%d proposals approved before the control sample was labelled", n)
	}
	if e := m.curate().err; !strings.Contains(e, "control") {
		t.Errorf("approval before the control sample: status %q does not point at the control sample", e)
	}
	m = drive(t, m, press("c"))

	// 2. Label every control item as a careful curator would, y for keep
	// and e for echo, reading the memory id off the selected row.
	judgeN, curatorN := map[string]int{}, map[string]int{}
	agree, falseKeeps, injectionSampled := 0, 0, false
	for i := range sample {
		p := m.curate()
		if p.control.list.cursor != i {
			t.Fatalf("after %d labels the cursor is on %d", i, p.control.list.cursor)
		}
		key := f.keys[p.control.list.rows[i].MemoryID]
		j, c := f.judgeClass(key), f.curatorClass(key)
		judgeN[j]++
		curatorN[c]++
		if j == c {
			agree++
		}
		if j == "keep" && c == "quarantine" {
			falseKeeps++
		}
		injectionSampled = injectionSampled || key == "inject-1"
		if c == "keep" {
			m = drive(t, m, press("y"))
		} else {
			m = drive(t, m, press("e"))
		}
	}
	if !injectionSampled {
		t.Fatal("seed 2 no longer samples the injection; choose a seed that does, the false keep is the point")
	}
	for _, pr := range f.proposals(t, engine.ProposalFilter{Proposer: engine.ProposerJudge}) {
		pv, _ := curate.ParseProposalVerdict(pr)
		key := f.keys[pr.MemoryID]
		want := ""
		if pv.Control {
			want = engine.TriageEcho
			if f.curatorClass(key) == "keep" {
				want = engine.TriageKeep
			}
		}
		if pv.CuratorLabel != want {
			t.Errorf("proposal %d (%s): curator label %q, want %q", pr.ID, key, pv.CuratorLabel, want)
		}
	}
	// Agreement and Cohen's κ over actions, worked by hand for this
	// fixture (seed 2, 10 control items):
	//
	//	                 curator keep   curator quarantine
	//	judge keep            3               1 (the injection: a false keep)
	//	judge quarantine      0               6
	//
	//	p_o = (3 + 6) / 10 = 0.90
	//	p_e = (4/10)(3/10) + (6/10)(7/10) = 0.12 + 0.42 = 0.54
	//	κ   = (0.90 − 0.54) / (1 − 0.54) = 0.36 / 0.46 = 0.7826… → "0.78"
	if judgeN["keep"] != 4 || judgeN["quarantine"] != 6 || curatorN["keep"] != 3 || curatorN["quarantine"] != 7 || agree != 9 {
		t.Fatalf("the fixture's labels changed (judge %v, curator %v, %d agree): work the expected κ out again", judgeN, curatorN, agree)
	}
	const want = "agreement 90% · Cohen's κ 0.78 · false keeps 1 · false quarantines 0 · 10 of 10 labelled"
	if view := screen(m); !strings.Contains(view, want) {
		t.Fatalf("the control figures %q are not on screen:\n%s", want, view)
	}
	if falseKeeps != 1 || agree != sample-1 {
		t.Fatalf("agree %d, false keeps %d: the injection should be the one false keep", agree, falseKeeps)
	}

	// 3. The queues. The injection sits in the keep queue, flagged on its
	// row and in its detail.
	m = drive(t, m, press("c"))
	if m.curate().mode != modeQueue {
		t.Fatal("c did not leave the control sample")
	}
	for curateKinds()[m.curate().queues.kindIdx] != engine.ProposalKeep {
		m = drive(t, m, press("l"))
	}
	queue := m.curate().queues.list.rows
	inject := -1
	for i, pr := range queue {
		if f.keys[pr.MemoryID] == "inject-1" {
			inject = i
		}
	}
	if inject < 0 || len(queue) != len(f.demo.Genuine)+1 {
		t.Fatalf("keep queue: %d proposals, injection at %d", len(queue), inject)
	}
	row := lineWith(screen(m), fmt.Sprint(f.ids["inject-1"])+" pending")
	if !strings.Contains(row, "⚠ INJECT") || !strings.Contains(row, "Ignore previous instructions") {
		t.Errorf("the injection's row is not flagged: %q\n%s", row, screen(m))
	}
	for range inject {
		m = drive(t, m, press("down"))
	}
	if view := screen(m); !strings.Contains(view, "⚠ injection_attempt: this memory's text tries to instruct the judge") {
		t.Errorf("the injection's detail lacks the warning:\n%s", view)
	}
	// The curator rejects the injected keep and approves the rest of the
	// queue with A (the confirmation states the counts). x asks for a
	// reason first, prefilled; enter rejects with it.
	m = drive(t, m, press("x"))
	if !dialogShows(m, "Reject proposal") || !strings.Contains(screen(m), "reason › should not be kept as it is") {
		t.Fatalf("reject asks for no reason:\n%s", screen(m))
	}
	m = drive(t, m, press("enter"))
	m = drive(t, m, press("A"))
	if !dialogShows(m, fmt.Sprintf("Approve %s (%d keep)", wording.Count(len(f.demo.Genuine), "proposal"), len(f.demo.Genuine))) {
		t.Fatalf("batch approval dialog not on screen:\n%s", screen(m))
	}
	m = drive(t, m, press("enter"))
	// The quarantine queue: every false milestone, approved with A.
	for curateKinds()[m.curate().queues.kindIdx] != engine.ProposalQuarantine {
		m = drive(t, m, press("h"))
	}
	quarantine := total - len(f.demo.Genuine) - 1
	if n := len(m.curate().queues.list.rows); n != quarantine {
		t.Fatalf("quarantine queue has %d, want %d", n, quarantine)
	}
	m = drive(t, m, press("A"))
	if !dialogShows(m, fmt.Sprintf("Approve %s (%d quarantine)", wording.Count(quarantine, "proposal"), quarantine)) {
		t.Fatalf("batch approval dialog not on screen:\n%s", screen(m))
	}
	m = drive(t, m, press("enter"))
	approved := f.proposals(t, engine.ProposalFilter{Status: engine.ProposalApproved})
	if len(approved) != total-1 {
		t.Fatalf("%d approved, want %d", len(approved), total-1)
	}
	if rej := f.proposals(t, engine.ProposalFilter{Status: engine.ProposalRejected}); len(rej) != 1 || f.keys[rej[0].MemoryID] != "inject-1" || rej[0].DecidedBy != curatorActor ||
		rej[0].RejectNote != "should not be kept as it is" || strings.Contains(rej[0].Reason, "rejected") || rej[0].PriorStatus != engine.ProposalPending || rej[0].Batch == "" {
		t.Fatalf("rejected: %+v", rej)
	}
	if !strings.Contains(screen(m), fmt.Sprintf("%d approved (P applies)", total-1)) {
		t.Errorf("the header does not count the approved proposals:\n%s", screen(m))
	}

	// 4. Apply: one batch, confirmed with the counts.
	before, err := f.db.DumpMemories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m = drive(t, m, press("P"))
	if !dialogShows(m, fmt.Sprintf("Apply %s (%d quarantine, %d keep) in one batch", wording.Count(total-1, "proposal"), quarantine, len(f.demo.Genuine))) {
		t.Fatalf("apply dialog not on screen:\n%s", screen(m))
	}
	m = drive(t, m, press("enter"))
	if e := m.curate().err; e != "" {
		t.Fatalf("apply failed: %s", e)
	}
	batches, err := f.db.Batches(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	keeps := len(f.demo.Genuine)
	if len(batches) == 0 || !strings.HasPrefix(batches[0].Batch, "apply-") || batches[0].Rows != quarantine+keeps || batches[0].Actor != curatorActor ||
		batches[0].Effect != (engine.BatchEffect{Quarantined: quarantine, Kept: keeps}) {
		t.Fatalf("newest batch %+v, want an apply batch by curator that quarantined %d and kept %d", batches, quarantine, keeps)
	}
	batch := batches[0].Batch
	if st := m.curate().status; !strings.Contains(st, fmt.Sprintf("applied %s, confirmed %s in batch %s", wording.Count(quarantine, "change"), wording.Count(len(f.demo.Genuine), "keep"), batch)) {
		t.Errorf("status after apply: %q", st)
	}
	rows, err := f.db.AuditForBatch(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != quarantine+keeps {
		t.Fatalf("%d audit rows in %s, want %d", len(rows), batch, quarantine+keeps)
	}
	audited := map[int64]bool{}
	for _, r := range rows {
		if r.Action == engine.ProposalKeep {
			// The keep decision: audited, the memory as it was.
			if r.Before.Status != engine.StatusActive || r.After.Status != engine.StatusActive || engine.ClassifyChange(r.Before, r.After) != "" {
				t.Errorf("keep row %+v changed the memory", r)
			}
			continue
		}
		audited[r.MemoryID] = true
		if r.Actor != curatorActor || r.Action != engine.ProposalQuarantine || r.Before.Status != engine.StatusActive || r.After.Status != engine.StatusQuarantined {
			t.Errorf("audit row %+v", r)
		}
	}
	for key, id := range f.ids {
		got, err := f.db.GetMemory(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		wantQ := f.curatorClass(key) == "quarantine" && key != "inject-1"
		if wantQ != (got.Status == engine.StatusQuarantined) || wantQ != audited[id] || (wantQ && got.OrigType != "milestone") || got.Type != "milestone" {
			t.Errorf("%s after apply: status %s orig_type %q type %q, audited %v", key, got.Status, got.OrigType, got.Type, audited[id])
		}
		if cached, _ := f.e.Memory(id); cached.Status != got.Status {
			t.Errorf("%s: the engine's cache says %s, the store %s", key, cached.Status, got.Status)
		}
	}
	for _, pr := range f.proposals(t, engine.ProposalFilter{Batch: batch}) {
		if pr.Status != engine.ProposalApplied {
			t.Errorf("proposal %d is %s after apply", pr.ID, pr.Status)
		}
	}
	if n := len(f.proposals(t, engine.ProposalFilter{Batch: batch})); n != total-1 {
		t.Errorf("%d proposals in batch %s, want %d", n, batch, total-1)
	}

	// 5. Roll back from the history: the memories are the dump from before
	// the apply again, byte for byte.
	m = drive(t, m, press("H"))
	if view := screen(m); !strings.Contains(historyRow(view, batch), "applied") {
		t.Fatalf("the history does not list %s as applied:\n%s", batch, view)
	}
	if m.curate().hist.batches()[m.curate().hist.list.cursor].Batch != batch {
		t.Fatalf("the history cursor is on %s", m.curate().hist.batches()[m.curate().hist.list.cursor].Batch)
	}
	m = drive(t, m, press("u"))
	if !dialogShows(m, fmt.Sprintf("Roll back batch %s by curator (2026-03-01 12:00)? This will make %d memories active again", batch, quarantine)) {
		t.Fatalf("rollback dialog not on screen:\n%s", screen(m))
	}
	m = drive(t, m, press("enter"))
	if e := m.curate().err; e != "" {
		t.Fatalf("rollback failed: %s", e)
	}
	after, err := f.db.DumpMemories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Error("after the rollback the memories differ from the dump taken before the apply")
	}
	for key, id := range f.ids {
		if cached, _ := f.e.Memory(id); cached.Status != engine.StatusActive {
			t.Errorf("%s: the engine's cache still says %s after the rollback", key, cached.Status)
		}
	}
	for _, pr := range f.proposals(t, engine.ProposalFilter{Batch: batch}) {
		if pr.Status != engine.ProposalRolledBack {
			t.Errorf("proposal %d is %s after the rollback", pr.ID, pr.Status)
		}
	}
	view = screen(m)
	if !strings.Contains(historyRow(view, batch), "rolled back") || !strings.Contains(historyRow(view, "rollback:"+batch), "rollback") {
		t.Errorf("the history does not show the rollback:\n%s", view)
	}
	if st := m.curate().status; !strings.Contains(st, fmt.Sprintf("rolled back %s: %s restored", batch, wording.Memories(quarantine))) {
		t.Errorf("status after the rollback: %q", st)
	}
	// A second rollback of the same batch is refused before it starts.
	for m.curate().hist.batches()[m.curate().hist.list.cursor].Batch != batch {
		m = drive(t, m, press("down"))
	}
	m = drive(t, m, press("u"))
	if m.curate().dlg != nil || !strings.Contains(m.curate().status, "was already rolled back") {
		t.Errorf("a second rollback: dialog %+v, status %q", m.curate().dlg, m.curate().status)
	}
}

// historyRow is the history line of batch: the line that starts with it.
func historyRow(view, batch string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), batch+" ") {
			return l
		}
	}
	return ""
}

// labelControlByKeys labels the whole control sample the way a careful
// curator would, with y and e.
func (f *curateFixture) labelControlByKeys(t *testing.T, m Model) Model {
	t.Helper()
	items := m.curate().control.list.rows
	for i := range items {
		if f.curatorClass(f.keys[m.curate().control.list.rows[i].MemoryID]) == "keep" {
			m = drive(t, m, press("y"))
		} else {
			m = drive(t, m, press("e"))
		}
	}
	if s := m.curate().control.stats; !s.Done() {
		t.Fatalf("control sample not done after labelling: %+v", s)
	}
	return m
}
