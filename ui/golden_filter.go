package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"memtrace/golden"
)

// The Golden tab's "/" filter: result (the verdict), change (against the
// baseline) and words of the probe id or its query. The bar sits above the
// status line, so the list keeps its rows and clicks their places; n/N and
// the list keys move among the rows it lets through.

// goldenResults are the values result: knows; "notrun" is a probe no run
// or baseline has a verdict for.
var goldenResults = []string{"pass", "fail", "error", "missing", "notrun"}

func goldenQuery() rowQuery[goldenRow] {
	return rowQuery[goldenRow]{
		Fields: []filterField[goldenRow]{
			{Name: "result", Values: goldenResults, Match: func(r goldenRow, v string) bool {
				got := strings.Trim(strings.ToLower(r.verdict()), "()")
				if got == "·" {
					got = "notrun"
				}
				return got == v
			}},
			{Name: "change", Values: []string{string(golden.ChangeBroke), string(golden.ChangeFixed), string(golden.ChangeMissing), string(golden.ChangeNew), string(golden.ChangeSame)},
				Match: func(r goldenRow, v string) bool { return r.Change != nil && string(r.Change.Change) == v }},
		},
		Text: func(r goldenRow) string { return r.ID + " " + r.Query },
	}
}

// filterKey edits the filter; the rows follow each keystroke.
func (p goldenPane) filterKey(msg tea.KeyPressMsg) (goldenPane, tea.Cmd) {
	changed, cmd := p.filter.key(msg)
	if changed {
		p.refilter()
	}
	return p, cmd
}

// refilter parses the filter and rebuilds the rows with it.
func (p *goldenPane) refilter() {
	p.match, p.filter.problem = goldenQuery().parse(p.filter.input.Value())
	p.probes = p.probes.reset()
	p.rebuild()
}

// filterLines is the bar when a filter is typed or set.
func (p goldenPane) filterLines() []string {
	if !p.filter.active() {
		return nil
	}
	return []string{p.filter.view(p.c, p.width)}
}
