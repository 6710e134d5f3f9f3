package curate_test

import (
	"bufio"
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/ollamatest"
	"memtrace/internal/testdata/storetest"
	"memtrace/internal/testdata/triagetest"
	"memtrace/ollama"
	"memtrace/store"
)

type triageFixture struct {
	db    *store.DB
	e     *engine.Engine
	demo  triagetest.Demo
	ids   map[string]int64
	srv   *ollamatest.Server
	dir   string
	cache string
}

func newTriageFixture(t *testing.T) *triageFixture {
	t.Helper()
	ctx := context.Background()
	f := &triageFixture{db: storetest.MustOpen(t), demo: triagetest.LoadDemo(t), dir: t.TempDir()}
	e, err := engine.Open(ctx, engine.Options{Store: f.db})
	if err != nil {
		t.Fatal(err)
	}
	f.e = e
	f.ids = f.demo.Insert(t, e)
	f.srv = ollamatest.New(t, f.demo.Route)
	f.cache = filepath.Join(f.dir, "cache.jsonl")
	return f
}

func (f *triageFixture) triage(t *testing.T, sample int) *curate.TriageReport {
	t.Helper()
	rep, err := curate.RunTriage(context.Background(), f.db, triagetest.Triager(t, f.srv, f.cache), curate.TriageOptions{
		Type: "milestone", BackupDir: filepath.Join(f.dir, "backups"), VerdictsFile: filepath.Join(f.dir, "verdicts.jsonl"),
		SampleSize: sample, Seed: 7,
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func (f *triageFixture) keyOf(id int64) string {
	for k, v := range f.ids {
		if v == id {
			return k
		}
	}
	return ""
}

// labelControl gives every control item the curator's true label.
func (f *triageFixture) labelControl(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	ps, err := f.db.FindProposals(ctx, engine.ProposalFilter{Proposer: engine.ProposerJudge})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if pv, ok := curate.ParseProposalVerdict(p); ok && pv.Control {
			if err := curate.LabelControl(ctx, f.db, p.ID, f.demo.Truth(f.keyOf(p.MemoryID))); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func (f *triageFixture) approveAll(t *testing.T) int {
	t.Helper()
	ctx := context.Background()
	ps, err := f.db.FindProposals(ctx, engine.ProposalFilter{Status: engine.ProposalPending})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, p := range ps {
		ids = append(ids, p.ID)
	}
	n, err := curate.DecideProposals(ctx, f.db, ids, engine.ProposalApproved, "curator", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestTriageApproveApplyRollbackRestoresTheBackup(t *testing.T) {
	ctx := context.Background()
	f := newTriageFixture(t)
	total := len(f.demo.Text)
	rep := f.triage(t, 10)

	// Every milestone judged, none by keyword; the backup came first.
	if rep.Judged != total || rep.NeedsReview != 0 {
		t.Fatalf("judged %d (needs review %d), want %d", rep.Judged, rep.NeedsReview, total)
	}
	if f.srv.Chats() != total {
		t.Errorf("the judge was asked %d times for %d items", f.srv.Chats(), total)
	}
	wantKeep := len(f.demo.Genuine) + 1 // the compromised judge keeps the injection
	if rep.ByVerdict["keep"] != wantKeep || rep.ByVerdict["echo"]+rep.ByVerdict["roleplay_scene"] != total-wantKeep {
		t.Errorf("by verdict %v", rep.ByVerdict)
	}
	if rep.Backup == nil || rep.Backup.Memories != total || len(rep.Backup.DumpSHA256) != 64 {
		t.Fatalf("backup %+v", rep.Backup)
	}
	vs, err := curate.ReadVerdictFile(rep.VerdictsFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != total {
		t.Fatalf("verdict file has %d lines", len(vs))
	}
	for _, v := range vs {
		if v.Model != ollamatest.Model || v.Digest == "" || v.PromptHash == "" || v.InputHash == "" {
			t.Errorf("verdict of memory %d is not pinned: %+v", v.MemoryID, v)
		}
	}

	// The injection carries its flag on the proposal.
	ps, err := f.db.FindProposals(ctx, engine.ProposalFilter{MemoryID: f.ids["inject-1"]})
	if err != nil || len(ps) != 1 {
		t.Fatalf("injection proposals %v %v", ps, err)
	}
	if pv, _ := curate.ParseProposalVerdict(ps[0]); ps[0].Kind != engine.ProposalKeep || !pv.HasFlag(engine.FlagInjectionAttempt) {
		t.Errorf("injection proposal kind %s flags %v", ps[0].Kind, pv.Flags)
	}

	// Approval waits for the blind control sample.
	if _, err := curate.DecideProposals(ctx, f.db, []int64{ps[0].ID}, engine.ProposalApproved, "curator", time.Now()); engine.ErrorCode(err) != engine.ECONFLICT {
		t.Fatalf("approve before the control sample: %v", err)
	}
	f.labelControl(t)
	all, _ := f.db.FindProposals(ctx, engine.ProposalFilter{})
	stats := curate.ComputeControlStats(all)
	if stats.Sample != 10 || !stats.Done() {
		t.Fatalf("stats %+v", stats)
	}
	wantFalseKeeps := 0
	for _, p := range stats.Pairs {
		if f.keyOf(p.MemoryID) == "inject-1" {
			wantFalseKeeps = 1
		}
	}
	if stats.FalseKeeps != wantFalseKeeps || stats.FalseQuarantines != 0 || stats.Agree != 10-wantFalseKeeps {
		t.Errorf("stats %+v, want %d false keeps", stats, wantFalseKeeps)
	}

	before, err := os.ReadFile(rep.Backup.Dump)
	if err != nil {
		t.Fatal(err)
	}
	f.approveAll(t)
	ap, err := curate.Apply(ctx, f.e, curate.ApplyOptions{Batch: "b1"})
	if err != nil {
		t.Fatal(err)
	}
	quarantined := total - wantKeep
	if ap.Applied != quarantined || ap.Confirmed != wantKeep {
		t.Fatalf("applied %d confirmed %d", ap.Applied, ap.Confirmed)
	}
	for key, id := range f.ids {
		m, _ := f.e.Memory(id)
		wantQ := !f.demo.Genuine[key] && key != "inject-1"
		if (m.Status == engine.StatusQuarantined) != wantQ || (wantQ && m.OrigType != "milestone") {
			t.Errorf("%s: status %s orig_type %q", key, m.Status, m.OrigType)
		}
	}
	rb, err := curate.RollbackApplied(ctx, f.db, "b1", "curator")
	if err != nil {
		t.Fatal(err)
	}
	if rb.Restored != quarantined {
		t.Errorf("restored %d", rb.Restored)
	}
	after, err := f.db.DumpMemories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("after rollback the memories differ from the backup dump")
	}
	left, _ := f.db.FindProposals(ctx, engine.ProposalFilter{Batch: "b1"})
	for _, p := range left {
		if p.Status != engine.ProposalRolledBack {
			t.Errorf("proposal %d is %s after rollback", p.ID, p.Status)
		}
	}

	// A rerun resumes from the judge cache: nothing is asked again.
	asked := f.srv.Chats()
	rep2 := f.triage(t, 10)
	if rep2.Cached != total || f.srv.Chats() != asked {
		t.Errorf("rerun: %d cached, %d new requests", rep2.Cached, f.srv.Chats()-asked)
	}
}

func TestTriageNamesHostAndModelWhenOllamaCannotAnswer(t *testing.T) {
	f := newTriageFixture(t)
	run := func(tr engine.Triager) error {
		_, err := curate.RunTriage(context.Background(), f.db, tr, curate.TriageOptions{Type: "milestone",
			BackupDir: filepath.Join(f.dir, "b"), VerdictsFile: filepath.Join(f.dir, "v.jsonl")})
		return err
	}
	cache, err := ollama.NewFileCache(filepath.Join(f.dir, "c2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	missing := ollama.NewTriager(ollama.NewClient(ollama.ClientConfig{Host: f.srv.URL(), Timeout: 5 * time.Second}),
		ollama.Options{Model: "llama9:70b", Cache: cache})
	msg := engine.ErrorMessage(run(missing))
	for _, want := range []string{"llama9:70b", f.srv.URL().String(), "ollama pull llama9:70b"} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing model: %q lacks %q", msg, want)
		}
	}
	down, _ := url.Parse("http://127.0.0.1:1")
	gone := ollama.NewTriager(ollama.NewClient(ollama.ClientConfig{Host: down, Timeout: 5 * time.Second}),
		ollama.Options{Model: ollamatest.Model, Cache: cache})
	msg = engine.ErrorMessage(run(gone))
	for _, want := range []string{"127.0.0.1:1", ollamatest.Model, "ollama serve"} {
		if !strings.Contains(msg, want) {
			t.Errorf("server down: %q lacks %q", msg, want)
		}
	}
	if ps, _ := f.db.FindProposals(context.Background(), engine.ProposalFilter{}); len(ps) != 0 {
		t.Errorf("a failed triage left %d proposals", len(ps))
	}
}

// TestApplyCrashLeavesTheDatabaseAsBefore kills (SIGKILL) a process in the
// middle of the apply transaction and checks nothing of it remains.
func TestApplyCrashLeavesTheDatabaseAsBefore(t *testing.T) {
	ctx := context.Background()
	f := newTriageFixture(t)
	f.triage(t, 5)
	f.labelControl(t)
	f.approveAll(t)
	before, err := f.db.DumpMemories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ready := filepath.Join(f.dir, "ready")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestApplyCrashChild$")
	cmd.Env = append(os.Environ(), "MEMTRACE_APPLY_CHILD_DB="+f.db.Path(), "MEMTRACE_APPLY_CHILD_READY="+ready)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child never reached the middle of apply")
		}
		time.Sleep(10 * time.Millisecond)
	}
	n, _ := os.ReadFile(ready)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if got, _ := strconv.Atoi(strings.TrimSpace(string(n))); got != 5 {
		t.Fatalf("child stopped after %q updates", n)
	}
	db := storetest.MustOpenPath(t, f.db.Path(), time.Now)
	after, err := db.DumpMemories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Error("a killed apply left changes in the memories")
	}
	if rows, _ := db.AuditForBatch(ctx, "crash"); len(rows) != 0 {
		t.Errorf("%d audit rows of the killed batch", len(rows))
	}
	ps, _ := db.FindProposals(ctx, engine.ProposalFilter{Status: engine.ProposalApproved})
	if len(ps) != len(f.demo.Text) {
		t.Errorf("%d approved proposals after the crash, want %d", len(ps), len(f.demo.Text))
	}
}

// TestApplyCrashChild is the process TestApplyCrashLeavesTheDatabaseAsBefore
// kills: it applies, and after 5 updates says so and waits to die.
func TestApplyCrashChild(t *testing.T) {
	path := os.Getenv("MEMTRACE_APPLY_CHILD_DB")
	if path == "" {
		t.Skip("runs only as the child of TestApplyCrashLeavesTheDatabaseAsBefore")
	}
	ctx := context.Background()
	db, err := store.Open(ctx, path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open(ctx, engine.Options{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	curate.Apply(ctx, e, curate.ApplyOptions{Batch: "crash", AfterEach: func(n int) {
		if n == 5 {
			w, _ := os.Create(os.Getenv("MEMTRACE_APPLY_CHILD_READY") + ".tmp")
			bw := bufio.NewWriter(w)
			bw.WriteString(strconv.Itoa(n))
			bw.Flush()
			w.Close()
			os.Rename(os.Getenv("MEMTRACE_APPLY_CHILD_READY")+".tmp", os.Getenv("MEMTRACE_APPLY_CHILD_READY"))
			time.Sleep(time.Hour) // blocked inside the transaction until killed
		}
	}})
	t.Fatal("the apply was not killed")
}

// TestRollbackCrashLeavesTheBatchApplied kills (SIGKILL) a process after a
// rollback has restored the memories and before it marked the proposals:
// the one transaction leaves everything as the apply left it, and the
// rollback then runs to completion.
func TestRollbackCrashLeavesTheBatchApplied(t *testing.T) {
	ctx := context.Background()
	f := newTriageFixture(t)
	f.triage(t, 5)
	f.labelControl(t)
	f.approveAll(t)
	beforeApply, err := f.db.DumpMemories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := curate.Apply(ctx, f.e, curate.ApplyOptions{Batch: "to-undo"})
	if err != nil || rep.Applied == 0 {
		t.Fatalf("apply: %+v %v", rep, err)
	}
	applied, err := f.db.DumpMemories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ready := filepath.Join(f.dir, "ready")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestRollbackCrashChild$")
	cmd.Env = append(os.Environ(), "MEMTRACE_ROLLBACK_CHILD_DB="+f.db.Path(), "MEMTRACE_ROLLBACK_CHILD_READY="+ready)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child never reached the middle of the rollback")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	db := storetest.MustOpenPath(t, f.db.Path(), time.Now)
	after, err := db.DumpMemories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(applied) {
		t.Error("a killed rollback left changes in the memories")
	}
	if rows, _ := db.AuditForBatch(ctx, "rollback:to-undo"); len(rows) != 0 {
		t.Errorf("%d audit rows of the killed rollback", len(rows))
	}
	if ps, _ := db.FindProposals(ctx, engine.ProposalFilter{Batch: "to-undo", Status: engine.ProposalApplied}); len(ps) != len(f.demo.Text) {
		t.Errorf("%d applied proposals after the killed rollback, want %d", len(ps), len(f.demo.Text))
	}
	rb, err := curate.RollbackApplied(ctx, db, "to-undo", "curator")
	if err != nil || rb.Restored != rep.Applied || rb.Repaired {
		t.Fatalf("rollback after the crash: %+v %v", rb, err)
	}
	restored, _ := db.DumpMemories(ctx)
	if string(restored) != string(beforeApply) {
		t.Error("the rollback after the crash did not restore the memories")
	}
}

// TestRollbackCrashChild is the process TestRollbackCrashLeavesTheBatchApplied
// kills: it rolls back, and once the memories are restored inside the
// transaction says so and waits to die.
func TestRollbackCrashChild(t *testing.T) {
	path := os.Getenv("MEMTRACE_ROLLBACK_CHILD_DB")
	if path == "" {
		t.Skip("runs only as the child of TestRollbackCrashLeavesTheBatchApplied")
	}
	ctx := context.Background()
	db, err := store.Open(ctx, path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	curate.Rollback(ctx, db, curate.RollbackOptions{Batch: "to-undo", AfterRestore: func() {
		ready := os.Getenv("MEMTRACE_ROLLBACK_CHILD_READY")
		os.WriteFile(ready+".tmp", []byte("restored"), 0o644)
		os.Rename(ready+".tmp", ready)
		time.Sleep(time.Hour) // blocked inside the transaction until killed
	}})
	t.Fatal("the rollback was not killed")
}

// A database written by an older memtrace can hold a rollback interrupted
// between its two transactions: memories restored, proposals still
// applied. Rolling the batch back again finishes it and says so, restoring
// nothing twice.
func TestRollbackFinishesAnInterruptedOldRollback(t *testing.T) {
	ctx := context.Background()
	f := newTriageFixture(t)
	f.triage(t, 5)
	f.labelControl(t)
	f.approveAll(t)
	if _, err := curate.Apply(ctx, f.e, curate.ApplyOptions{Batch: "old"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.RollbackBatch(ctx, "old", "curator"); err != nil { // the first step only
		t.Fatal(err)
	}
	rb, err := curate.RollbackApplied(ctx, f.db, "old", "curator")
	if err != nil || !rb.Repaired || rb.Restored != 0 || rb.Proposals != len(f.demo.Text) {
		t.Fatalf("finishing the rollback: %+v %v", rb, err)
	}
	if ps, _ := f.db.FindProposals(ctx, engine.ProposalFilter{Batch: "old", Status: engine.ProposalApplied}); len(ps) != 0 {
		t.Errorf("%d proposals still applied", len(ps))
	}
	if _, err := curate.RollbackApplied(ctx, f.db, "old", "curator"); engine.ErrorCode(err) != engine.ECONFLICT {
		t.Errorf("a third rollback: %v, want a conflict", err)
	}
}
