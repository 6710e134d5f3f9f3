package golden

import (
	"fmt"
	"strconv"
	"strings"
)

// Terms is the expectation as written in the set, one term a string
// ("present key:m0071, text:무릎", "absent type:milestone", "max_guaranteed
// 0", "relevant key:m0012=3"), in the order the evaluator checks them. The
// TUI shows it for passing probes too, so a curator sees what a probe
// guards without opening the file.
func (e Expect) Terms() []string {
	var out []string
	sels := func(name string, ss []Selector) {
		if len(ss) == 0 {
			return
		}
		parts := make([]string, len(ss))
		for i, s := range ss {
			parts[i] = s.String()
		}
		out = append(out, name+" "+strings.Join(parts, ", "))
	}
	limit := func(name string, n *int) {
		if n != nil {
			out = append(out, name+" "+strconv.Itoa(*n))
		}
	}
	frac := func(name string, f *float64) {
		if f != nil {
			out = append(out, name+" "+strconv.FormatFloat(*f, 'g', -1, 64))
		}
	}
	sels("present", e.Present)
	sels("absent", e.Absent)
	sels("only", e.Only)
	limit("max_guaranteed", e.MaxGuaranteed)
	limit("min_survivors", e.MinSurvivors)
	limit("max_prompt_chars", e.MaxPromptChars)
	if len(e.Relevant) > 0 {
		parts := make([]string, len(e.Relevant))
		for i, g := range e.Relevant {
			parts[i] = fmt.Sprintf("%s=%s", g.Selector, strconv.FormatFloat(g.Grade, 'g', -1, 64))
		}
		out = append(out, "relevant "+strings.Join(parts, ", "))
	}
	frac("min_recall_at_k", e.MinRecallAtK)
	frac("min_mrr", e.MinMRR)
	frac("min_ndcg", e.MinNDCG)
	return out
}
