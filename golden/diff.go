package golden

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// RunDiff compares a run with a baseline run of the same set.
type RunDiff struct {
	Baseline Summary `json:"baseline"`
	Current  Summary `json:"current"`
	// Probes holds one entry per probe of either run that changed in any
	// way: baseline order first, then probes new in the current run.
	Probes []ProbeDiff `json:"probes"`
	// Summary lists the summary figures that moved.
	Summary []MetricDelta `json:"summary_deltas"`
}

// ProbeChange classifies a probe between two runs.
type ProbeChange string

const (
	ChangeBroke   ProbeChange = "broke"   // passed in the baseline, fails now
	ChangeFixed   ProbeChange = "fixed"   // failed in the baseline, passes now
	ChangeMissing ProbeChange = "missing" // in the baseline, not in this run: a failure
	ChangeNew     ProbeChange = "new"     // not in the baseline
	ChangeSame    ProbeChange = "same"    // same verdict; survivors or metrics moved
)

// ProbeDiff is how one probe moved.
type ProbeDiff struct {
	ID       string        `json:"id"`
	Change   ProbeChange   `json:"change"`
	WasPass  bool          `json:"was_pass"`
	Pass     bool          `json:"pass"`
	Entered  []SurvivorRef `json:"entered,omitempty"` // survivors now that were not before
	Left     []SurvivorRef `json:"left,omitempty"`    // survivors before that are gone
	Metrics  []MetricDelta `json:"metrics,omitempty"`
	Failures []string      `json:"failures,omitempty"` // the current failures, when it fails
}

// MetricDelta is one figure before and after.
type MetricDelta struct {
	Name string  `json:"name"`
	Was  float64 `json:"was"`
	Now  float64 `json:"now"`
	// Missing says on which side the figure is absent ("was" or "now").
	Missing string `json:"missing,omitempty"`
}

// Delta is Now − Was.
func (m MetricDelta) Delta() float64 { return m.Now - m.Was }

const metricEpsilon = 1e-9

// Diff compares current against baseline. Survivors are matched by key,
// falling back to row id, so baselines survive a rebuilt database.
func Diff(baseline, current *RunResult) *RunDiff {
	d := &RunDiff{Baseline: baseline.Summary, Current: current.Summary}
	cur := make(map[string]*ProbeResult, len(current.Probes))
	for i := range current.Probes {
		cur[current.Probes[i].ID] = &current.Probes[i]
	}
	inBase := make(map[string]bool, len(baseline.Probes))
	for i := range baseline.Probes {
		b := &baseline.Probes[i]
		inBase[b.ID] = true
		c, ok := cur[b.ID]
		if !ok {
			d.Probes = append(d.Probes, ProbeDiff{ID: b.ID, Change: ChangeMissing, WasPass: b.Pass,
				Failures: []string{"probe missing from this run (it is in the baseline)"}})
			continue
		}
		pd := ProbeDiff{ID: b.ID, Change: ChangeSame, WasPass: b.Pass, Pass: c.Pass}
		switch {
		case b.Pass && !c.Pass:
			pd.Change = ChangeBroke
		case !b.Pass && c.Pass:
			pd.Change = ChangeFixed
		}
		pd.Entered, pd.Left = survivorChanges(b.Survivors, c.Survivors)
		pd.Metrics = metricDeltas(b.Metrics, c.Metrics)
		if !c.Pass {
			pd.Failures = c.Failures
		}
		if pd.Change != ChangeSame || len(pd.Entered)+len(pd.Left)+len(pd.Metrics) > 0 {
			d.Probes = append(d.Probes, pd)
		}
	}
	for i := range current.Probes {
		c := &current.Probes[i]
		if inBase[c.ID] {
			continue
		}
		pd := ProbeDiff{ID: c.ID, Change: ChangeNew, Pass: c.Pass}
		if !c.Pass {
			pd.Failures = c.Failures
		}
		d.Probes = append(d.Probes, pd)
	}
	d.Summary = metricDeltas(summaryFigures(baseline.Summary), summaryFigures(current.Summary))
	return d
}

// Regressed reports whether the run is worse than the baseline: a probe
// that passed now fails, a baseline probe is missing, or a new probe fails
// (otherwise adding a failing probe would slip through the gate).
func (d *RunDiff) Regressed() bool {
	for _, p := range d.Probes {
		switch {
		case p.Change == ChangeBroke, p.Change == ChangeMissing:
			return true
		case p.Change == ChangeNew && !p.Pass:
			return true
		}
	}
	return false
}

// Count returns how many probes changed in the given way.
func (d *RunDiff) Count(c ProbeChange) int {
	n := 0
	for _, p := range d.Probes {
		if p.Change == c {
			n++
		}
	}
	return n
}

func survivorChanges(was, now []SurvivorRef) (entered, left []SurvivorRef) {
	before := make(map[string]bool, len(was))
	for _, s := range was {
		before[s.identity()] = true
	}
	after := make(map[string]bool, len(now))
	for _, s := range now {
		after[s.identity()] = true
		if !before[s.identity()] {
			entered = append(entered, s)
		}
	}
	for _, s := range was {
		if !after[s.identity()] {
			left = append(left, s)
		}
	}
	return entered, left
}

func metricDeltas(was, now map[string]float64) []MetricDelta {
	names := make([]string, 0, len(was)+len(now))
	for k := range was {
		names = append(names, k)
	}
	for k := range now {
		if _, ok := was[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	var out []MetricDelta
	for _, n := range names {
		w, okW := was[n]
		c, okN := now[n]
		switch {
		case !okW:
			out = append(out, MetricDelta{Name: n, Now: c, Missing: "was"})
		case !okN:
			out = append(out, MetricDelta{Name: n, Was: w, Missing: "now"})
		case math.Abs(c-w) > metricEpsilon:
			out = append(out, MetricDelta{Name: n, Was: w, Now: c})
		}
	}
	return out
}

func summaryFigures(s Summary) map[string]float64 {
	m := map[string]float64{
		"probes": float64(s.Probes), "passed": float64(s.Passed), "pass_rate": s.PassRate,
		"present_recall": s.PresentRecall, "mean_guaranteed": s.MeanGuaranteed, "mean_prompt_chars": s.MeanPromptChars,
	}
	if s.PrecisionProbes > 0 {
		m["precision_probes"] = float64(s.PrecisionProbes)
		m["stray_survivors"] = float64(s.StraySurvivors)
	}
	for name, p := range map[string]*float64{"mean_recall_at_k": s.MeanRecallAtK, "mean_mrr": s.MeanMRR, "mean_ndcg": s.MeanNDCG, "mean_stray_survivors": s.MeanStraySurvivors} {
		if p != nil {
			m[name] = *p
		}
	}
	return m
}

// Text renders the diff for a terminal: a headline, then one block per
// changed probe with its survivors that entered (+) or left (−) and the
// metrics that moved. Memory text is clipped and sanitised.
func (d *RunDiff) Text() string {
	var b strings.Builder
	verdict := "no regression"
	if d.Regressed() {
		verdict = "REGRESSED"
	}
	fmt.Fprintf(&b, "golden diff vs baseline: %d/%d → %d/%d passed (pass rate %.1f%% → %.1f%%): %s\n",
		d.Baseline.Passed, d.Baseline.Probes, d.Current.Passed, d.Current.Probes,
		100*d.Baseline.PassRate, 100*d.Current.PassRate, verdict)
	fmt.Fprintf(&b, "  broke %d, fixed %d, missing %d, new %d, changed %d\n",
		d.Count(ChangeBroke), d.Count(ChangeFixed), d.Count(ChangeMissing), d.Count(ChangeNew), d.Count(ChangeSame))
	for _, m := range d.Summary {
		fmt.Fprintf(&b, "  %s\n", m.text())
	}
	for _, p := range d.Probes {
		b.WriteString("\n")
		switch p.Change {
		case ChangeBroke:
			fmt.Fprintf(&b, "BROKE   %s: pass → fail\n", p.ID)
		case ChangeFixed:
			fmt.Fprintf(&b, "FIXED   %s: fail → pass\n", p.ID)
		case ChangeMissing:
			fmt.Fprintf(&b, "MISSING %s: in the baseline but not in this run (counts as a failure)\n", p.ID)
		case ChangeNew:
			fmt.Fprintf(&b, "NEW     %s: %s (not in the baseline)\n", p.ID, passWord(p.Pass))
		case ChangeSame:
			fmt.Fprintf(&b, "CHANGED %s: still %s\n", p.ID, passWord(p.Pass))
		}
		if p.Change != ChangeMissing {
			for _, f := range p.Failures {
				fmt.Fprintf(&b, "    ✗ %s\n", clip(f, 240))
			}
		}
		for _, s := range p.Entered {
			fmt.Fprintf(&b, "    + entered %s %q\n", clip(s.identity(), 40), clip(s.Text, 70))
		}
		for _, s := range p.Left {
			fmt.Fprintf(&b, "    - left    %s %q\n", clip(s.identity(), 40), clip(s.Text, 70))
		}
		for _, m := range p.Metrics {
			fmt.Fprintf(&b, "    %s\n", m.text())
		}
	}
	return b.String()
}

func (m MetricDelta) text() string {
	switch m.Missing {
	case "was":
		return fmt.Sprintf("%s: (none) → %s", m.Name, num(m.Now))
	case "now":
		return fmt.Sprintf("%s: %s → (none)", m.Name, num(m.Was))
	}
	return fmt.Sprintf("%s: %s → %s (%+.4g)", m.Name, num(m.Was), num(m.Now), m.Delta())
}

func num(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return fmt.Sprintf("%d", int64(x))
	}
	return fmt.Sprintf("%.4f", x)
}

func passWord(pass bool) string {
	if pass {
		return "pass"
	}
	return "fail"
}
