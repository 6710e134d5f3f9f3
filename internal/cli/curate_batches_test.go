package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/ollamatest"
	"memtrace/internal/testdata/triagetest"
	"memtrace/internal/wording"
	"memtrace/mcpserver"
	"memtrace/store"
)

// storableTexts are distinct facts the rules fallback stores.
var storableTexts = []string{
	"I prefer green tea from Boseong every morning before work starts.",
	"My sister Jiwoo lives in Daejeon and works as a veterinarian there.",
	"We moved the deploy pipeline from Jenkins to GitHub Actions in March.",
	"저는 주말마다 북한산에 올라가서 일출을 보는 걸 좋아해요.",
	"The staging database runs Postgres 16 on a single large instance.",
	"I am allergic to peanuts, so please never suggest recipes with them.",
	"우리 팀은 매주 화요일 오전 10시에 스프린트 회의를 해요.",
	"My favourite novel is Pachinko by Min Jin Lee, read it twice already.",
	"The office cat is called Mochi and sleeps on the printer all day.",
	"I run the Chuncheon marathon every October with my running club.",
}

// storable returns n JSONL messages the rules fallback stores, with ids
// prefix-1 … prefix-n (n ≤ len(storableTexts)), prefixed so that runs differ.
func storable(prefix string, n int) string {
	var lines []string
	for i := 1; i <= n; i++ {
		text := fmt.Sprintf("[%s] %s", strings.Repeat(prefix, 3), storableTexts[(i-1+len(prefix)*3)%len(storableTexts)])
		lines = append(lines, fmt.Sprintf(`{"id":"%s-%d","session":"s-%s","role":"user","text":%q,"at":"2026-07-01T09:%02d:00Z"}`,
			prefix, i, prefix, text, i))
	}
	return strings.Join(lines, "\n") + "\n"
}

type batchesJSON struct {
	Batches []engine.BatchInfo `json:"batches"`
}

func listBatches(t *testing.T, db string) []engine.BatchInfo {
	t.Helper()
	code, out, errOut := runMemtrace(t, "", "--db", db, "batches", "--json", "--limit", "0")
	if code != 0 {
		t.Fatalf("batches: exit %d: %s", code, errOut)
	}
	var bs batchesJSON
	if err := json.Unmarshal([]byte(out), &bs); err != nil {
		t.Fatalf("batches --json: %v\n%s", err, out)
	}
	return bs.Batches
}

// Under a pinned clock (every demo database), two ingest runs were one
// batch; they are two now, each listing what it created, and every time the
// runs wrote is the pinned one.
func TestTwoIngestRunsUnderAPinnedClockAreTwoBatches(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	if code, _, errOut := runMemtrace(t, storable("a", 2), "--db", db, "ingest", "-"); code != 0 {
		t.Fatalf("ingest a: %s", errOut)
	}
	if code, _, errOut := runMemtrace(t, "", "--db", db, "clock", "2026-07-21T09:00:00Z"); code != 0 {
		t.Fatalf("clock: %s", errOut)
	}
	for _, p := range []string{"b", "c"} {
		if code, _, errOut := runMemtrace(t, storable(p, 3), "--db", db, "ingest", "-"); code != 0 {
			t.Fatalf("ingest %s: %s", p, errOut)
		}
	}
	bs := listBatches(t, db)
	if len(bs) != 3 {
		t.Fatalf("%d batches after three ingest runs, want 3: %+v", len(bs), bs)
	}
	pinned := time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC)
	for i, want := range []int{3, 3, 2} {
		b := bs[i]
		if !strings.HasPrefix(b.Batch, engine.BatchCapture+"-") || b.Effect.Created != want || b.Actor != "capture" || !b.CanRollback {
			t.Errorf("batch %d = %+v, want a capture run that created %d and can be rolled back", i, b, want)
		}
		if i < 2 && !b.At.Equal(pinned) {
			t.Errorf("batch %s written at %s, want the pinned clock %s", b.Batch, b.At, pinned)
		}
	}
	if bs[0].Batch == bs[1].Batch {
		t.Fatalf("two runs share batch %s", bs[0].Batch)
	}
	// One clock: the audit and the memory agree on when it was written.
	st, err := store.Open(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.AuditForBatch(context.Background(), bs[0].Batch)
	if err != nil || len(rows) != 3 {
		t.Fatalf("audit of %s: %d rows, %v", bs[0].Batch, len(rows), err)
	}
	for _, r := range rows {
		if !r.At.Equal(pinned) {
			t.Errorf("audit row %d at %s, want %s", r.ID, r.At, pinned)
		}
	}
	// The text list says the same.
	code, out, _ := runMemtrace(t, "", "--db", db, "batches")
	if code != 0 || !strings.Contains(out, "created 3") || !strings.Contains(out, "memtrace rollback "+bs[0].Batch) {
		t.Fatalf("batches = %d\n%s", code, out)
	}
}

// A capture run's rollback says what it will do, and needs a second,
// explicit confirmation before it quarantines a whole run.
func TestRollbackOfACaptureRunSaysWhatAndNeedsForce(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	if code, _, errOut := runMemtrace(t, storable("r", 8), "--db", db, "ingest", "-"); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	batch := listBatches(t, db)[0].Batch
	active := func() int {
		code, out, errOut := runMemtrace(t, "", "--db", db, "list", "--status", "active", "--json")
		if code != 0 {
			t.Fatalf("list: %s", errOut)
		}
		var l struct{ Memories []engine.Memory }
		if err := json.Unmarshal([]byte(out), &l); err != nil {
			t.Fatal(err)
		}
		return len(l.Memories)
	}
	if n := active(); n != 8 {
		t.Fatalf("%d active after ingest, want 8", n)
	}

	code, out, _ := runMemtrace(t, "", "--db", db, "rollback", batch, "--dry-run")
	if code != 0 || !strings.Contains(out, "rolling it back will quarantine 8 memories") {
		t.Fatalf("dry run = %d %q", code, out)
	}
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", nil, "no answer on standard input"},
		{"n\n", nil, "cancelled; nothing changed"},
		{"y\n3\n", nil, "cancelled; nothing changed"},
		{"", []string{"--yes"}, "add --force to --yes"},
	} {
		args := append([]string{"--db", db, "rollback", batch}, tc.args...)
		code, _, errOut := runMemtrace(t, tc.stdin, args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("rollback %v with %q = %d %q, want non-zero and %q", tc.args, tc.stdin, code, errOut, tc.want)
		}
		if n := active(); n != 8 {
			t.Fatalf("rollback %v with %q changed the memories: %d active", tc.args, tc.stdin, n)
		}
	}

	// The interactive second confirmation: the number of memories.
	code, out, errOut := runMemtrace(t, "y\n8\n", "--db", db, "rollback", batch)
	if code != 0 || !strings.Contains(out, "8 memories restored (quarantined 8)") {
		t.Fatalf("confirmed rollback = %d %q %q", code, out, errOut)
	}
	if n := active(); n != 0 {
		t.Fatalf("%d active after rolling back the run", n)
	}
	code, _, errOut = runMemtrace(t, "", "--db", db, "rollback", batch, "--yes", "--force")
	if code == 0 || !strings.Contains(errOut, "already rolled back") {
		t.Fatalf("second rollback = %d %q", code, errOut)
	}
	// The rollback of the rollback (a redo) restores them, with --json.
	code, out, errOut = runMemtrace(t, "", "--db", db, "rollback", "rollback:"+batch, "--yes", "--json")
	var rep curate.RollbackReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Restored != 8 || rep.Effect.Restored != 8 {
		t.Fatalf("redo = %d %q %q", code, out, errOut)
	}
	if n := active(); n != 8 {
		t.Fatalf("%d active after the redo", n)
	}
}

// memory_forget → rollback → memory_forget → rollback under a pinned clock
// reused one batch id: the second rollback "restored 1" and restored
// nothing. Now the memory ends active, with two audit pairs.
func TestForgetRollbackTwiceLeavesTheMemoryActive(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "m.db")
	if code, _, errOut := runMemtrace(t, storable("f", 1), "--db", db, "ingest", "-"); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	if code, _, errOut := runMemtrace(t, "", "--db", db, "clock", "2026-07-21T09:00:00Z"); code != 0 {
		t.Fatalf("clock: %s", errOut)
	}
	e := &env{ctx: ctx, dbPath: db}
	eng, st, closeDB, err := openEngine(e, true, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	var batches []string
	for round := 1; round <= 2; round++ {
		out, err := mcpserver.Forget(ctx, eng, 0, "f-1", "wrong")
		if err != nil || !out.Changed {
			t.Fatalf("forget %d: %+v %v", round, out, err)
		}
		batches = append(batches, out.Batch)
		code, stdout, errOut := runMemtrace(t, "", "--db", db, "rollback", out.Batch, "--yes")
		if code != 0 || !strings.Contains(stdout, "1 memory restored (restored 1)") {
			t.Fatalf("rollback %d = %d %q %q", round, code, stdout, errOut)
		}
		m, err := st.GetMemoryByKey(ctx, "f-1")
		if err != nil || m.Status != engine.StatusActive {
			t.Fatalf("after rollback %d: %+v %v", round, m, err)
		}
	}
	if batches[0] == batches[1] {
		t.Fatalf("both forgets wrote batch %s", batches[0])
	}
	m, _ := st.GetMemoryByKey(ctx, "f-1")
	rows, err := st.AuditForMemory(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, r := range rows {
		actions = append(actions, r.Action)
	}
	if got := strings.Join(actions, " "); got != "create quarantine rollback quarantine rollback" {
		t.Fatalf("audit of the memory: %s", got)
	}
}

// After a triage whose verdicts mix keep, echo and roleplay_scene,
// `approve --all-pending` applies the quarantines, records the keeps and
// leaves nothing pending; the rollback restores the memories exactly.
func TestApproveAllPendingAfterATriageWithKeeps(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	st, err := store.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.Open(ctx, engine.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	demo := triagetest.LoadDemo(t)
	ids := demo.Insert(t, eng)
	srv := ollamatest.New(t, demo.Route)
	rep, err := curate.RunTriage(ctx, st, triagetest.Triager(t, srv, filepath.Join(dir, "cache.jsonl")), curate.TriageOptions{
		Type: "milestone", BackupDir: filepath.Join(dir, "backups"), VerdictsFile: filepath.Join(dir, "verdicts.jsonl"), Seed: 7,
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ByVerdict[engine.TriageKeep] == 0 || rep.ByVerdict[engine.TriageEcho] == 0 || rep.ByVerdict[engine.TriageRoleplay] == 0 {
		t.Fatalf("the triage does not mix the verdicts: %+v", rep.ByVerdict)
	}
	before, err := st.DumpMemories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()

	code, out, errOut := runMemtrace(t, "", "--db", db, "approve", "--all-pending", "--json")
	if code != 0 {
		t.Fatalf("approve --all-pending = %d %s %s", code, out, errOut)
	}
	var ap struct {
		Batch   string
		Applied int
		Items   []curate.AppliedProposal
	}
	if err := json.Unmarshal([]byte(out), &ap); err != nil {
		t.Fatal(err)
	}
	st, err = store.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if ps, _ := st.FindProposals(ctx, engine.ProposalFilter{Status: engine.ProposalPending}); len(ps) != 0 {
		t.Fatalf("%d proposals still pending", len(ps))
	}
	kept, quarantined := 0, 0
	for key, id := range ids {
		m, _ := st.GetMemory(ctx, id)
		if demo.Route(demo.Text[key]) == "chat_triage_keep.ndjson" || key == "inject-1" {
			if m.Status != engine.StatusActive {
				t.Errorf("%s (kept) is %s", key, m.Status)
			}
			kept++
		} else {
			if m.Status != engine.StatusQuarantined {
				t.Errorf("%s (echo/roleplay) is %s", key, m.Status)
			}
			quarantined++
		}
	}
	bs := listBatches(t, db)
	if bs[0].Batch != ap.Batch || bs[0].Effect.Quarantined != quarantined || bs[0].Effect.Kept != kept {
		t.Fatalf("batch %+v, want %s with quarantined %d, kept %d", bs[0], ap.Batch, quarantined, kept)
	}
	for _, r := range mustAudit(t, st, ap.Batch) {
		if r.Action == engine.ProposalKeep && engine.ClassifyChange(r.Before, r.After) != "" {
			t.Errorf("the keep of memory %d changed it", r.MemoryID)
		}
	}
	code, out, errOut = runMemtrace(t, "", "--db", db, "rollback", ap.Batch, "--yes", "--force")
	if code != 0 || !strings.Contains(out, wording.Memories(quarantined)+" restored") {
		t.Fatalf("rollback = %d %q %q", code, out, errOut)
	}
	after, err := st.DumpMemories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Error("after the rollback the memories differ from before the approval")
	}
}

func mustAudit(t *testing.T, st *store.DB, batch string) []*engine.AuditEntry {
	t.Helper()
	rows, err := st.AuditForBatch(context.Background(), batch)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// The demo pins its clock before it ingests: every audit row, the batch and
// the heartbeat's proposals are on the pinned timeline, and the demo is one
// capture batch: 165 memories, 153 messages and the 12 further statements
// capture splits out of multi-statement messages (m0022#2, m0024#2 …).
func TestDemoWritesOnItsPinnedClock(t *testing.T) {
	ctx := context.Background()
	db := demoDB(t)
	st, err := store.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	pinned := time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC)
	if !st.Now().Equal(pinned) {
		t.Fatalf("the store's clock is %s, want the pinned %s", st.Now(), pinned)
	}
	bs := listBatches(t, db)
	if len(bs) != 1 || bs[0].Effect.Created != 165 || bs[0].Effect.Superseded != 5 || !bs[0].At.Equal(pinned) {
		t.Fatalf("demo batches: %+v", bs)
	}
	for _, r := range mustAudit(t, st, bs[0].Batch) {
		if !r.At.Equal(pinned) {
			t.Fatalf("audit row %d at %s", r.ID, r.At)
		}
	}
	ps, err := st.FindProposals(ctx, engine.ProposalFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.CreatedAt.After(pinned) {
			t.Errorf("proposal %d created at %s, after the pinned clock", p.ID, p.CreatedAt)
		}
	}
}
