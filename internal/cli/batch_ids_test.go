package cli

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"memtrace/engine"
)

// activeStates maps every memory of db to its status.
func activeStates(t *testing.T, db string) map[int64]engine.Status {
	t.Helper()
	eng, _, closeDB, err := openEngineAt(context.Background(), db, true, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	out := map[int64]engine.Status{}
	v := eng.View()
	defer v.Close()
	for _, id := range v.IDs() {
		out[id] = v.Memory(id).Status
	}
	return out
}

// Issue 32: `memtrace add` writes under a batch the store issues, listed by
// `batches` and undone by `rollback`, which leaves every memory as it was
// before the add (the added one quarantined: nothing is hard-deleted).
func TestAddThenRollbackRestoresTheStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memtrace.db")
	if code, _, errOut := runMemtrace(t, storable("a", 3), "--db", db, "ingest", "-"); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	before := activeStates(t, db)
	code, out, errOut := runMemtrace(t, "", "--db", db, "add", "--type", "preference", "우리 팀은 금요일마다 배포하지 않아요 — we never deploy on Fridays.")
	if code != 0 {
		t.Fatalf("add: exit %d: %s", code, errOut)
	}
	m := regexp.MustCompile(`in batch (add-\S+)\nundo with: memtrace rollback (add-\S+)\n`).FindStringSubmatch(out)
	if m == nil || m[1] != m[2] {
		t.Fatalf("add does not name its batch and how to undo it:\n%s", out)
	}
	batch := m[1]
	var listed *engine.BatchInfo
	for _, b := range listBatches(t, db) {
		if b.Batch == batch {
			listed = &b
		}
	}
	if listed == nil || listed.Kind != engine.BatchAdd || listed.Effect.Created != 1 || !listed.CanRollback {
		t.Fatalf("batches lists the add as %+v, want kind add, 1 created, can roll back", listed)
	}
	after := activeStates(t, db)
	if len(after) != len(before)+1 {
		t.Fatalf("add left %d memories, want %d", len(after), len(before)+1)
	}
	if code, out, errOut := runMemtrace(t, "", "--db", db, "rollback", "--yes", batch); code != 0 {
		t.Fatalf("rollback %s: exit %d: %s%s", batch, code, out, errOut)
	}
	restored := activeStates(t, db)
	for id, st := range restored {
		want, existed := before[id]
		switch {
		case existed && st != want:
			t.Errorf("memory %d is %s after the rollback, %s before the add", id, st, want)
		case !existed && st != engine.StatusQuarantined:
			t.Errorf("the added memory %d is %s after the rollback, want quarantined", id, st)
		}
	}
	// A second rollback of the same batch is refused.
	if code, _, errOut := runMemtrace(t, "", "--db", db, "rollback", "--yes", batch); code == 0 || !strings.Contains(errOut, "already rolled back") {
		t.Fatalf("second rollback: exit %d: %s", code, errOut)
	}
}

// Issue 32: `apply --batch ID` with an id of the store's own form (which
// the store's counter would hand to a later batch) is refused with a
// message that says what to do; an id of the caller's own naming that
// already exists is refused too.
func TestApplyRefusesABatchIDTheStoreCouldIssue(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memtrace.db")
	if code, _, errOut := runMemtrace(t, storable("b", 2), "--db", db, "ingest", "-"); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	issued := listBatches(t, db)[0].Batch // the ingest's capture batch
	future := regexp.MustCompile(`-\d+$`).ReplaceAllString(issued, "-99")
	for _, id := range []string{future, "approve-20260701T090000Z-2", "rollback:" + issued} {
		code, out, errOut := runMemtrace(t, "", "--db", db, "apply", "--approved", "--batch", id)
		if code == 0 {
			t.Fatalf("apply --batch %s: accepted:\n%s", id, out)
		}
		if !strings.Contains(errOut, "form of the ids memtrace issues") || !strings.Contains(errOut, "leave --batch out") {
			t.Fatalf("apply --batch %s: the message does not say why or what to do: %s", id, errOut)
		}
	}
	if !engine.StoreBatchForm(issued) {
		t.Fatalf("the store issued %q, which StoreBatchForm does not recognise", issued)
	}
	for _, own := range []string{"cleanup-2026-q1", "b1", "to-undo", "apply-now"} {
		if engine.StoreBatchForm(own) {
			t.Errorf("StoreBatchForm(%q) = true, want false (a name of the caller's own)", own)
		}
	}
}
