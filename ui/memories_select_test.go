package ui

import (
	"strings"
	"testing"

	"memtrace/engine"
)

// space selects and moves down, V…V selects a range, x quarantines the
// selection in one batch, u undoes it whole; esc drops a selection.
func TestMemoriesSelectionActsInOneBatch(t *testing.T) {
	m, s := openMemories(t, newMemories(8), 100, 30)
	m = drive(t, m, press("space")) // #1, cursor to #2
	if p := m.memories(); !p.selected[1] || p.list.cursor != 1 {
		t.Fatalf("space: selected %v, cursor %d", p.selected, p.list.cursor)
	}
	m = drive(t, m, press("j"), press("j"), press("V"), press("j"), press("j"))
	if row := lineWith(screen(m), "┃4"); row == "" {
		t.Errorf("the range being marked is not shown:\n%s", screen(m))
	}
	m = drive(t, m, press("V"))
	if p := m.memories(); len(p.selected) != 4 || !p.selected[4] || !p.selected[6] || p.selected[2] {
		t.Fatalf("after V…V: %v", p.selected)
	}
	if !strings.Contains(screen(m), "4 selected") || lineWith(screen(m), "●5") == "" {
		t.Errorf("the selection is not shown:\n%s", screen(m))
	}
	before := len(changes(t, s))
	m = drive(t, m, press("x"))
	audit := changes(t, s)[before:]
	if len(audit) != 4 {
		t.Fatalf("x on 4 selected wrote %d audit rows", len(audit))
	}
	for _, a := range audit {
		if a.Batch != audit[0].Batch || a.Action != "quarantine" || a.After.Status != engine.StatusQuarantined {
			t.Fatalf("audit row %+v: want one quarantine batch", a)
		}
	}
	if p := m.memories(); len(p.selected) != 0 || !strings.Contains(p.status, "4 of 4 selected changed in batch "+audit[0].Batch) {
		t.Fatalf("after x: selection %v, status %q", p.selected, p.status)
	}
	m = drive(t, m, press("u"))
	for _, id := range []int64{1, 4, 5, 6} {
		if got := memory(t, s, id); got.Status != engine.StatusActive {
			t.Fatalf("undo left #%d %s", id, got.Status)
		}
	}
	m = drive(t, m, press("space"), press("esc"))
	if p := m.memories(); len(p.selected) != 0 {
		t.Fatalf("esc kept the selection %v", p.selected)
	}
}
