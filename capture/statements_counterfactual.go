package capture

import (
	"regexp"
	"strings"
)

// A counterfactual or a daydream is a premise, not a fact (issue 29): "if
// I ever win the lottery I'm buying a farm", "if only I were younger, I'd
// surf", "내가 고양이였으면 하루종일 잘 텐데", "로또 되면 회사 그만둘 텐데".
// The rule reads the conditional's mood, not its topic:
//
//   - English: an irrealis condition — "if I/we ever", "if only", "if I
//     had/could" — or any "if" clause whose consequence is a conditional
//     "would"/"I'd" (not "I'd like/love/prefer/rather", which states a
//     preference);
//   - Korean: a condition (…면, …라면, …었으면) whose consequence is the
//     conjecture ending 텐데 ("…할 텐데", "…일 텐데요").
//
// A real conditional ("if it rains I take the bus", "비 오면 지하철 타")
// states a habit and stays a statement; so does a sentence addressed to
// the assistant ("if I ever ask for passwords, refuse"): a standing rule.
var (
	irrealisIf    = regexp.MustCompile(`\bif (?:i|we) (?:ever|had|could)\b|\bif only\b`)
	ifWould       = regexp.MustCompile(`\bif\b.*\b(?:i'd|we'd|i would|we would)\b(?: (\w+))?`)
	koCounterfact = regexp.MustCompile(`[가-힣]+(?:면|라면|다면)\s[^.!?\n]*텐데`)
)

// preferenceAfterWould: "I'd like …" states what the speaker wants.
var preferenceAfterWould = map[string]bool{"like": true, "love": true, "prefer": true, "rather": true, "appreciate": true, "want": true}

// counterfactual reports whether sentence s (norm: lexNorm(s)) is a
// daydream or a counterfactual premise.
func counterfactual(s, norm string) bool {
	if strings.Contains(s, "텐데") && koCounterfact.MatchString(s) {
		return true
	}
	if !strings.Contains(norm, " if ") || strings.Contains(norm, " you ") || strings.Contains(norm, " remind me ") {
		return false
	}
	if irrealisIf.MatchString(norm) {
		return true
	}
	m := ifWould.FindStringSubmatch(norm)
	return m != nil && !preferenceAfterWould[m[1]]
}
