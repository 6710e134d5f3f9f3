package ui

import "memtrace/golden"

// rebuild recomputes the diff and the rows after the set, the baseline or
// the run changed, keeping the cursor on the same probe.
func (p *goldenPane) rebuild() {
	p.diff = nil
	if p.base != nil && p.run != nil {
		p.diff = golden.Diff(p.base, p.run)
	}
	p.probes = p.probes.setRows(filterRows(goldenRows(p.set, p.base, p.run, p.diff), p.match))
	p.probes = p.probes.measured(p.measureDetail())
}

// goldenRows lists the run's probes in order (then baseline probes the run
// lacks), or before a run the set's probes.
func goldenRows(set *golden.Set, base, run *golden.RunResult, diff *golden.RunDiff) []goldenRow {
	byID := func(r *golden.RunResult) map[string]*golden.ProbeResult {
		m := map[string]*golden.ProbeResult{}
		if r != nil {
			for i := range r.Probes {
				m[r.Probes[i].ID] = &r.Probes[i]
			}
		}
		return m
	}
	was, now := byID(base), byID(run)
	probes := map[string]*golden.Probe{}
	var order []string
	if set != nil {
		for i := range set.Probes {
			probes[set.Probes[i].ID] = &set.Probes[i]
		}
	}
	changes := map[string]*golden.ProbeDiff{}
	if diff != nil {
		for i := range diff.Probes {
			changes[diff.Probes[i].ID] = &diff.Probes[i]
		}
	}
	switch {
	case run != nil:
		for _, pr := range run.Probes {
			order = append(order, pr.ID)
		}
		if diff != nil {
			for _, d := range diff.Probes {
				if d.Change == golden.ChangeMissing {
					order = append(order, d.ID)
				}
			}
		}
	case set != nil:
		for _, pr := range set.Probes {
			order = append(order, pr.ID)
		}
	}
	rows := make([]goldenRow, 0, len(order))
	for _, id := range order {
		r := goldenRow{ID: id, Probe: probes[id], Result: now[id], Was: was[id], Change: changes[id]}
		switch {
		case r.Probe != nil:
			r.Query = r.Probe.Query
		case r.Result != nil:
			r.Query = r.Result.Query
		case r.Was != nil:
			r.Query = r.Was.Query
		}
		rows = append(rows, r)
	}
	return rows
}
