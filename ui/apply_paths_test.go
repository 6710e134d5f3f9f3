package ui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/store"
	"memtrace/ui"
)

// applyPathClock pins every database of the test: the CLI, the engine and
// the UI write on one timeline.
const applyPathClock = "2026-06-01T09:00:00Z"

// conflictFixture is one database with conflicting proposals on one memory
// each: approve names the proposals the curator approves; the others are
// what each approval makes moot (or, for the keep beside an archive, does
// not).
type conflictFixture struct {
	path     string
	memories map[string]int64 // by name
	props    map[string]int64 // by name
	approve  []int64
}

// newConflictFixture writes the database of the test to a fresh file:
//
//	quarantine+archive   approve the quarantine: the archive is moot
//	demote+retype        approve the demote: the retype is moot
//	quarantine+keep      approve the quarantine: the keep is moot
//	restore+retype       approve the restore of a quarantined memory: the retype is moot
//	archive+keep         approve the archive: the keep does not conflict and stays pending
func newConflictFixture(t *testing.T) *conflictFixture {
	t.Helper()
	ctx := context.Background()
	f := &conflictFixture{path: filepath.Join(t.TempDir(), "m.db"), memories: map[string]int64{}, props: map[string]int64{}}
	db, err := store.Open(ctx, f.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.SetSetting(ctx, engine.SettingClock, applyPathClock); err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open(ctx, engine.Options{Store: db, Now: db.Now})
	if err != nil {
		t.Fatal(err)
	}
	add := func(name, text string, tier engine.Tier, status engine.Status) int64 {
		m := &engine.Memory{Key: name, Content: text, Kind: engine.KindFact, Type: "note", Tier: tier, Scope: engine.ScopeGlobal,
			Status: status, Importance: 0.5, CreatedAt: db.Now(), LastAccessedAt: db.Now()}
		if status == engine.StatusQuarantined {
			m.OrigType = "note"
		}
		if err := e.AddMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
		f.memories[name] = m.ID
		return m.ID
	}
	propose := func(name, kind, proposer string, memory int64, target string, approve bool) {
		p := &engine.Proposal{Kind: kind, MemoryID: memory, TargetType: target, Proposer: proposer, Status: engine.ProposalPending,
			Confidence: 1, Reason: name}
		if err := e.Update(ctx, func(q engine.Queries) error { return q.InsertProposal(ctx, p) }); err != nil {
			t.Fatal(err)
		}
		f.props[name] = p.ID
		if approve {
			f.approve = append(f.approve, p.ID)
		}
	}
	m := add("quarantine+archive", "The build is green again after the flaky test fix.", engine.TierWarm, engine.StatusActive)
	propose("quarantine", engine.ProposalQuarantine, engine.ProposerRule, m, "", true)
	propose("archive", engine.ProposalArchive, engine.ProposerHeartbeat, m, "", false)
	m = add("demote+retype", "Always run the linters before pushing a branch.", engine.TierHot, engine.StatusActive)
	propose("demote", engine.ProposalDemote, engine.ProposerHeartbeat, m, string(engine.TierWarm), true)
	propose("retype", engine.ProposalRetype, engine.ProposerCurator, m, "rule", false)
	m = add("quarantine+keep", "Okay, sounds good to me, let us do that then.", engine.TierWarm, engine.StatusActive)
	propose("quarantine 2", engine.ProposalQuarantine, engine.ProposerRule, m, "", true)
	propose("keep", engine.ProposalKeep, engine.ProposerJudge, m, "", false)
	m = add("restore+retype", "My sister Jiwoo lives in Daejeon and works as a veterinarian.", engine.TierWarm, engine.StatusQuarantined)
	propose("restore", engine.ProposalRestore, engine.ProposerCurator, m, "", true)
	propose("retype 2", engine.ProposalRetype, engine.ProposerCurator, m, "preference", false)
	m = add("archive+keep", "We met at the Gwangjang market for lunch last spring.", engine.TierWarm, engine.StatusActive)
	propose("archive 2", engine.ProposalArchive, engine.ProposerHeartbeat, m, "", true)
	propose("keep 2", engine.ProposalKeep, engine.ProposerJudge, m, "", false)
	return f
}

// applyOutcome is what one way of applying left: each proposal's status,
// each memory's status/tier/type, and the batch the proposals of the
// approval carry.
type applyOutcome struct {
	Proposals   map[string]string
	WithdrawnBy map[string]string // withdrawn proposal → the one that made it moot
	Memories    map[string]string
	Batch       string
}

func (f *conflictFixture) outcome(t *testing.T) applyOutcome {
	t.Helper()
	out := applyOutcome{Proposals: map[string]string{}, WithdrawnBy: map[string]string{}, Memories: map[string]string{}}
	f.withEngine(t, func(db *store.DB, _ *engine.Engine) {
		ctx := context.Background()
		names := map[int64]string{}
		for name, id := range f.props {
			names[id] = name
		}
		for name, id := range f.props {
			p, err := db.GetProposal(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			out.Proposals[name] = p.Status
			if p.WithdrawnBy != 0 {
				out.WithdrawnBy[name] = names[p.WithdrawnBy]
			}
			if p.Status == engine.ProposalApplied || p.Status == curate.ProposalWithdrawn {
				if out.Batch != "" && out.Batch != p.Batch {
					t.Errorf("proposal %s is in batch %s, another of the approval in %s", name, p.Batch, out.Batch)
				}
				out.Batch = p.Batch
			}
		}
		for name, id := range f.memories {
			m, err := db.GetMemory(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			out.Memories[name] = fmt.Sprintf("%s/%s/%s", m.Status, m.Tier, m.Type)
		}
	})
	return out
}

// withEngine opens the fixture's database with an engine for fn.
func (f *conflictFixture) withEngine(t *testing.T, fn func(db *store.DB, e *engine.Engine)) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, f.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e, err := engine.Open(ctx, engine.Options{Store: db, Now: db.Now})
	if err != nil {
		t.Fatal(err)
	}
	fn(db, e)
}

func idArgs(ps []int64) []string {
	var out []string
	for _, id := range ps {
		out = append(out, fmt.Sprint(id))
	}
	return out
}

// The proposals a curator approves end in the same statuses, and their
// memories in the same state, whichever way they are applied: `memtrace
// approve` (curate.ApproveProposals, and the CLI command), the Curate tab's
// a then P, and `memtrace apply --approved` after an approval. Each way
// withdraws the proposals the approval makes moot, in the approval's
// batch, and a rollback of that batch makes them pending again.
func TestEveryApplyPathWithdrawsTheSameMootProposals(t *testing.T) {
	ctx := context.Background()
	paths := []struct {
		name  string
		apply func(t *testing.T, f *conflictFixture)
	}{
		{"curate.ApproveProposals", func(t *testing.T, f *conflictFixture) {
			f.withEngine(t, func(_ *store.DB, e *engine.Engine) {
				if _, err := curate.ApproveProposals(ctx, e, f.approve, curate.ApproveOptions{}); err != nil {
					t.Fatal(err)
				}
			})
		}},
		{"memtrace approve", func(t *testing.T, f *conflictFixture) {
			runCLI(t, append([]string{"--db", f.path, "approve"}, idArgs(f.approve)...)...)
		}},
		{"Curate tab a, P", func(t *testing.T, f *conflictFixture) {
			f.withEngine(t, func(db *store.DB, e *engine.Engine) {
				status := ui.ApproveThenApplyForTest(t, ui.Deps{Engine: e, Store: db, Now: db.Now}, f.approve...)
				if !strings.Contains(status, "applied") {
					t.Fatalf("the Curate tab's apply says %q", status)
				}
			})
		}},
		{"memtrace apply --approved", func(t *testing.T, f *conflictFixture) {
			f.withEngine(t, func(db *store.DB, _ *engine.Engine) {
				if _, err := curate.DecideProposals(ctx, db, f.approve, engine.ProposalApproved, engine.ActorCurator, db.Now()); err != nil {
					t.Fatal(err)
				}
			})
			var rep struct {
				Batch   string `json:"batch"`
				Applied int    `json:"applied"`
			}
			if err := json.Unmarshal([]byte(runCLI(t, "--db", f.path, "apply", "--approved", "--json")), &rep); err != nil || rep.Batch == "" {
				t.Fatalf("apply --json = %+v, %v", rep, err)
			}
		}},
	}
	want := applyOutcome{
		Proposals: map[string]string{
			"quarantine": engine.ProposalApplied, "archive": curate.ProposalWithdrawn,
			"demote": engine.ProposalApplied, "retype": curate.ProposalWithdrawn,
			"quarantine 2": engine.ProposalApplied, "keep": curate.ProposalWithdrawn,
			"restore": engine.ProposalApplied, "retype 2": curate.ProposalWithdrawn,
			"archive 2": engine.ProposalApplied, "keep 2": engine.ProposalPending,
		},
		WithdrawnBy: map[string]string{"archive": "quarantine", "retype": "demote", "keep": "quarantine 2", "retype 2": "restore"},
		Memories: map[string]string{
			"quarantine+archive": "quarantined/warm/note",
			"demote+retype":      "active/warm/note",
			"quarantine+keep":    "quarantined/warm/note",
			"restore+retype":     "active/warm/note",
			"archive+keep":       "archived/cold/note",
		},
	}
	outcomes := map[string]applyOutcome{}
	for _, path := range paths {
		t.Run(strings.ReplaceAll(path.name, " ", "_"), func(t *testing.T) {
			f := newConflictFixture(t)
			path.apply(t, f)
			got := f.outcome(t)
			outcomes[path.name] = got
			if got.Batch == "" {
				t.Fatal("no proposal carries the approval's batch")
			}
			want.Batch = got.Batch
			if !reflect.DeepEqual(got, want) {
				t.Errorf("after %s:\n got  %v\n want %v", path.name, got, want)
			}
			// Undo: the withdrawn proposals are pending again, the applied
			// ones rolled back, the memories as they were.
			f.withEngine(t, func(db *store.DB, _ *engine.Engine) {
				if _, err := curate.RollbackApplied(ctx, db, got.Batch, engine.ActorCurator); err != nil {
					t.Fatal(err)
				}
			})
			undone := f.outcome(t)
			for name, status := range undone.Proposals {
				w := engine.ProposalPending
				if slices.Contains(f.approve, f.props[name]) {
					w = engine.ProposalRolledBack
				}
				if status != w {
					t.Errorf("after the rollback of %s, proposal %s is %s, want %s", path.name, name, status, w)
				}
			}
			if len(undone.WithdrawnBy) != 0 {
				t.Errorf("after the rollback of %s proposals still say what withdrew them: %v", path.name, undone.WithdrawnBy)
			}
			if undone.Memories["quarantine+archive"] != "active/warm/note" || undone.Memories["restore+retype"] != "quarantined/warm/note" {
				t.Errorf("after the rollback of %s the memories are %v", path.name, undone.Memories)
			}
		})
	}
	names := slices.Sorted(maps.Keys(outcomes))
	for _, n := range names[1:] {
		a, b := outcomes[names[0]], outcomes[n]
		a.Batch, b.Batch = "", ""
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s and %s disagree:\n %v\n %v", names[0], n, a, b)
		}
	}
}
