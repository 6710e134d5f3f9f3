package capture

import (
	"regexp"
	"strings"
	"sync"
	"unicode"

	"memtrace/engine/filter"
)

// How a line or a sentence reads, for readActs: a paste (fences, code,
// structured lines), a standing instruction or a hypothetical, a request
// to the assistant, a question, or chatter, in English and Korean.

// fenceLine opens or closes a fenced block.
func fenceLine(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

func countNonEmpty(lines []string) int {
	n := 0
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// codeLine reports whether line reads as code, configuration, a stack
// trace or a log line rather than prose: indented, symbol-dense, ending
// with a block or statement delimiter, or led by a keyword of a
// programming or query language.
//
// Indentation counts only inside a block of several lines (block): a
// one-line message with leading spaces is prose.
func codeLine(line string, block bool) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return false
	}
	if block && (strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "  ")) || machineLine(line, block) {
		return true
	}
	switch t[len(t)-1] {
	case '{', '}', ';', '[', '\\':
		return true
	case '(', ')', ']':
		if callParen.MatchString(t) {
			return true // main(), fetch(conn, since)
		}
	}
	sym, letters := 0, 0
	for _, r := range t {
		switch {
		case strings.ContainsRune("{}[]()<>=;*&|$#`\\_/", r):
			sym++
		case unicode.IsLetter(r):
			letters++
		}
	}
	if letters == 0 || sym*4 >= letters {
		return true
	}
	return codeLead.MatchString(t)
}

var callParen = regexp.MustCompile(`[A-Za-z0-9_]\(`)

var codeLead = regexp.MustCompile(`^(?:func |def |class |import |package |return |var |const |let |from \S+ import |#include|SELECT |FROM |WHERE |JOIN |LEFT JOIN |INNER JOIN |GROUP BY |ORDER BY |INSERT |UPDATE |DELETE |CREATE |ALTER |Traceback |File "|at \S+\(|[A-Z][A-Za-z]*(?:Error|Exception): )`)

// structuredLine reports a bullet, numbered or key: value line.
func structuredLine(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return false
	}
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "• ") {
		return true
	}
	if i := strings.IndexAny(t, "0123456789"); i == 0 {
		if j := strings.IndexAny(t, ".)"); j > 0 && j < 4 {
			return true
		}
	}
	if k, _, ok := strings.Cut(t, ":"); ok && len(k) > 0 && len(k) <= 24 && !strings.Contains(k, " ") {
		return true
	}
	return codeLine(line, true)
}

// separatorLine is a line of dashes or equals signs, with or without a
// label ("--- paste ---").
func separatorLine(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "---") || strings.HasPrefix(t, "===")
}

// pasteIntro reports a sentence announcing pasted material.
func pasteIntro(s string) bool {
	return kwFind(lexNorm(s), pasteIntroLexicon) != ""
}

var pasteIntroLexicon = lexicon{
	en: []string{"here's", "here is", "heres", "paste*", "attached", "below"},
	ko: []string{"붙여넣", "붙여 넣", "붙일게", "첨부", "아래"},
}

// standingLexicon marks a standing instruction or rule: a sentence with
// one is a statement whatever its grammatical form.
var standingLexicon = sync.OnceValue(func() lexicon {
	return lexicon{
		en: []string{"always", "never", "don't", "dont", "do not", "from now on", "every time", "whenever", "going forward",
			"in the future", "when i", "unless i", "make sure", "stop"},
		ko: []string{"앞으로", "항상", "매번", "마다", "지 마", "지마", "지 말", "말고", "할 때", "때는"},
	}
})

// hypotheticalLexicon marks a premise, not a fact.
var hypotheticalLexicon = sync.OnceValue(func() lexicon {
	return lexicon{
		en: []string{"imagine", "suppose", "pretend", "what if", "hypothetically", "if i were", "if i was", "let's say"},
		ko: []string{"만약", "만일", "상상해", "가정해", "라고 치", "다고 치"},
	}
})

// requestHeads open a request to the assistant at the head of a clause
// ("ok unrelated, can you look at this", "tell me what's wrong"); inside a
// clause they are not one ("… in case you ever help me fill in a form").
var requestHeads = []string{"can you", "could you", "would you", "will you", "can u", "could u", "tell me", "show me",
	"give me", "help me", "let me know", "i need you to", "i want you to", "walk me through"}

// mayRequest is headRequest's cheap pre-check: every request head names
// the assistant or the speaker.
func mayRequest(norm string) bool {
	return strings.Contains(norm, " you ") || strings.Contains(norm, " me ") || strings.Contains(norm, " u ")
}

func hasHangul(s string) bool {
	for _, r := range s {
		if r >= 0xAC00 && r <= 0xD7A3 {
			return true
		}
	}
	return false
}

// headRequest reports a clause of s led by one of requestHeads (after the
// lead fillers).
func headRequest(s string) bool {
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == '—' || r == ':' }) {
		words := strings.Fields(lexNorm(p))
		for len(words) > 1 && leadFillers[words[0]] {
			words = words[1:]
		}
		head := " " + strings.Join(words[:min(len(words), 5)], " ") + " "
		for _, h := range requestHeads {
			if strings.HasPrefix(head, " "+h+" ") {
				return true
			}
		}
	}
	return false
}

// taskRequest reports an imperative task led by a task verb whose object
// is this one thing — deictic, indefinite or the speaker ("summarise this
// thread", "write a haiku", "make me a checklist", "check my query"). An
// imperative about a kind of thing ("write the store tests as
// table-driven tests") is an instruction and stays a statement.
func taskRequest(words []string) bool {
	if len(words) < 2 || !taskVerbs[words[0]] {
		return false
	}
	switch words[1] {
	case "this", "that", "these", "those", "it", "me", "us", "a", "an", "some", "something", "one", "my", "our", "what", "how", "why", "if", "whether":
		return true
	}
	return false
}

// taskVerbs lead an imperative request to the assistant.
var taskVerbs = map[string]bool{
	"summarise": true, "summarize": true, "translate": true, "explain": true, "write": true, "draft": true, "fix": true,
	"review": true, "check": true, "show": true, "list": true, "give": true, "make": true, "convert": true,
	"refactor": true, "rewrite": true, "suggest": true, "recommend": true, "help": true, "tell": true, "find": true,
	"look": true, "compare": true, "generate": true, "create": true, "debug": true, "optimise": true, "optimize": true,
	"proofread": true, "edit": true, "format": true, "calculate": true, "describe": true, "outline": true, "search": true,
}

// leadFillers are words a sentence may open with before its real head
// ("ok so …", "hey quick q.", "also …").
var leadFillers = map[string]bool{
	"ok": true, "okay": true, "so": true, "also": true, "and": true, "hey": true, "btw": true, "um": true, "oh": true,
	"anyway": true, "quick": true, "q": true, "actually": true, "but": true, "morning": true, "hi": true, "hmm": true,
	"please": true, "pls": true, "plz": true, "kindly": true, "now": true, "then": true, "unrelated": true, "random": true,
}

var whWords = map[string]bool{"what": true, "what's": true, "whats": true, "how": true, "how's": true, "why": true,
	"where": true, "where's": true, "which": true, "who": true, "who's": true, "whom": true}

var whFollow = map[string]bool{"do": true, "does": true, "did": true, "is": true, "are": true, "was": true, "were": true,
	"can": true, "could": true, "should": true, "would": true, "will": true, "long": true, "much": true, "many": true,
	"often": true, "far": true, "old": true, "come": true, "about": true, "to": true, "the": true, "a": true, "an": true, "kind": true}

var auxLead = map[string]bool{"do": true, "does": true, "did": true, "is": true, "are": true, "can": true, "could": true,
	"would": true, "should": true, "will": true, "shall": true, "have": true, "has": true, "any": true, "am": true}

var pronouns = map[string]bool{"i": true, "you": true, "we": true, "it": true, "this": true, "that": true, "there": true,
	"they": true, "u": true, "my": true, "he": true, "she": true}

// koQuestionEnds end a Korean question (after trailing tildes, laughter
// and tears are removed): 뭐야, …까(요), …나요, …니, …냐, 어때, …는지.
var koQuestionEnds = []string{"뭐야", "뭐지", "뭐예요", "뭐에요", "뭔가요", "뭔데", "뭐임", "까", "까요", "나요", "니", "냐",
	"어때", "어때요", "는지", "던가", "을래", "할래"}

// koQuestion: s ends in a Korean question ending. An ending that is a
// suffix (…나요, …니, …까) must follow a stem: a last word that is the
// ending alone is a verb ("두드러기 나요", hives break out: 나다 + 요).
func koQuestion(s string) bool {
	t := trimKoTail(s)
	last := t[strings.LastIndexFunc(t, unicode.IsSpace)+1:]
	for _, e := range koQuestionEnds {
		if strings.HasSuffix(t, e) && (last != e || !koSuffixEnd[e]) {
			return true
		}
	}
	return false
}

// koSuffixEnd are the question endings of koQuestionEnds that attach to a
// stem.
var koSuffixEnd = map[string]bool{"까": true, "까요": true, "나요": true, "니": true, "냐": true, "는지": true, "던가": true, "을래": true}

// koRequestMarks are a giving auxiliary in the imperative (…해줘,
// …주세요, …줄래) or a plea; koRequest wants one followed by a boundary.
var koRequestMarks = []string{"줘", "주세요", "줄래", "주라", "부탁해", "부탁드려", "부탁드립니다"}

func koRequest(s string) bool {
	for _, m := range koRequestMarks {
		for from := 0; ; {
			i := strings.Index(s[from:], m)
			if i < 0 {
				break
			}
			rest := strings.TrimPrefix(strings.TrimPrefix(s[from+i+len(m):], "요"), "봐")
			if rest == "" || strings.ContainsRune(" .!?~:,", rune(rest[0])) {
				return true
			}
			from += i + len(m)
		}
	}
	return false
}

// actOf classifies one sentence s of line.
func actOf(s, line string) string {
	norm := lexNorm(s)
	if kwFind(norm, hypotheticalLexicon()) != "" || counterfactual(s, norm) {
		return actHypothetical
	}
	question := endsWithQuestionMark(s, line)
	standing := kwFind(norm, standingLexicon()) != ""
	if standing && !question {
		return actStatement
	}
	words := strings.Fields(norm)
	for len(words) > 1 && leadFillers[words[0]] {
		words = words[1:]
	}
	hangul := hasHangul(s)
	clauses := strings.ContainsAny(s, ",;:—")
	if question || englishQuestion(words) || askingLead(words) || clauses && clauseQuestion(s) || hangul && (koQuestion(s) || koWhQuestion(s)) {
		return actQuestion
	}
	if taskRequest(words) || mayRequest(norm) && (headRequest(s) || politeRequest.MatchString(norm)) || wantRequest(words) || hangul && (koRequest(s) || koWishRequest.MatchString(s)) {
		return actRequest
	}
	if chatter(s) {
		return actChatter
	}
	return actStatement
}

// englishQuestion reports an interrogative head: a wh-word followed by an
// auxiliary or a quantity ("how long …", "what's …"), or an auxiliary
// followed by a pronoun ("should I …", "can you …").
func englishQuestion(words []string) bool {
	if len(words) < 2 {
		return false
	}
	w0, w1 := words[0], words[1]
	if whWords[w0] && (whFollow[w1] || strings.Contains(w0, "'") || w0 == "whats") {
		return true
	}
	if whWords[w0] {
		// "which terminal font do people use": an auxiliary before any
		// subject pronoun ("what we did was fun" is a statement).
		for _, w := range words[1:min(len(words), 4)] {
			if pronouns[w] {
				break
			}
			if auxLead[w] {
				return true
			}
		}
	}
	return auxLead[w0] && pronouns[w1]
}

// clauseQuestion reports a later clause of s with an interrogative head
// ("quick python thing, why does this print …").
func clauseQuestion(s string) bool {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == '—' || r == ':' })
	for _, p := range parts[min(1, len(parts)):] {
		if englishQuestion(strings.Fields(lexNorm(p))) {
			return true
		}
	}
	return false
}

func endsWithQuestionMark(s, line string) bool {
	i := strings.Index(line, s)
	if i < 0 {
		return false
	}
	rest := strings.TrimLeft(line[i+len(s):], " \"')]}")
	return strings.HasPrefix(rest, "?") || strings.HasPrefix(rest, "？")
}

// trimKoTail removes what follows the last Hangul syllable of a sentence
// (tildes, ㅋㅋ, ㅠㅠ, emoji, punctuation).
func trimKoTail(s string) string {
	return strings.TrimRightFunc(s, func(r rune) bool { return !(r >= 0xAC00 && r <= 0xD7A3) })
}

// chatterWords are acknowledgements, greetings and interjections: words
// that carry nothing to remember.
var chatterWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"ok", "okay", "thanks", "thank", "thx", "ty", "cheers", "lol", "lmao", "haha", "hahaha",
		"hey", "hi", "hello", "yo", "sup", "morning", "night", "bye", "yes", "yeah", "ya", "yep", "yup", "nope", "nah",
		"sure", "cool", "nice", "great", "perfect", "awesome", "got", "right", "ahh", "hmm", "ugh", "wow", "noted",
		"fine", "alright", "good", "there", "omg", "wait", "well", "oops", "damn", "yay", "congrats",
		"안녕", "안녕하세요", "고마워", "고마워요", "땡큐", "화이팅", "파이팅", "굿", "오케이", "감사", "감사해요", "응응", "넹넹", "좋은"} {
		m[w] = true
	}
	return m
}()

// chatter reports a sentence with fewer than two content words once the
// acknowledgement, greeting and interjection words are set aside — a
// number counting as one when the sentence keeps three words or more.
func chatter(s string) bool {
	norm := lexNorm(s)
	for _, g := range []string{" good morning ", " good night ", " 좋은 아침 ", " 좋은 밤 ", " 잘 자 "} {
		norm = strings.ReplaceAll(norm, g, " ")
	}
	var kept []string
	numbers := 0
	for _, w := range strings.Fields(norm) {
		if !chatterWords[w] {
			kept = append(kept, w)
			if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
				numbers++
			}
		}
	}
	// A number beside a content word states something ("my birthday is
	// May 3", where "may" is a stop word); a number alone does not.
	n := filter.ContentWords(strings.Join(kept, " "), 2)
	return n < 2 && !(n == 1 && numbers > 0 && len(kept) >= 3) && !(n == 1 && selfDescription(norm))
}

// selfDescription: a short copular statement of the speaker about
// themself, "나 비건이야", "저 교사예요", "나 학생이고", "I'm vegan": one content word, but
// a fact about the user, not an interjection. It is the one self-statement
// detector of engine/filter (SelfStatement), asked for its copular reading.
func selfDescription(norm string) bool {
	if n := len(strings.Fields(norm)); n < 2 || n > 3 {
		return false
	}
	_, copular := filter.SelfStatement(norm)
	return copular
}

// Indirect requests and questions (issue 29): a task for the assistant
// wrapped in a politeness frame — "I was wondering if you could …", "I'd
// appreciate it if you could …", "it would be great if you could …" —
// is a request however it opens; "any idea why …", "any tips for …" ask
// without an auxiliary. The frame must name the assistant as the one
// who could ("if you could / can / would"): "I wonder if I should have
// studied law" is the speaker's own musing and stays a statement.
var politeRequest = regexp.MustCompile(`\b(?:wonder|wondering|wondered|appreciate|appreciated|grateful|great|helpful|nice|love it|happy|possible)\b(?: \S+){0,4} if you (?:could|can|would|'d|might|have time|get a chance)\b`)

// askingLeads open a question without an auxiliary ("any idea why …",
// "any tips for …", "no idea if …" is not one: it is a statement).
var askingLeads = map[string]bool{"idea": true, "ideas": true, "clue": true, "tips": true, "tip": true, "suggestions": true,
	"recommendations": true, "advice": true, "thoughts": true}

// askingLead: the words (fillers removed) open with "any" and an asking
// noun ("any idea why my sourdough …", "any tips on …").
func askingLead(words []string) bool {
	return len(words) >= 3 && words[0] == "any" && askingLeads[words[1]]
}

// koWhWords are Korean interrogative words (with their particles) that
// make a sentence a question when they stand near its plain final
// ending ("뭐가 문제야", "왜 안 돼", "어디서 사", "누가 만들었어"). 몇 and
// 얼마나 are left out: "몇 년 전에 …" and "얼마나 좋았는데" state things.
var koWhWords = map[string]bool{"뭐가": true, "뭘": true, "뭐를": true, "왜": true, "어디": true, "어디가": true, "어디서": true,
	"어디에": true, "어디로": true, "누가": true, "누구": true, "누구한테": true, "무슨": true, "어떤": true, "어느": true,
	"어떻게": true, "언제": true}

// koPlainEnds are the plain (non-interrogative in form) sentence endings
// a Korean question without a question mark often takes.
var koPlainEnds = []string{"야", "예요", "에요", "어", "어요", "아", "아요", "지", "죠", "돼", "대", "래", "해"}

// koWhQuestion: one of the last three words of s is an interrogative word
// and s ends in a plain ending — a question sent without its mark.
func koWhQuestion(s string) bool {
	t := trimKoTail(s)
	words := strings.Fields(t)
	if len(words) < 2 {
		return false
	}
	ends := false
	for _, e := range koPlainEnds {
		ends = ends || strings.HasSuffix(t, e)
	}
	if !ends {
		return false
	}
	for _, w := range words[max(0, len(words)-3) : len(words)-1] {
		if koWhWords[strings.TrimRightFunc(w, func(r rune) bool { return !isHangulRune(r) })] {
			return true
		}
	}
	return false
}
