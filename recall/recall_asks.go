package recall

import (
	"fmt"
	"slices"
	"strings"

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
func (r *recallRun) askRanks(kept []*candidate) string {
	moved := 0
	for _, c := range kept {
		if c.ev == nil || !asksOnly(c.m.Content, c.ev.specific) {
			continue
		}
		c.relevance *= AsksOnlyShare
		c.set("asks_only", 1)
		c.set("relevance_score", c.relevance)
		moved++
	}
	if moved == 0 {
		return ""
	}
	return fmt.Sprintf("%d memories hold the query's specific terms only in their questions: they rank × %s", moved, f3(AsksOnlyShare))
}
