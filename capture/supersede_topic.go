package capture

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"memtrace/engine/textnorm"
)

// Reading what a change is about from the sentence, not from every word of
// the message. The rule finds the first clause (sentences, and the parts
// of a sentence split at a dash, a semicolon or a comma) that carries a
// change marker; the topic of the change is that clause's
//
//   - head: the words before the marker, after the last colon ("Huge
//     news: we moved to …" → "we"), without adverbs (-ly, 드디어, 이번 …)
//     and time or place adjuncts (이번 달에, 3월부터);
//   - the marker's object: the words inside the marker ("moved the
//     standup to", "이제 안경 안 써") and after it up to the first
//     preposition, conjunction, number or time word ("stopped running
//     after the surgery" → running; "switched my dotfiles from GitHub to
//     Gitea" → dotfiles, GitHub);
//
// less the destination — the new value after "to"/"into" or the word
// marked (으)로 with the bare words before it ("인천 송도로"), which an older
// fact does not name. Words of other clauses ("… after the Redis upgrade",
// "부산 팀이랑 합쳐서") are incidental and never pick the subject.

// topicReading is what topicOf reads from the marker's clause.
type topicReading struct {
	terms   []string // content terms of the head and the object (textnorm.Tokens), destination excluded
	span    string   // head + object + destination: where lexicon subjects are looked for
	subject string   // head + object: where people are looked for
	object  []string // the terms of the marker's object (after the head), or terms when it has none of its own
	dest    []string // tokens of the destination (numbers kept), the new value
	// destText: the destination as written, for its head (valueHead)
	destText string
	names    []string // names of the head's leading noun phrase (lower-cased)
	mover    bool     // the head names no thing, only the speaker or people ("we", "my sister")
}

// clauseSplit separates the clauses of a message.
var clauseSplit = regexp.MustCompile(`[.!?;…\n]+(?:\s|$)|\s[—–-]+\s|[—]|,\s|[!?]+`)

// clauses returns the clauses of text, in order, without empty ones.
func clauses(text string) []string {
	var out []string
	for _, c := range clauseSplit.Split(text, -1) {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, scriptSwitch(c)...)
		}
	}
	return out
}

// changeClauses are the clauses of a new message in which a marker is
// looked for: those of clauses, with an apposition "not X" of three
// words or fewer ("I'm on Android now, not iPhone") kept in the clause
// before, where it names the old value. (An older memory's "I'm
// gluten-free, not coeliac" stays two clauses: its negation is of
// coeliac only.)
func changeClauses(text string) []string {
	cs := clauses(text)
	out := cs[:0:0]
	for _, c := range cs {
		if rest, ok := strings.CutPrefix(c, "not "); ok && len(out) > 0 && len(strings.Fields(rest)) <= 3 {
			out[len(out)-1] += ", " + c
			continue
		}
		out = append(out, c)
	}
	return out
}

// objectEnd ends an English object: a preposition, a conjunction, a
// number (a word that starts with a digit: "K5" is a name) or a time word.
var objectEnd = regexp.MustCompile(`(?i)\b(?:after|before|because|since|when|while|for|on|in|at|to|into|with|as|by|last|this|next|ago|and|but|so|then|now|yesterday|today|recently|already|anymore|any\s*more|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several|couple)\b|\b\d`) // a number word, not the digit of a model name ("the K5")

// mixedClause starts an English clause after a Korean one.
var mixedClause = regexp.MustCompile(`(?i)\b(?:and|but|so|then|because|she|he|they|we|i|it|my|our)\b`)

// destEnd ends an English destination ("to rack 4 after …").
var destEnd = regexp.MustCompile(`(?i)\b(?:after|before|because|since|when|while|until|for|on|in|at|with|as|by|last|this|next|ago|and|but|so|then|now|yesterday|today|recently)\b`)

// adjunctEnd ends the part of a clause that may name a lexicon subject:
// a clause-level adjunct ("… after the Redis upgrade") is incidental.
var adjunctEnd = regexp.MustCompile(`(?i)\b(?:after|before|because|since|when|while|until|though|although)\b|때문에|하고\s*나서|후에|전에`)

// subordinator opens a clause inside an English sentence: a marker's
// head starts after the last one before it.
var subordinator = regexp.MustCompile(`(?i)\b(?:because|since|when|whenever|while|although|though|cause|coz|cuz|so\s+that|now\s+that)\s`)

// destStart opens an English destination ("to KT", "into a flat").
var destStart = regexp.MustCompile(`(?i)^\s*(?:to|into)\b`)

// notTopic are words that never carry the subject of a change: generic
// verbs, contractions, negations, calendar and time words (EN, KO).
var notTopic = map[string]bool{
	"use": true, "go": true, "do": true, "make": true, "get": true, "have": true, "take": true, "try": true,
	"keep": true, "be": true, "re": true, "ve": true, "ll": true, "don": true, "didn": true, "doesn": true,
	"isn": true, "aren": true, "wasn": true, "won": true, "not": true, "never": true, "just": true, "really": true,
	"only": true, "still": true, "even": true, "btw": true,
	"dont": true, "didnt": true, "doesnt": true, "isnt": true, "arent": true, "wasnt": true, "havent": true, "hasnt": true, "cant": true, // voice-typed, no apostrophe
	"huge": true, "news": true, "big": true, "update": true, "guess": true, "well": true, "ok": true, "okay": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true,
	"january": true, "february": true, "march": true, "april": true, "may": true, "june": true, "july": true, "august": true,
	"september": true, "october": true, "november": true, "december": true, "weekend": true, "week": true,
	"month": true, "year": true, "day": true, "morning": true, "night": true, "tomorrow": true, "last": true,
	"이번": true, "지난": true, "다음": true, "요즘": true, "요즘은": true, "오늘": true, "어제": true, "드디어": true,
	"결국": true, "이제": true, "좀": true, "진짜": true, "너무": true, "완전": true, "그냥": true, "나": true, "저": true,
	"우리": true, "안": true, "못": true, "더": true, "이상": true, "대박": true,
}

// koAdjunct: a Korean word ending in one of these is a time or place
// adjunct (이번 달에, 3월부터, 무릎 때문에), not the subject.
var koAdjunct = []string{"에", "에는", "부터", "까지", "동안", "쯤", "때문에"}

// koDest: a Korean word ending in one of these names the new value.
var koDest = []string{"으로", "로"}

// topicOf reads the topic of the change marked at span [s, e) of clause,
// obj being the words inside the marker that are its object; intransitive:
// the marker's verb takes no object (see changeMarker); retract: it ends
// what it names, so a Korean one is followed by no new value and what
// follows it is another clause ("취소했어 ㅠ Kevin's hagwon won't …").
func topicOf(clause string, s, e int, obj string, ko, intransitive, retract bool) topicReading {
	head := clause[:s]
	if i := strings.LastIndex(head, ":"); i >= 0 {
		head = head[i+1:]
	}
	if m := subordinator.FindAllStringIndex(head, -1); m != nil {
		// "The deploy failed because the staging DB port changed to
		// 5433": the marker's clause opens after the subordinator; the
		// deploy is no word of the change.
		head = head[m[len(m)-1][1]:]
	}
	tail := clause[e:]
	lexTail := tail
	if m := adjunctEnd.FindStringIndex(lexTail); m != nil {
		lexTail = lexTail[:m[0]]
	}
	var dest string
	if ko {
		// Korean is verb-final: what follows the marker is the rest of
		// the verb, or the new value ("바꿨어 갤럭시 S26으로"); an English
		// conjunction or pronoun starts another clause ("… 잡아줌 and she
		// gave me …").
		if m := mixedClause.FindStringIndex(tail); m != nil {
			tail = tail[:m[0]]
		}
		if retract {
			tail = ""
		}
		var kept []string
		for _, w := range strings.Fields(tail) {
			if hasHangulSuffix(w, koDest) || !isHangulWord(w) {
				kept = append(kept, w)
			}
		}
		tail = strings.Join(kept, " ")
	} else if loc := destStart.FindStringIndex(tail); loc != nil || strings.HasSuffix(strings.ToLower(strings.TrimSpace(clause[s:e])), " to") ||
		strings.HasSuffix(strings.ToLower(strings.TrimSpace(clause[s:e])), " into") {
		if loc != nil {
			tail = tail[loc[1]:]
		}
		end := len(tail)
		if m := destEnd.FindStringIndex(tail); m != nil && m[0] > 0 {
			end = m[0]
		}
		dest, tail = tail[:end], ""
	} else if m := objectEnd.FindStringIndex(tail); m != nil {
		tail = tail[:m[0]]
	}
	if !ko {
		tail = ofHead(tail)
	}
	var t topicReading
	var destWords []string
	words := strings.Fields(head + " " + obj + " " + tail)
	objEnd := len(strings.Fields(head)) + len(strings.Fields(obj)) // the object is never the new value
	// Korean: the (으)로 word is the new value, with the bare Latin words
	// before it ("GitHub Actions로") or the noun before a number ("아이폰 15로");
	// before an intransitive marker, with every bare word before it ("인천
	// 송도로 이사했어": nothing moved but the speaker).
	for i := len(words) - 1; i >= 0; i-- {
		if !hasHangulSuffix(words[i], koDest) {
			continue
		}
		j, floor := i, 0
		if i >= objEnd {
			floor = objEnd
		}
		for j > floor && (bareWord(words[j-1]) || intransitive && strings.HasSuffix(words[j-1], "도")) && // 경기도, 제주도
			(intransitive || !isHangulWord(words[j-1]) || startsWithDigit(words[j])) &&
			matchAny(" "+strings.ToLower(words[j-1])+" ", personWords) == "" { // "엄마 서울로 이사": 엄마 is who moved

			j--
		}
		destWords = append(destWords, words[j:i+1]...)
		words = append(words[:j:j], words[i+1:]...)
		break
	}
	keep := slices.DeleteFunc(words, func(w string) bool { return hasHangulSuffix(w, koAdjunct) || isAdverb(w) })
	dest += " " + strings.Join(destWords, " ")
	t.subject = strings.Join(keep, " ")
	t.span = t.subject + " " + dest
	if !ko {
		t.span += " " + lexTail
	}
	t.terms = topicTerms(t.subject)
	destTerms := topicTerms(dest)
	t.dest, t.destText = textnorm.Tokens(dest), dest
	t.object = slices.DeleteFunc(topicTerms(obj+" "+tail), func(w string) bool { return slices.Contains(destTerms, w) })
	if len(t.object) == 0 {
		t.object = t.terms
	}
	head = strings.Join(slices.DeleteFunc(strings.Fields(head), func(w string) bool {
		return hasHangulSuffix(w, koAdjunct) || isAdverb(w) || slices.Contains(destWords, w) ||
			intransitive && hasHangulSuffix(w, []string{"에서"}) // the origin of a move ("Gimcheon에서 … 이사"), not a thing moved
	}), " ")
	t.names = leadingNames(head)
	t.mover = moverHead(head)
	return t
}

func isHangulWord(w string) bool {
	r, _ := utf8.DecodeLastRuneInString(w)
	return unicode.Is(unicode.Hangul, r)
}

func startsWithDigit(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsDigit(r)
}

// topicTerms are the content terms of s that may carry a subject.
func topicTerms(s string) []string {
	var out []string
	for _, w := range textnorm.Tokens(s) {
		if isTopicTerm(w) {
			out = append(out, w)
		}
	}
	return out
}

// isTopicTerm: term w (a token) may carry a subject.
func isTopicTerm(w string) bool {
	return !notTopic[w] && (utf8.RuneCountInString(w) >= 2 || koNoun1(w)) && strings.IndexFunc(w, unicode.IsLetter) >= 0
}

// hasHangulSuffix: w is Hangul and ends in one of sufs (a particle).
func hasHangulSuffix(w string, sufs []string) bool {
	w = strings.TrimRightFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, s := range sufs {
		if strings.HasSuffix(w, s) && len(w) > len(s) {
			r, _ := utf8.DecodeLastRuneInString(strings.TrimSuffix(w, s))
			if unicode.Is(unicode.Hangul, r) || unicode.IsDigit(r) || unicode.IsLetter(r) {
				return true
			}
		}
	}
	return false
}

// bareWord: a word without a Korean particle (a Latin word, a number, a
// Hangul noun that ends the noun phrase of the next word).
func bareWord(w string) bool {
	r, _ := utf8.DecodeLastRuneInString(w)
	if !unicode.Is(unicode.Hangul, r) {
		return true
	}
	for _, p := range []string{"에서", "을", "를", "은", "는", "이", "가", "에", "도", "의"} {
		if strings.HasSuffix(w, p) {
			return false
		}
	}
	return true
}

// isAdverb: an English -ly adverb ("finally", "recently").
//
// A capitalised -ly word is a name ("Grammarly", "Bubbly") unless it
// ends in a productive adverb suffix ("Finally", "Recently", "Luckily").
func isAdverb(w string) bool {
	t := strings.Trim(w, ",.!?")
	lw := strings.ToLower(t)
	if len(lw) <= 4 || !strings.HasSuffix(lw, "ly") || lw == "family" || lw == "italy" {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(t); unicode.IsUpper(r) {
		for _, suf := range []string{"ally", "ully", "ously", "ively", "ently", "antly", "ately", "edly", "ily", "ingly", "ckly", "ntly"} {
			if strings.HasSuffix(lw, suf) {
				return true
			}
		}
		return false
	}
	return true
}

// ofRE splits an English object at "of".
var ofRE = regexp.MustCompile(`(?i)\bof\b`)

// partWords name a part or a quantity of what follows "of".
var partWords = map[string]bool{"rest": true, "most": true, "all": true, "half": true, "part": true, "remainder": true, "end": true,
	"lot": true, "lots": true, "bunch": true, "couple": true, "piece": true, "bit": true, "kind": true, "sort": true, "type": true, "some": true}

// ofHead is the head of an English object "X of Y": X names the thing
// ("done with the first chapter of the Rust book" ends the chapter, not
// the book), unless X is only a part or a quantity word ("cancelled the
// rest of the tour" ends the tour).
func ofHead(tail string) string {
	loc := ofRE.FindStringIndex(tail)
	if loc == nil {
		return tail
	}
	before := tail[:loc[0]]
	for _, w := range strings.Fields(strings.ToLower(before)) {
		if w = strings.Trim(w, ",.!?\"'"); !partWords[w] && !textnorm.IsStopWord(w) && len(topicTerms(w)) > 0 {
			return before
		}
	}
	return tail[loc[1]:]
}

// leadingNames are the names of head's leading noun phrase: capitalised
// words before the first lower-case content word. A clause's first word is
// a name only when the whole phrase is capitalised ("Hana started …"):
// sentence-initial capitals ("Huge news:", "Last Friday") and calendar
// words are not names.
func leadingNames(head string) []string {
	words := strings.Fields(head)
	var np []string
	for _, w := range words {
		w = strings.Trim(w, ",.!?\"'()")
		if w == "" {
			continue
		}
		r, _ := utf8.DecodeRuneInString(w)
		lw := strings.ToLower(w)
		if !unicode.IsUpper(r) && !isStopLike(lw) && !textnorm.IsStopWord(lw) || npEnd[lw] && len(np) > 0 {
			break // a preposition ends the subject: "Living in Jinju now" names no one
		}
		np = append(np, w)
	}
	allCaps := len(np) == len(words) && len(np) > 0
	var out []string
	for i, w := range np {
		r, _ := utf8.DecodeRuneInString(w)
		lw := strings.ToLower(w)
		// A month is a person's name only as the subject, not as a date
		// ("June moved …" vs "In June we …", "May 3"); a capital right
		// after a determiner names a thing ("my Pixel", "the Han river").
		person := months[lw] && !monthAsDate(words, i)
		if !unicode.IsUpper(r) || selfWords[lw] || thingName(w) || isStopLike(lw) || notTopic[lw] && !person || i == 0 && !allCaps ||
			months[lw] && !person || i > 0 && determiner[strings.ToLower(np[i-1])] {
			continue
		}
		out = append(out, lw)
	}
	return out
}

// npEnd are the prepositions that end a clause's subject noun phrase:
// the capitals after one are a place or a thing ("Living in Jinju",
// "I'm on a Sony Xperia"), and a first word before one is no name.
var npEnd = map[string]bool{"in": true, "on": true, "at": true, "to": true, "into": true, "from": true, "for": true,
	"with": true, "by": true, "near": true, "of": true, "about": true, "after": true, "before": true, "since": true}

// determiner: a word before a capital that makes it a thing's name.
var determiner = map[string]bool{"my": true, "our": true, "the": true, "a": true, "an": true, "your": true, "their": true, "his": true, "her": true}

// thirdPerson: the head opens with a third-person pronoun ("he quit his
// office job", "she moved to Busan", "걔 이사했어"): the change is someone
// else's, and an older memory of the user's is not about it.
func thirdPerson(head string) bool {
	w := strings.Fields(strings.ToLower(head))
	if len(w) == 0 {
		return false
	}
	first := strings.Trim(w[0], ",.!?\"'")
	for _, c := range []string{"'s", "’s", "'re", "’re", "'d", "'ll"} {
		first = strings.TrimSuffix(first, c)
	}
	switch first {
	case "he", "she", "they", "his", "her", "their", "그는", "그가", "그녀는", "그녀가", "걔", "걔는", "걔가", "쟤는", "그분은", "그분이":
		return true
	}
	return false
}

// moverHead: the head names only the speaker, people or nothing ("we
// finally", "my sister", "Hana"), so a move moves them — not a thing ("the
// build runner moved to rack 4").
func moverHead(head string) bool {
	for _, w := range topicTerms(head) {
		if matchAny(" "+w+" ", personWords) != "" {
			continue
		}
		if slices.ContainsFunc(leadingNames(head), func(n string) bool { return n == w || textnorm.Stem(n) == w }) {
			continue
		}
		return false
	}
	return true
}
