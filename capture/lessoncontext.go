package capture

import "strings"

// The context of a rule. A corrective sentence often names a value of a
// slot that is not what it prescribes: the condition it applies under
// ("When you answer in Korean, keep technical terms in English", "한국어로
// 설명할 때 … 영어 그대로 써줘") or what the agent did wrong ("아 또 PM
// 붙였네 ㅋㅋ 24h format으로", "you wrote docker-compose again"). The
// signature reads such a span as context: a slot value named only there
// counts when the rule names no value of that slot elsewhere (then it is
// all the sentence says), and a value named outside it is the one
// prescribed. Topics and actions named in the context still count — the
// condition says what the rule is about ("when you answer" is about
// answers). Spans: an English clause from if/when/whenever/while/once to
// its end; a Korean clause up to a conditional word (…할 때, …때는, …하면,
// …으면, …이면); a clause that recounts (a Korean past or reproachful
// ending, an English "you/we + past verb": recounts), cut from the rest
// at laughter (ㅋㅋ, ㅠㅠ) as chat cuts it.

// sigClause is one clause of a lesson text and whether it is context.
type sigClause struct {
	text    string
	context bool
}

// sigClauses cuts text into the clauses readHits reads: at clause
// punctuation and sentence ends (termClauses), at laughter, and at a
// condition's end.
func sigClauses(text string) []sigClause {
	var out []sigClause
	for _, cl := range termClauses(text) {
		for _, part := range splitAtLaughter(cl) {
			out = append(out, conditionSplit(part)...)
		}
	}
	return out
}

// conditionSplit cuts one clause into its condition (context) and the
// rest, and marks a recounting clause context.
func conditionSplit(cl string) []sigClause {
	words := strings.Fields(cl)
	if len(words) == 0 {
		return nil
	}
	for i, w := range words {
		lw := strings.ToLower(strings.Trim(w, "\"'`()[]"))
		if enCondition[lw] && !(i == 0 && len(words) == 1) {
			var out []sigClause
			if i > 0 {
				out = append(out, sigClause{text: strings.Join(words[:i], " ")})
			}
			return append(out, sigClause{text: strings.Join(words[i:], " "), context: true})
		}
	}
	for i := len(words) - 1; i >= 0; i-- {
		if koCondition(words[i]) {
			out := []sigClause{{text: strings.Join(words[:i+1], " "), context: true}}
			if i+1 < len(words) {
				out = append(out, sigClause{text: strings.Join(words[i+1:], " ")})
			}
			return out
		}
	}
	norm := strings.Fields(lexNorm(cl))
	for len(norm) > 0 && jamoRun(norm[len(norm)-1]) {
		norm = norm[:len(norm)-1] // 붙였네 ㅋㅋ: the laughter ends the clause
	}
	return []sigClause{{text: cl, context: len(norm) > 0 && recounts(norm) && !prescribes(cl)}}
}

var enCondition = map[string]bool{"if": true, "when": true, "whenever": true, "while": true, "once": true}

// koCondition reports whether a Korean word ends a condition: 때 and its
// particles (때, 때는, 때만, 때에는, 할때) or a conditional ending (하면,
// 되면, 으면, 이면, 라면, 다면, 쓰면).
func koCondition(w string) bool {
	w = strings.TrimRight(w, ",.!?~")
	for _, end := range []string{"때", "때는", "때만", "때에는", "때에", "때도", "하면", "되면", "으면", "이면", "라면", "다면", "쓰면", "하면은"} {
		if strings.HasSuffix(w, end) && isHangul(w) {
			return true
		}
	}
	return false
}
