package golden

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"memtrace/engine"
)

// SurvivorRef is a budget survivor as a run file records it.
type SurvivorRef struct {
	ID   int64  `json:"id"`
	Key  string `json:"key"`
	Text string `json:"text"`
}

// identity names a survivor across database builds: its key when it has
// one (keys come from message ids), else its row id.
func (s SurvivorRef) identity() string {
	if s.Key != "" {
		return "key:" + s.Key
	}
	return fmt.Sprintf("id:%d", s.ID)
}

// ProbeResult is the outcome of one probe; its JSON is part of the
// `golden run --json` contract.
type ProbeResult struct {
	ID        string             `json:"id"`
	Query     string             `json:"query"`
	At        time.Time          `json:"at"`
	Pass      bool               `json:"pass"`
	Error     string             `json:"error,omitempty"` // the recall itself failed
	Failures  []string           `json:"failures"`
	Survivors []SurvivorRef      `json:"survivors"`
	Metrics   map[string]float64 `json:"metrics"`
	// Trace is the full recall, kept for the TUI's jump into the Trace tab;
	// never written to run files.
	Trace *engine.Trace `json:"-"`
	// presentFound / presentTotal feed the summary's present_recall.
	presentFound, presentTotal int
}

// Evaluate checks one probe against the trace of its recall. The probe
// passes when every present selector matches a budget survivor, no absent
// selector does, and every limit holds; each failure is one readable line.
func Evaluate(pr Probe, t *engine.Trace) ProbeResult {
	res := ProbeResult{
		ID: pr.ID, Query: pr.Query, At: t.At,
		Failures:  []string{},
		Survivors: make([]SurvivorRef, 0, len(t.Survivors)),
		Metrics:   map[string]float64{},
		Trace:     t,
	}
	survivors := make([]item, len(t.Survivors))
	for i, s := range t.Survivors {
		survivors[i] = survivorItem(s)
		res.Survivors = append(res.Survivors, SurvivorRef{ID: s.ID, Key: s.Key, Text: s.Text})
	}
	promptChars := t.PromptChars
	if promptChars == 0 && t.Prompt != "" {
		promptChars = utf8.RuneCountInString(t.Prompt)
	}
	res.Metrics[MetricSurvivors] = float64(len(survivors))
	res.Metrics[MetricGuaranteed] = float64(t.Guaranteed)
	res.Metrics[MetricPromptChars] = float64(promptChars)

	e := pr.Expect
	for _, sel := range e.Present {
		res.presentTotal++
		if firstMatch(sel, survivors) >= 0 {
			res.presentFound++
			continue
		}
		res.Failures = append(res.Failures, fmt.Sprintf("present %s: not among the %d survivors; %s", quoteSel(sel), len(survivors), whereLost(sel, t)))
	}
	if res.presentTotal > 0 {
		res.Metrics[MetricPresentRecall] = round6(float64(res.presentFound) / float64(res.presentTotal))
	}
	for _, sel := range e.Absent {
		for i, it := range survivors {
			if sel.matches(it) {
				res.Failures = append(res.Failures, fmt.Sprintf("absent %s: matched survivor %d %s", quoteSel(sel), i+1, describe(it)))
			}
		}
	}
	if len(e.Only) > 0 {
		strays := 0
		for i, it := range survivors {
			if onlyMatch(e.Only, it) {
				continue
			}
			strays++
			res.Failures = append(res.Failures, fmt.Sprintf("only %s: survivor %d %s matches none of them (a stray)", quoteSels(e.Only), i+1, describe(it)))
		}
		res.Metrics[MetricStraySurvivors] = float64(strays)
	}
	if e.MaxGuaranteed != nil && t.Guaranteed > *e.MaxGuaranteed {
		res.Failures = append(res.Failures, fmt.Sprintf("max_guaranteed %d: %d guaranteed memories in the prompt", *e.MaxGuaranteed, t.Guaranteed))
	}
	if e.MinSurvivors != nil && len(survivors) < *e.MinSurvivors {
		res.Failures = append(res.Failures, fmt.Sprintf("min_survivors %d: only %d survived the budget", *e.MinSurvivors, len(survivors)))
	}
	if e.MaxPromptChars != nil && promptChars > *e.MaxPromptChars {
		res.Failures = append(res.Failures, fmt.Sprintf("max_prompt_chars %d: the prompt has %d characters", *e.MaxPromptChars, promptChars))
	}

	if len(e.Relevant) > 0 {
		k := pr.K
		if k == 0 {
			k = t.K
		}
		final := scoreRanking(survivors, e.Relevant, k)
		res.Metrics[MetricRecallAtK] = round6(final.RecallAtK)
		res.Metrics[MetricMRR] = round6(final.MRR)
		res.Metrics[MetricNDCG] = round6(final.NDCG)
		if pre, ok := preBudgetRanking(t); ok {
			m := scoreRanking(pre, e.Relevant, k)
			res.Metrics[MetricPreBudgetRecallAtK] = round6(m.RecallAtK)
			res.Metrics[MetricPreBudgetMRR] = round6(m.MRR)
			res.Metrics[MetricPreBudgetNDCG] = round6(m.NDCG)
		}
		check := func(name string, min *float64, got float64) {
			if min != nil && got < *min {
				res.Failures = append(res.Failures, fmt.Sprintf("%s %.3g: got %.3f over the survivors (k=%d)", name, *min, got, k))
			}
		}
		check("min_recall_at_k", e.MinRecallAtK, final.RecallAtK)
		check("min_mrr", e.MinMRR, final.MRR)
		check("min_ndcg", e.MinNDCG, final.NDCG)
	}
	res.Pass = len(res.Failures) == 0
	return res
}

func firstMatch(sel Selector, items []item) int {
	for i, it := range items {
		if sel.matches(it) {
			return i
		}
	}
	return -1
}

// preBudgetRanking is the pipeline's ranking before the character budget:
// the kept items of the merge stage, or of mmr when merge has none.
func preBudgetRanking(t *engine.Trace) ([]item, bool) {
	for _, name := range []string{"merge", "mmr"} {
		st := t.Stage(name)
		if st == nil {
			continue
		}
		var out []item
		seen := map[int64]bool{}
		for _, ti := range st.Items {
			if ti.Dropped != "" || seen[ti.ID] {
				continue
			}
			seen[ti.ID] = true
			out = append(out, traceItem(ti))
		}
		if len(out) > 0 {
			return out, true
		}
	}
	return nil, false
}

// whereLost says where in the pipeline a missing memory was last seen, so
// a failure points at the stage to inspect.
func whereLost(sel Selector, t *engine.Trace) string {
	stage, item, ok := LostAt(sel, t)
	if !ok {
		return "never a candidate"
	}
	st := t.Stages[stage]
	ti := st.Items[item]
	if ti.Dropped != "" {
		return fmt.Sprintf("dropped at stage %s (%s): %s", st.Name, clip(ti.Dropped, 80), describe(traceItem(ti)))
	}
	return fmt.Sprintf("last seen at stage %s: %s", st.Name, describe(traceItem(ti)))
}

// LostAt is where a memory the selector picks was last seen in the trace:
// the index of the last stage that lists it and of the item there (the
// stage that dropped it, when one did). ok is false when it was never a
// candidate. Failure lines and the TUI's jump from a failing probe into its
// trace both use it.
func LostAt(sel Selector, t *engine.Trace) (stage, item int, ok bool) {
	for i := len(t.Stages) - 1; i >= 0; i-- {
		for j, ti := range t.Stages[i].Items {
			if sel.MatchesItem(ti) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

func quoteSel(s Selector) string { return fmt.Sprintf("%q", s.String()) }

// onlyMatch reports whether it matches one of the `only` selectors.
func onlyMatch(only []Selector, it item) bool {
	for _, sel := range only {
		if sel.matches(it) {
			return true
		}
	}
	return false
}

// quoteSels renders a selector list for a failure line: ["key:a", "text:b"].
func quoteSels(ss []Selector) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = quoteSel(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// describe renders a memory for a failure line: #id, key, and a clipped,
// sanitised excerpt of its text.
func describe(it item) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d", it.ID)
	if it.Key != "" {
		fmt.Fprintf(&b, " key:%s", clip(it.Key, 40))
	}
	if it.Type != "" {
		fmt.Fprintf(&b, " type:%s", clip(it.Type, 30))
	}
	fmt.Fprintf(&b, " %q", clip(it.Text, 60))
	return b.String()
}

// clip neutralises control characters (memory text is untrusted and ends
// up on terminals) and shortens s to at most n runes.
func clip(s string, n int) string {
	var b strings.Builder
	count := 0
	for _, r := range s {
		if count == n {
			b.WriteString("…")
			break
		}
		if unicode.IsControl(r) || r == utf8.RuneError {
			r = ' '
		}
		b.WriteRune(r)
		count++
	}
	return b.String()
}
