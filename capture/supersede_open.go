package capture

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"memtrace/engine/textnorm"
)

// The open subject path (issue 29): a change marker that takes an object
// ("stopped X", "X 그만뒀어", "no more X") links to the nearest older
// active memory naming X, with no subject lexicon. Beside the stems,
// particles and the concept table (supersede_topic.go, supersede_concept.go)
// this file reads
//
//   - loanwords across the scripts by sound: "넷플릭스 해지했어" names the
//     Netflix of "I'm subscribed to Netflix Premium", "Stopped running"
//     the 러닝 of "아침마다 한강에서 러닝해", "필라테스 그만뒀어" the Pilates
//     of "I do Pilates on Tuesdays" (loanword.go's soundKey). The
//     subject index keeps, per sound key, the terms it has seen (a
//     vocabulary, not a posting list), so the lookup costs a map read per
//     topic term;
//   - a compound's head: when a retraction names a compound ("캠핑 예약",
//     "the salsa lessons") and the older memory shares only its modifier,
//     the modifier must not head another compound there ("캠핑 의자는 …",
//     "my salsa shoes are …"): that memory is about another thing;
//   - whose a retraction is, from its "for" phrase: "No more coffee for
//     my dad" is the father's change, not the speaker's.

// forWhom: the person a change is for, after its object ("for my dad",
// "for our son"); "for me", "for now", "for good" name no one else, and a
// name after "for" is as often the new value ("ditched Trello for
// Linear") as a person, so only a person word counts.
var forWhom = regexp.MustCompile(`(?i)\bfor\s+(?:my|our|his|her|their)\s+(\pL+)`)

// beneficiaries are the person words of the "for" phrase of tail (the
// clause after the marker).
func beneficiaries(tail string) []string {
	m := forWhom.FindStringSubmatch(tail)
	if m == nil {
		return nil
	}
	return peopleOf(" " + strings.ToLower(m[1]) + " ")
}

// surfaceOf are the lower-cased words of clause whose term is one of
// terms, as written ("running" for the term run): the sound of a loanword
// is in its spelling, not its stem.
func surfaceOf(clause string, terms []string) []string {
	var out []string
	for _, w := range strings.Fields(clause) {
		w = strings.ToLower(strings.Trim(w, ",.!?\"'()"))
		if tok := textnorm.Tokens(w); len(tok) == 1 && slices.Contains(terms, tok[0]) && tok[0] != w && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// soundKeys are the keys the subject index files term under by sound:
// its key when it holds three consonants or more; for a Hangul word with
// a light verb (러닝해, 캠핑함) also the key without it; for a Latin term
// (a stem) also the keys of its inflected spellings a loanword keeps
// ("pilat" of Pilates ~ 필라테스, "camp" of camping ~ 캠핑).
func soundKeys(term string) []string {
	var out []string
	add := func(k string) {
		if len(k)-strings.Count(k, "V") >= 3 && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if !isHangul(term) {
		k := soundKey(term)
		if len(k)-strings.Count(k, "V") < 3 {
			return nil
		}
		for _, suf := range stemSounds {
			add(k + suf)
		}
		return out
	}
	add(soundKey(term))
	if b := koVerbBase(term); b != "" {
		add(soundKey(b))
	}
	return out
}

// stemSounds are the sound-key endings an English stem loses that its
// Korean loanword keeps: none, -s/-es (필라테스), -ing (캠핑, 러닝).
var stemSounds = []string{"", "S", "VS", "VN"}

// koVerbEnds are the light-verb endings a Korean loanword takes ("러닝해",
// "캠핑했어"); koVerbBase strips one, "" when w has none.
var koVerbEnds = []string{"했어요", "했어", "해요", "했다", "하는", "하고", "했", "해", "함", "한다"}

func koVerbBase(w string) string {
	if !isHangul(w) {
		return ""
	}
	for _, e := range koVerbEnds {
		if t, ok := strings.CutSuffix(w, e); ok && utf8.RuneCountInString(t) >= 2 {
			return t
		}
	}
	return ""
}

// loanSound: Hangul word ko and Latin word en (a surface word or a
// stem) are one loanword: the Korean key, with or without its light verb,
// is the English one's with one of stemSounds, of three consonants or
// more. Stricter than soundMatch (which lets any Korean key extend an
// English one of four), since here the match alone picks the fact a
// change ends: "because" is no 패키지, and 술 (drink) no Seoul.
func loanSound(ko, en string) bool {
	if !isHangul(ko) || isHangul(en) || len(en) < 3 || adjunctEnd.MatchString(en) || clauseOpener[en] || textnorm.IsStopWord(en) {
		return false
	}
	keys := soundKeys(en)
	if len(keys) == 0 {
		return false
	}
	return slices.Contains(keys, soundKey(ko)) || koVerbBase(ko) != "" && slices.Contains(keys, soundKey(koVerbBase(ko)))
}

// indexSound files term, seen by the subject index for the first time,
// under its sound keys.
func (dx *dedupeIndex) indexSound(term string) {
	if strings.IndexFunc(term, unicode.IsDigit) >= 0 || dx.rule.isSubjectName(term) {
		return
	}
	for _, k := range soundKeys(term) {
		dx.bySound[k] = append(dx.bySound[k], term)
	}
}

// soundPartners are the indexed terms of the other script that sound like
// one of words (an open marker's topic terms and their surface forms).
func (dx *dedupeIndex) soundPartners(words []string) []string {
	var out []string
	for _, w := range words {
		for _, k := range soundKeys(w) {
			for _, u := range dx.bySound[k] {
				if isHangul(u) == isHangul(w) || slices.Contains(out, u) || !loanSound(u, w) && !loanSound(w, u) {
					continue
				}
				out = append(out, u)
			}
		}
	}
	return out
}

// compoundHeads maps each term of text to the terms written right after
// it with nothing between: the heads of the compounds it modifies
// ("캠핑 의자는" → 캠핑: 의자, "my salsa shoes are" → salsa: shoe). strict
// (an older memory) takes a follower only when it reads as a noun: in
// Korean a word with a case or topic particle on a stem of two syllables
// or more, or a bare word that is not the clause's last and ends in no
// verb ending ("부산 가요", "후쿠오카 가기로" are predicates); in English
// after a determiner, a word that ends the noun phrase ("my salsa shoes
// are", "the gym every morning" is no compound).
func compoundHeads(text string, strict bool) map[string][]string {
	var out map[string][]string
	words := strings.Fields(text)
	prev, prevAt := "", -1
	for i, w := range words {
		core := strings.TrimRight(w, ",.!?;:\"')…")
		cur := ""
		if tok := textnorm.Tokens(core); len(tok) == 1 && isTopicTerm(tok[0]) {
			cur = tok[0]
		}
		if prev != "" && cur != "" && (!strict || nounAfter(words, prevAt, i, core)) {
			if out == nil {
				out = map[string][]string{}
			}
			out[prev] = append(out[prev], cur)
		}
		prev, prevAt = cur, i
		if core != w || !bareWord(core) && isHangulWord(core) {
			prev = "" // punctuation, or a Korean word with its particle, ends the noun phrase
		}
	}
	return out
}

// koNominal are the particles of a noun as a clause's topic, subject or
// object ("의자는", "라멘이").
var koNominal = []string{"은", "는", "이", "가", "을", "를", "도", "의", "에서", "랑", "이랑", "하고"}

// koPredicateEnd are endings of a bare Korean word that make it a
// predicate or a verb's form, not a noun.
var koPredicateEnd = []string{"요", "다", "어", "아", "해", "했", "고", "서", "면", "네", "야", "지요", "죠", "기로", "려고", "러", "함", "음"}

// nounAfter: words[i] (core, without punctuation) reads as the head of
// a compound whose modifier is words[m].
func nounAfter(words []string, m, i int, core string) bool {
	if isHangulWord(core) {
		for _, p := range koNominal {
			if t, ok := strings.CutSuffix(core, p); ok && utf8.RuneCountInString(t) >= 2 {
				return true
			}
		}
		return bareWord(core) && i+1 < len(words) && !slices.ContainsFunc(koPredicateEnd, func(e string) bool { return strings.HasSuffix(core, e) })
	}
	if m == 0 || !determiner[strings.ToLower(words[m-1])] {
		return false
	}
	if core != words[i] || i+1 == len(words) {
		return true // punctuation or the end closes the noun phrase
	}
	return npClose[strings.ToLower(strings.Trim(words[i+1], ",.!?"))]
}

// npClose: words after an English noun phrase (a verb of being, a
// preposition, a conjunction).
var npClose = map[string]bool{"is": true, "are": true, "was": true, "were": true, "from": true, "in": true, "at": true, "on": true,
	"for": true, "with": true, "of": true, "to": true, "and": true, "that": true, "i": true, "we": true}

// otherCompound reports whether the older memory (its compound heads)
// shares of the retraction's compound ("캠핑 예약", adjacent in its clause:
// newHeads) only modifiers that head other compounds there: "캠핑 예약
// 취소했어" against "캠핑 의자는 작년에 샀어".
func otherCompound(object, shared []string, newHeads map[string][]string, old func() map[string][]string) bool {
	if len(object) < 2 || len(shared) == 0 || slices.Contains(shared, object[len(object)-1]) {
		return false // one word, or the compound's head named
	}
	oldHeads := old()
	for _, s := range shared {
		if !slices.ContainsFunc(newHeads[s], func(h string) bool { return slices.Contains(object, h) && !slices.Contains(shared, h) }) {
			return false // no modifier of the change's compound
		}
		heads := oldHeads[s]
		if len(heads) == 0 || slices.ContainsFunc(heads, func(h string) bool { return slices.Contains(object, h) }) {
			return false
		}
	}
	return true
}

// compounds is the older memory's compound heads (compoundHeads, strict),
// read on first use.
func (f *oldFacts) compounds() map[string][]string {
	f.headsOnce.Do(func() { f.heads = compoundHeads(f.text, true) })
	return f.heads
}

// prepStart opens the prepositional object of a retraction that names the
// old value after it ("no longer at Kakao", "not with the choir anymore").
var prepStart = regexp.MustCompile(`(?i)^\s*(?:at|with|in|on|part\s+of|a\s+member\s+of)\s+(?:the\s+|my\s+|our\s+|a\s+)?`)

// prepObject are the content terms of the noun phrase after the
// preposition that opens tail (the clause after a retraction with no
// object of its own), up to where an English object ends; nil without one.
func prepObject(tail string) []string {
	loc := prepStart.FindStringIndex(tail)
	if loc == nil {
		return nil
	}
	np := tail[loc[1]:]
	if m := objectEnd.FindStringIndex(np); m != nil {
		np = np[:m[0]]
	}
	return topicTerms(ofHead(np))
}
