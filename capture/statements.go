package capture

import (
	"strings"
)

// What a message says (issue 29). The rule judge stores statements about
// the user and the world, not the talk around them, so it reads a message
// as a sequence of speech acts before it decides:
//
//   - paste: fenced code, lines that read as code, configuration, a stack
//     trace or a log, and a structured block (three or more bullet, key:
//     value or code lines) sent together with a request or a paste
//     announcement ("here's the config", "붙여넣을게") — material for the
//     assistant, not the user's own statements;
//   - hypothetical: a premise ("imagine I'm …", "what if", "만약에 …");
//   - question: a sentence ending in a question mark, led by an
//     interrogative ("how long should …", "what's …", "should I …") or
//     ending in a Korean question ending (뭐야, …까, …나요, …니);
//   - request: a task for the assistant ("can you …", "summarise …",
//     "tell me …", "…해줘", "…주세요");
//   - chatter: acknowledgements, greetings and interjections — fewer than
//     two content words once ack and greeting words are set aside ("thanks,
//     that worked", "좋은 아침~ 오늘도 화이팅");
//   - statement: everything else.
//
// A sentence with a standing-instruction marker ("always", "never",
// "don't", "from now on", "when I …", 앞으로, 항상, …지 마, 말고) is a
// statement whatever its form: "keep code answers short from now on" is a
// rule, not a one-off request. A first person or a number is not by itself
// a statement cue: "how long should I boil an egg" is a question.

// Speech acts of a sentence.
const (
	actStatement    = "statement"
	actQuestion     = "question"
	actRequest      = "request"
	actChatter      = "chatter"
	actHypothetical = "hypothetical"
	actPaste        = "paste"
)

// sentenceAct is one sentence of a message and its speech act.
type sentenceAct struct {
	text, act string
}

// readActs splits text into its sentences (paste blocks as one entry each)
// and gives each its speech act.
func readActs(text string) []sentenceAct {
	lines := strings.Split(text, "\n")
	paste := make([]bool, len(lines))
	fence := false
	for i, l := range lines {
		if fenceLine(l) {
			paste[i] = true
			fence = !fence
			continue
		}
		paste[i] = fence || codeLine(l, len(lines) > 1)
	}
	// A pasted block runs until a blank line: a line right after a pasted
	// one that does not end a sentence ("psycopg2.errors.UndefinedColumn:
	// column … does not exist" under a traceback) is part of it.
	for i := 1; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if paste[i-1] && !paste[i] && t != "" && (!strings.ContainsAny(t[len(t)-1:], ".!?") || strings.HasSuffix(t, "..")) && !fenceLine(lines[i-1]) {
			paste[i] = true
		}
	}
	// A structured run (bullets, key: value lines, code) of three or more
	// lines is pasted material when the rest asks for something or
	// announces a paste; a separator line ("---", "--- paste ---") starts
	// pasted material in such a message.
	var prose []sentenceAct
	for i, l := range lines {
		if len(lines) > 1 && !paste[i] && !structuredLine(l) { // one line has no block to attribute
			for _, s := range splitSentences(l) {
				prose = append(prose, sentenceAct{s, actOf(s, l)})
			}
		}
	}
	asks := false
	for _, s := range prose {
		if s.act == actRequest || s.act == actQuestion || pasteIntro(s.text) {
			asks = true
		}
	}
	if asks {
		for i := 0; i < len(lines); {
			j := i
			for j < len(lines) && (structuredLine(lines[j]) || paste[j] || strings.TrimSpace(lines[j]) == "") {
				j++
			}
			if n := countNonEmpty(lines[i:j]); n >= 3 {
				for k := i; k < j; k++ {
					paste[k] = true
				}
			}
			i = max(j, i+1)
		}
		for i, l := range lines {
			if separatorLine(l) {
				for k := i; k < len(lines); k++ {
					paste[k] = true
				}
				break
			}
		}
	}
	if !asks {
		anyPaste := false
		for _, p := range paste {
			anyPaste = anyPaste || p
		}
		for _, s := range prose {
			asks = asks || anyPaste && pointsAtPaste(s.text) // "this throws every time" over a code block
		}
	}
	out := pasteActs(lines, paste, asks)
	// A short fragment after a question or request qualifies it ("10 min
	// max", "3-4 bullets, no drama", "like 4 weeks out"); in a message that
	// sends material (a paste) with a question or request, the prose
	// describes that material ("it's slow on ~8M rows"): neither is a
	// statement of its own, unless it states a standing instruction.
	pasted := false
	for _, a := range out {
		pasted = pasted || a.act == actPaste
	}
	for i := range out {
		a := &out[i]
		if a.act != actStatement {
			continue
		}
		if asks && pasted && pointsAtPaste(a.text) {
			a.act = actRequest // "this throws every time": about the material, whatever its markers
			continue
		}
		follows := i > 0 && (out[i-1].act == actQuestion || out[i-1].act == actRequest) && len(strings.Fields(a.text)) <= 4
		if !(asks && pasted) && !follows || kwFind(lexNorm(a.text), standingLexicon()) != "" {
			continue
		}
		if asks && pasted {
			if ownNews(a.text) {
				continue // "I moved to the platform team last week. Here's the log …" (statements_cover.go)
			}
			a.act = actRequest
		} else {
			a.act = out[i-1].act
		}
	}
	return out
}

// pasteActs is readActs' list of the lines of a message: each run of
// pasted lines as one paste, the other lines as their sentences.
func pasteActs(lines []string, paste []bool, asks bool) []sentenceAct {
	var out []sentenceAct
	inPaste := false
	for i, l := range lines {
		if paste[i] {
			if !inPaste && strings.TrimSpace(l) != "" {
				out = append(out, sentenceAct{"", actPaste})
			}
			inPaste = inPaste || strings.TrimSpace(l) != ""
			if inPaste {
				out[len(out)-1].text += l + "\n"
			}
			continue
		}
		if strings.TrimSpace(l) == "" {
			continue
		}
		inPaste = false
		for _, s := range splitSentences(l) {
			act := actOf(s, l)
			if asks && pasteIntro(s) {
				// "here's the whole config": the paste's cover note; a
				// statement before it in the same sentence stays one ("I
				// track my runs in a spreadsheet, here's this week's:").
				if head, intro, ok := introClause(s); ok && actOf(head, l) == actStatement {
					out = append(out, sentenceAct{head, actStatement})
					s = intro
				}
				act = actRequest
			}
			out = append(out, sentenceAct{s, act})
		}
	}
	return out
}

// statementText is the statements of acts, joined: what a memory of the
// message holds about the user and the world ("" when none).
func statementText(acts []sentenceAct) string {
	var parts []string
	for _, a := range acts {
		if a.act == actStatement {
			parts = append(parts, a.text)
		}
	}
	return strings.Join(parts, ". ")
}

// firstNonStatement is the first speech act of acts that is not a
// statement, for the reason of a drop.
func firstNonStatement(acts []sentenceAct) string {
	for _, a := range acts {
		if a.act != actStatement && a.act != actChatter {
			return a.act
		}
	}
	if len(acts) > 0 {
		return acts[0].act
	}
	return actChatter
}

// introClause splits s before a later clause that announces pasted
// material ("…, here's …", "…; below is …"): head and intro, when the
// clause before has no paste announcement of its own.
func introClause(s string) (head, intro string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != ',' && s[i] != ';' {
			continue
		}
		h, rest := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
		if h != "" && rest != "" && pasteIntro(rest) && !pasteIntro(h) && len(strings.Fields(h)) >= 3 {
			return h, rest, true
		}
	}
	return "", "", false
}
