package ui

import (
	"fmt"

	"memtrace/inspector"
)

// The split view under two policies (the Golden tab's experiment): the
// same split that compares two times, with policy A's recall of a probe
// on the left and B's on the right (inspector.CompareTraces on B's
// fixture database). A memory B forgets and A keeps is marked on the left
// "kept · B ✗", listed on the right as ✗ forgotten, and in "forgotten
// under B" with why.

// PolicySplit opens the Trace tab's split on two policies' recalls of one
// probe: A and B name them, Cmp compares A's trace with B's.
type PolicySplit struct {
	A, B string
	Cmp  *inspector.Comparison
}

// openPolicySplit shows ps in the split view (the trace shown is B's).
func (p tracePane) openPolicySplit(ps *PolicySplit) tracePane {
	p.pol, p.cmp, p.split = ps, ps.Cmp, true
	p.splitScroll = detailScroll{}
	return p
}

// splitTitles are the split's column titles, the words after "forgotten"
// and "left" (by), after "recognised" (at), and what the forgotten count
// counts.
func (p tracePane) splitTitles(m splitModel) (left, right, by, at, note string) {
	if p.pol != nil {
		b := "under B (" + p.pol.B + ")"
		return "A · " + p.pol.A + " · " + m.AtNow, "B · " + p.pol.B + " · " + m.AtLater, b, b,
			"survivors under A, forgotten under B only"
	}
	label := p.override.label()
	return "now · " + m.AtNow, label + " · " + m.AtLater, "by " + label, "at " + label,
		"survivors now, forgotten then; as memtrace compare counts"
}

// withForgottenLater adds the memories forgotten on the right side to its
// rows, unranked, so the right column names them as forgotten there.
func (m splitModel) withForgottenLater() splitModel {
	later := append([]splitRow{}, m.Later...)
	for _, ch := range m.Forgotten {
		later = append(later, splitRow{ID: ch.ID, Key: ch.Key, Text: ch.Text, Mark: markForgotten, Superseded: ch.SupersededBy != 0})
	}
	m.Later = later
	return m
}

// splitMark is a row's mark: markText, but under two policies a survivor
// of A forgotten under B says so on the left.
func (p tracePane) splitMark(r splitRow, later bool) string {
	if p.pol != nil && !later && r.Mark == markForgotten && !r.Superseded {
		return "kept · B ✗"
	}
	return markText(r, later)
}

// rankCell is a rank, "—" for a row without one (forgotten on its side).
func rankCell(rank int) string {
	if rank == 0 {
		return "—"
	}
	return fmt.Sprint(rank)
}
