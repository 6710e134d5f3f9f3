package ui

import (
	"context"
	"strings"
	"testing"

	"memtrace/curate"
	"memtrace/engine"
)

// The Curate tab's history lists a policy batch with the keys it set, and
// u rolls it back after the dialog: the policy before it is back exactly,
// and the rollback is listed too.
func TestCurateHistoryListsPolicyBatches(t *testing.T) {
	m, db, _, _ := curateListsFixture(t, 120, 40)
	ctx := context.Background()
	before, _ := db.GetSetting(ctx, curate.SettingPolicy)
	batch, err := curate.SetPolicy(ctx, db, "recall:\n  k: 6\n", engine.ActorCurator, testNow)
	if err != nil {
		t.Fatal(err)
	}
	m = drive(t, m, press("R"), press("H")) // R: the history as the database has it now
	rows := m.curate().hist.list.rows
	if len(rows) == 0 || rows[0].Batch != batch {
		t.Fatalf("the newest history row is not the policy batch %s:\n%s", batch, screen(m))
	}
	if v := screen(m); !strings.Contains(v, "policy: recall.k: 8 → 6") || !strings.Contains(v, "policy · u undoes") {
		t.Fatalf("the policy batch's row:\n%s", v)
	}
	m = drive(t, m, press("u"))
	if m.curate().dlg == nil || !strings.Contains(screen(m), batch) {
		t.Fatalf("u on the policy batch:\n%s", screen(m))
	}
	m = drive(t, m, press("y"))
	if got, _ := db.GetSetting(ctx, curate.SettingPolicy); got != before {
		t.Fatalf("after the rollback the policy is %q, want %q\n%s", got, before, screen(m))
	}
	if !strings.Contains(m.curate().status, "rolled back policy batch "+batch) || !strings.Contains(m.curate().status, "no memory changed") {
		t.Fatalf("status after the rollback: %q", m.curate().status)
	}
	if m.curate().mode != modeHistory {
		m = drive(t, m, press("H"))
	}
	rows = m.curate().hist.list.rows
	if len(rows) < 2 || rows[0].RollbackOf != batch || rows[0].Kind != engine.BatchRollback || !rows[0].At.Equal(testNow) ||
		rows[1].Batch != batch || !rows[1].RolledBack {
		t.Fatalf("the history after the rollback: %+v\n%s", rows, screen(m))
	}
	if v := screen(m); !strings.Contains(v, "policy undone: ") || !strings.Contains(v, "rolled back") {
		t.Fatalf("the history after the rollback:\n%s", v)
	}
}
