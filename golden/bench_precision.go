package golden

import (
	"unicode/utf8"

	"memtrace/engine"
	"memtrace/recall"
)

// Precision beside recall in `bench locomo`: what each system's ranking
// would put into the agent's prompt. Every ranking fills the same character
// budget the way the budget stage does — each turn as its prompt line
// (engine.PromptLine), in rank order, a line that does not fit skipped and
// shorter ones after it still tried — and two figures are kept per system:
//
//   - mean_budget_survivors: turns in that prompt, averaged over questions;
//   - evidence_char_share: of all prompt-line characters over all
//     questions, the share on the questions' evidence turns (1: the prompt
//     holds nothing but evidence).
//
// For the final row the ranking is the budget survivors themselves, so its
// figures are the prompt the agent receives.

// LoCoMoPrecision is one system's precision figures.
type LoCoMoPrecision struct {
	MeanBudgetSurvivors float64 `json:"mean_budget_survivors"`
	EvidenceCharShare   float64 `json:"evidence_char_share"`
	MeanPromptChars     float64 `json:"mean_prompt_chars"` // prompt-line characters per question
}

// precisionAcc accumulates one system's prompts over the questions.
type precisionAcc struct {
	questions, survivors int
	chars, evidenceChars int
}

// promptBlockChars is what the memory block costs besides its lines: the
// opening and closing tags (engine.PromptBlockChars).
func promptBlockChars() int { return recall.PromptBlockChars() }

// add fills budget with the lines of ranked (dia ids) and counts what
// landed in it; lineChars holds each turn's prompt line length (newline
// included).
func (a *precisionAcc) add(ranked []string, evidence []string, lineChars map[string]int, budget int) {
	ev := make(map[string]bool, len(evidence))
	for _, id := range evidence {
		ev[id] = true
	}
	a.questions++
	used := promptBlockChars()
	for _, id := range ranked {
		n, ok := lineChars[id]
		if !ok || used+n > budget {
			continue
		}
		used += n
		a.survivors++
		a.chars += n
		if ev[id] {
			a.evidenceChars += n
		}
	}
}

func (a *precisionAcc) figures() LoCoMoPrecision {
	var p LoCoMoPrecision
	if a.questions > 0 {
		p.MeanBudgetSurvivors = round4(float64(a.survivors) / float64(a.questions))
		p.MeanPromptChars = round4(float64(a.chars) / float64(a.questions))
	}
	if a.chars > 0 {
		p.EvidenceCharShare = round4(float64(a.evidenceChars) / float64(a.chars))
	}
	return p
}

// turnLineChars is each turn's prompt line length, newline included, keyed
// by dia id.
func turnLineChars(ms []*engine.Memory, prefix string) map[string]int {
	out := make(map[string]int, len(ms))
	for _, m := range ms {
		id := m.Key[len(prefix):]
		out[id] = utf8.RuneCountInString(recall.PromptLine(*m)) + 1
	}
	return out
}
