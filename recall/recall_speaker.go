package recall

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"memtrace/engine/textnorm"
)

// Speakers as a field (stage rerank, after the relevance gate).
//
// A memory written from a transcript opens with its speaker ("Melanie:
// I painted a lake sunrise"), and the other participant's lines name
// that speaker as the one they talk to ("Caroline: Thanks, Melanie! Is
// this your own painting?"). To BM25 both hold the name once, yet a
// question about what Melanie did is answered by her own lines: the name
// before the colon says who the memory is about, the same name inside
// another speaker's line only whom it addresses. So when the query names
// some of the speakers among the candidates, a candidate spoken by a
// speaker the query does not name ranks × SpeakerOtherShare. The gate is
// not touched (such a memory keeps its evidence; it only ranks lower), a
// query that names every speaker or none changes nothing, and a prefix
// counts as a speaker only when it opens at least speakerMinLines of the
// retrieved candidates (before the gate) — "Huge news: we moved" opens one
// memory and names nobody.

// SpeakerOtherShare is the relevance share kept by a memory spoken by a
// speaker the query does not name, when it names another one.
const SpeakerOtherShare = 0.85

// speakerMinLines: a "Name:" prefix is a speaker when it opens at least
// this many candidates.
const speakerMinLines = 2

// speakerOf is the transcript speaker a memory's text opens with — one or
// two capitalised words (letters, digits, ' and -), or one Hangul name of
// two to four syllables ("민지: 오늘 …"), and a colon and a space within
// the first 40 bytes — or "".
func speakerOf(text string) string {
	i := strings.IndexByte(text, ':')
	if i <= 0 || i > 40 || i+1 >= len(text) || text[i+1] != ' ' {
		return ""
	}
	name := text[:i]
	words := strings.Fields(name)
	if len(words) == 0 || len(words) > 2 || strings.Join(words, " ") != name {
		return ""
	}
	if len(words) == 1 && hangulName(name) {
		return name
	}
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) {
			return ""
		}
		for _, c := range w {
			if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '\'' && c != '-' {
				return ""
			}
		}
	}
	return name
}

// speakerRanks applies the speaker field to the kept candidates (the
// caller sorts them again), the speakers counted over every candidate the
// gate judged (pool), and says what it did, "" when nothing.
func (r *recallRun) speakerRanks(pool, kept []*candidate) string {
	lines := map[string]int{}
	for _, c := range pool {
		if s := speakerOf(c.m.Content); s != "" {
			lines[s]++
		}
	}
	var speakers, named []string
	for s, n := range lines {
		if n < speakerMinLines {
			continue
		}
		speakers = append(speakers, s)
		if r.namesSpeaker(s) {
			named = append(named, s)
		}
	}
	if len(named) == 0 || len(named) == len(speakers) {
		return ""
	}
	slices.Sort(speakers)
	slices.Sort(named)
	moved := 0
	for _, c := range kept {
		s := speakerOf(c.m.Content)
		if s == "" || lines[s] < speakerMinLines || slices.Contains(named, s) {
			continue
		}
		c.relevance *= SpeakerOtherShare
		c.set("speaker_other", 1)
		c.set("relevance_score", c.relevance)
		moved++
	}
	if moved == 0 {
		return ""
	}
	return fmt.Sprintf("the query names speaker %s of %s: %d memories spoken by another rank × %s",
		strings.Join(named, ", "), strings.Join(speakers, ", "), moved, f3(SpeakerOtherShare))
}

// namesSpeaker reports whether the query names speaker s: every index term
// of the name is a query term.
func (r *recallRun) namesSpeaker(s string) bool {
	ts := textnorm.Tokens(s)
	if len(ts) == 0 {
		return false
	}
	for _, t := range ts {
		if !slices.Contains(r.terms, t) {
			return false
		}
	}
	return true
}

// hangulName: two to four Hangul syllables and nothing else.
func hangulName(w string) bool {
	n := utf8.RuneCountInString(w)
	if n < 2 || n > 4 {
		return false
	}
	for _, c := range w {
		if !unicode.Is(unicode.Hangul, c) {
			return false
		}
	}
	return true
}
