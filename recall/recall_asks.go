package recall

import (
	"fmt"
	"slices"
	"strings"

	"memtrace/engine"
	"memtrace/engine/index"
	"memtrace/engine/textnorm"
)

// A memory that only asks (stage rerank, after the relevance gate).
//
// "What type of music do you play?" shares the query's words with "what
// music does she play?", and being short it outscores the line that
// answers it; but a question tells nothing about what it asks. A kept
// memory whose specific query terms (its lexical evidence) all sit in its
// questions — sentences ending in "?" — and none in a sentence that states
// something ranks × AsksOnlyShare. A speaker prefix ("Name: ",
// recall_speaker.go) is a field, not a sentence, and its name is not
// among the terms looked for. A memory with no "?" is
// never read again.

// AsksOnlyShare is the relevance share kept by a memory that holds the
// query's specific terms only inside its questions.
const AsksOnlyShare = 0.6

// asksOnly reports whether every one of the specific terms sits only in a
// question sentence of text.
func asksOnly(text string, specific []string) bool {
	if len(specific) == 0 || !strings.ContainsRune(text, '?') {
		return false
	}
	if s := speakerOf(text); s != "" {
		text = text[len(s)+1:]
		name := textnorm.Tokens(s)
		var rest []string
		for _, t := range specific {
			if !slices.Contains(name, t) {
				rest = append(rest, t)
			}
		}
		if specific = rest; len(specific) == 0 {
			return false // only the speaker's name: nothing asked or told
		}
	}
	// The questions first: they are short, and a term missing from them
	// is stated (every specific term is in the memory's own words).
	asked := make([]bool, len(specific))
	n := 0
	var statements []string
	from := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '.', '!', '\n':
			statements = append(statements, text[from:i+1])
			from = i + 1
		case '?':
			for _, t := range textnorm.Tokens(text[from : i+1]) {
				if k := slices.Index(specific, t); k >= 0 && !asked[k] {
					asked[k] = true
					n++
				}
			}
			from = i + 1
		}
	}
	if n < len(specific) {
		return false
	}
	statements = append(statements, text[from:])
	for _, seg := range statements {
		for _, t := range textnorm.Tokens(seg) {
			if slices.Contains(specific, t) {
				return false
			}
		}
	}
	return true
}

// askRanks applies AsksOnlyShare to the kept candidates (their evidence
// still set; the caller sorts them again) and says what it did, "" when
// nothing.
//
// The turn after such a question in its session is where it is answered
// ("How often do you work out together?" — "Three times a week"): a kept
// memory that follows an asking memory in its session, said by another
// speaker (or by anyone when the memories name no speaker), ranks at
// least AnswerShare of the question's relevance before its AsksOnlyShare
// (score answers_question: the question's id).
func (r *recallRun) askRanks(kept []*candidate) string {
	moved := 0
	var questions []askedMemory
	for _, c := range kept {
		if c.ev == nil || !asksOnly(c.m.Content, c.ev.specific) {
			continue
		}
		questions = append(questions, askedMemory{c, c.relevance})
		c.relevance *= AsksOnlyShare
		c.set("asks_only", 1)
		c.set("relevance_score", c.relevance)
		moved++
	}
	if moved == 0 {
		return ""
	}
	note := fmt.Sprintf("%d memories hold the query's specific terms only in their questions: they rank × %s", moved, f3(AsksOnlyShare))
	if n := r.answerRanks(kept, questions); n > 0 {
		note += fmt.Sprintf("; %d memories that answer one (the next turn of its session) rank at least %s × its relevance_score", n, f3(AnswerShare))
	}
	return note
}

// askedMemory is a memory askRanks lowered, with its relevance before.
type askedMemory struct {
	c   *candidate
	rel float64
}

// AnswerShare: the turn that answers an asking memory ranks at least this
// share of the question's relevance (askRanks).
const AnswerShare = 0.9

// answerRanks lifts the kept memory that follows each question in its
// session (askRanks) and returns how many it lifted.
func (r *recallRun) answerRanks(kept []*candidate, questions []askedMemory) int {
	byID := make(map[int64]*candidate, len(kept))
	for _, c := range kept {
		byID[c.m.ID] = c
	}
	w := make([]int64, 2*engine.ContextWindow)
	v := r.e.View()
	defer v.Close()
	lifted := 0
	for _, q := range questions {
		if !v.Window(q.c.m.ID, w) || w[1] == index.None {
			continue
		}
		a, ok := byID[w[1]]
		if !ok || speakerOf(a.m.Content) == speakerOf(q.c.m.Content) && speakerOf(a.m.Content) != "" {
			continue
		}
		if lift := AnswerShare * q.rel; lift > a.relevance {
			a.relevance = lift
			a.set("answers_question", float64(q.c.m.ID))
			a.set("relevance_score", a.relevance)
			lifted++
		}
	}
	return lifted
}
