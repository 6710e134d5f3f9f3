package golden

import (
	"fmt"
	"io"
	"strings"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/wording"
)

// An experiment: the same set run under two policies (arms A and B) on the
// same data, compared probe by probe. A probe differs when its verdict,
// its survivors' ranks or the drops of its recall (which memory a stage
// dropped and why, drop_kind) differ; each difference carries both traces.

// Figures are an arm's aggregate figures.
type Figures struct {
	PassRate       float64 `json:"pass_rate"`
	Passed         int     `json:"passed"`
	Probes         int     `json:"probes"`
	MeanSurvivors  float64 `json:"mean_survivors"`
	StraySurvivors int     `json:"stray_survivors"`
	MeanGuaranteed float64 `json:"mean_guaranteed"`
}

// FiguresOf sums a run up.
func FiguresOf(r *RunResult) Figures {
	f := Figures{PassRate: r.Summary.PassRate, Passed: r.Summary.Passed, Probes: r.Summary.Probes,
		StraySurvivors: r.Summary.StraySurvivors, MeanGuaranteed: r.Summary.MeanGuaranteed}
	n := 0
	for _, p := range r.Probes {
		n += len(p.Survivors)
	}
	if len(r.Probes) > 0 {
		f.MeanSurvivors = round6(float64(n) / float64(len(r.Probes)))
	}
	return f
}

// RankMove is a survivor whose rank differs: 1-based, 0 when it is not a
// survivor under that arm.
type RankMove struct {
	Memory string `json:"memory"` // key:K or id:N (SurvivorRef identity)
	Text   string `json:"text"`
	RankA  int    `json:"rank_a"`
	RankB  int    `json:"rank_b"`
}

// DropMove is a memory dropped under one arm and not the other, or dropped
// for another reason: Under names the arm ("A", "B") whose recall dropped
// it with Kind at Stage; the other arm's drop of it, if any, is OtherKind.
type DropMove struct {
	Memory    string          `json:"memory"`
	Text      string          `json:"text"`
	Under     string          `json:"under"`
	Stage     string          `json:"stage"`
	Kind      engine.DropKind `json:"drop_kind"`
	OtherKind engine.DropKind `json:"other_drop_kind,omitempty"`
}

// ProbeDelta is one probe that differs between the arms.
type ProbeDelta struct {
	ID     string           `json:"id"`
	Query  string           `json:"query"`
	PassA  bool             `json:"pass_a"`
	PassB  bool             `json:"pass_b"`
	Ranks  []RankMove       `json:"ranks"`
	Drops  []DropMove       `json:"drops"`
	Traces [2]*engine.Trace `json:"traces"` // A's and B's recall
}

// Flipped reports whether the verdict differs.
func (d ProbeDelta) Flipped() bool { return d.PassA != d.PassB }

// Experiment is `memtrace experiment --json`.
type Experiment struct {
	Set         string       `json:"set"`
	PolicyA     string       `json:"policy_a"`
	PolicyB     string       `json:"policy_b"`
	A           Figures      `json:"a"`
	B           Figures      `json:"b"`
	Differences int          `json:"differences"`
	Flipped     int          `json:"flipped"`
	Regressed   bool         `json:"regressed"` // a probe passes under A and fails under B
	Probes      []ProbeDelta `json:"probes"`    // the probes that differ, flipped first
}

// Compare compares two runs of one set, a under policy A and b under B.
func Compare(a, b *RunResult, nameA, nameB string) *Experiment {
	x := &Experiment{Set: a.Set, PolicyA: nameA, PolicyB: nameB, A: FiguresOf(a), B: FiguresOf(b), Probes: []ProbeDelta{}}
	byID := map[string]ProbeResult{}
	for _, p := range b.Probes {
		byID[p.ID] = p
	}
	var flipped, moved []ProbeDelta
	for _, pa := range a.Probes {
		pb, ok := byID[pa.ID]
		if !ok {
			continue
		}
		d := ProbeDelta{ID: pa.ID, Query: pa.Query, PassA: pa.Pass, PassB: pb.Pass,
			Ranks: rankMoves(pa.Survivors, pb.Survivors), Drops: dropMoves(pa.Trace, pb.Trace),
			Traces: [2]*engine.Trace{pa.Trace, pb.Trace}}
		switch {
		case d.Flipped():
			flipped = append(flipped, d)
			x.Regressed = x.Regressed || pa.Pass
		case len(d.Ranks) > 0 || len(d.Drops) > 0:
			moved = append(moved, d)
		}
	}
	x.Probes = append(append(x.Probes, flipped...), moved...)
	x.Differences, x.Flipped = len(x.Probes), len(flipped)
	return x
}

func rankMoves(a, b []SurvivorRef) []RankMove {
	rank := func(ss []SurvivorRef) map[string]int {
		m := make(map[string]int, len(ss))
		for i, s := range ss {
			m[s.identity()] = i + 1
		}
		return m
	}
	ra, rb := rank(a), rank(b)
	var out []RankMove
	seen := map[string]bool{}
	for _, s := range append(append([]SurvivorRef{}, a...), b...) {
		id := s.identity()
		if seen[id] {
			continue
		}
		seen[id] = true
		if ra[id] != rb[id] {
			out = append(out, RankMove{Memory: id, Text: s.Text, RankA: ra[id], RankB: rb[id]})
		}
	}
	return out
}

// drop is where a recall dropped a memory (its first drop).
type drop struct {
	stage, text string
	kind        engine.DropKind
}

func drops(t *engine.Trace) (map[string]drop, []string) {
	m, order := map[string]drop{}, []string{}
	if t == nil {
		return m, order
	}
	for _, st := range t.Stages {
		for _, it := range st.Items {
			if it.DropKind == "" {
				continue
			}
			id := SurvivorRef{ID: it.ID, Key: it.Key}.identity()
			if _, ok := m[id]; !ok {
				m[id] = drop{stage: st.Name, text: it.Text, kind: it.DropKind}
				order = append(order, id)
			}
		}
	}
	return m, order
}

func dropMoves(a, b *engine.Trace) []DropMove {
	da, oa := drops(a)
	db, ob := drops(b)
	var out []DropMove
	// A memory both arms dropped, for different reasons, is listed once,
	// under A with B's reason as OtherKind.
	add := func(under string, mine, other map[string]drop, order []string) {
		for _, id := range order {
			d, o := mine[id], other[id]
			if o.kind == d.kind || under == "B" && o.kind != "" {
				continue
			}
			out = append(out, DropMove{Memory: id, Text: d.text, Under: under, Stage: d.stage, Kind: d.kind, OtherKind: o.kind})
		}
	}
	add("A", da, db, oa)
	add("B", db, da, ob)
	return out
}

// WriteText prints the experiment for people: the figures side by side,
// then each differing probe with what moved.
func (x *Experiment) WriteText(w io.Writer) {
	fmt.Fprintf(w, "experiment %s: A = %s, B = %s\n", safetext.SanitizeLine(x.Set), safetext.SanitizeLine(x.PolicyA), safetext.SanitizeLine(x.PolicyB))
	fmt.Fprintf(w, "%-16s %12s %12s\n", "", "A", "B")
	row := func(name string, a, b string) { fmt.Fprintf(w, "%-16s %12s %12s\n", name, a, b) }
	row("pass rate", fmt.Sprintf("%d/%d %.0f%%", x.A.Passed, x.A.Probes, 100*x.A.PassRate), fmt.Sprintf("%d/%d %.0f%%", x.B.Passed, x.B.Probes, 100*x.B.PassRate))
	row("mean survivors", num(x.A.MeanSurvivors), num(x.B.MeanSurvivors))
	row("strays", fmt.Sprint(x.A.StraySurvivors), fmt.Sprint(x.B.StraySurvivors))
	row("guaranteed/prompt", num(x.A.MeanGuaranteed), num(x.B.MeanGuaranteed))
	fmt.Fprintf(w, "\n%s %s, %d flipped\n", wording.Count(x.Differences, "probe"), wording.Agree(x.Differences, "differs", "differ"), x.Flipped)
	for _, d := range x.Probes {
		fmt.Fprintf(w, "\n%s → %s  %s  %q\n", passWord(d.PassA), passWord(d.PassB), safetext.SanitizeLine(d.ID), clip(safetext.SanitizeLine(d.Query), 60))
		for _, r := range d.Ranks {
			fmt.Fprintf(w, "    rank %s → %s  %s  %s\n", rankWord(r.RankA), rankWord(r.RankB), safetext.SanitizeLine(r.Memory), clip(safetext.SanitizeLine(r.Text), 50))
		}
		for _, m := range d.Drops {
			other := "not dropped"
			if m.OtherKind != "" {
				other = string(m.OtherKind)
			}
			fmt.Fprintf(w, "    dropped under %s: %s at %s (under the other: %s)  %s  %s\n", m.Under, m.Kind, m.Stage, other,
				safetext.SanitizeLine(m.Memory), clip(safetext.SanitizeLine(m.Text), 50))
		}
	}
}

func rankWord(r int) string {
	if r == 0 {
		return "—"
	}
	return "#" + fmt.Sprint(r)
}

// PolicyName is how an experiment names a policy source in its output.
func PolicyName(src string) string {
	if strings.TrimSpace(src) == "" {
		return "defaults"
	}
	return src
}
