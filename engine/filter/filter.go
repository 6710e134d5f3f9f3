// Package filter holds the two cheap layers of the capture pipeline (seed
// 000): L1, rules over the raw message, and L2, regular expressions over the
// parsed assistant content. Each layer is one named table; every entry has a
// name that is shown as the reason a message was dropped.
//
// The two tables are independent on purpose: L2 compiles its own patterns and
// parses the content itself, so it still drops the known noise when L1 is
// bypassed (an import that skips L1, a caller that only runs L2).
//
// # When a match drops a message
//
// A noise pattern matches a span of the text. The span depends on the rule's
// Scope: the matched characters (ScopeSpan), the sentence around them
// (ScopeSentence, used for the agent's self-limitation) or the whole line,
// but only when the line is nothing but an error or log line (ScopeLine, see
// isLogLine). The message is dropped only when what is left after removing
// every noise span — and the filler sentences an assistant wraps around them
// ("Could you paste it here?", "죄송합니다.") — carries fewer than
// MinContentWords content words. So "deploy failed with ECONNREFUSED because
// the DB port changed to 5433 — remember that" is kept: it is not a pure log
// line, and its words say something worth remembering. Scan reports such a
// match with Pure=false so that a cleanup can show it without acting on it.
package filter

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Layer names, equal to the engine's LayerL1 and LayerL2.
const (
	LayerL1 = "l1"
	LayerL2 = "l2"
)

// Scope says how much text a pattern's match removes before the rest is
// measured.
type Scope int

const (
	// ScopeMessage: the rule judges the whole message (length floors,
	// acknowledgements); a match is always pure.
	ScopeMessage Scope = iota
	// ScopeSpan removes the matched characters.
	ScopeSpan
	// ScopeSentence removes the sentence that holds the match.
	ScopeSentence
	// ScopeLine removes a line that holds the match when the line is a
	// status or log line: the match stands at the head of the line (after
	// whitespace, brackets or a timestamp) and fewer than MaxStatusWords
	// content words other than log vocabulary follow it. "Error: connect
	// ECONNREFUSED 10.0.3.14:5433 (worker could not reach db)" is such a
	// line; "The deploy failed with ECONNREFUSED because the DB port changed
	// to 5433" is prose and is kept, and so is "HEARTBEAT_OK 메시지는 4시간마다
	// 오는 거니까 무시하고, 진짜 점검 결과는 #ops 채널에 올려줘".
	ScopeLine
)

// MaxStatusWords is how many content words a status or log line may carry
// beside its vocabulary (a host name, a hint in parentheses).
const MaxStatusWords = 5

// Rule is one named entry of a layer's table. Exactly one of Pattern or Func
// is set.
type Rule struct {
	Name  string
	Layer string
	Langs []string // "en", "ko"; both for script-neutral tokens
	Scope Scope
	// Pattern finds the noise span.
	Pattern *regexp.Regexp
	// Hints, when set, are lower-case substrings (compared ignoring ASCII
	// case) one of which must be present for Pattern to be tried: a cheap
	// pre-check that keeps the layers far under their time budget. MaxLen,
	// when set, skips texts longer than that many bytes (an acknowledgement
	// is short).
	Hints  []string
	MaxLen int
	// Func judges the whole message (ScopeMessage).
	Func func(text string) bool
}

// Match is one rule that matched a text.
type Match struct {
	Name  string `json:"name"`
	Layer string `json:"layer"`
	// Pure is true when the text is nothing but noise of this kind (and
	// filler): the layer drops it. False means the pattern matched but the
	// text carries other information and is kept.
	Pure bool `json:"pure"`
}

// Filter holds the compiled tables of both layers. It is immutable after
// New and safe for concurrent use.
type Filter struct {
	l1, l2 []Rule
	filler []Rule
	parse  *parser
}

// New compiles both tables.
func New() *Filter {
	f := &Filter{l2: l2Rules(), filler: fillerRules(), parse: newParser()}
	f.l1 = l1Rules(f.StripMemoryTags, newAck(ackPhrases()))
	return f
}

// L1 returns the first L1 rule that drops text.
func (f *Filter) L1(text string) (Match, bool) {
	stripped := f.StripMemoryTags(text)
	lower := asciiLower(stripped)
	for i := range f.l1 {
		if m, ok := f.applyL1(&f.l1[i], text, stripped, lower); ok && m.Pure {
			return m, true
		}
	}
	return Match{}, false
}

// applyL1 gives message rules the raw text (they strip what they need) and
// pattern rules the text without recalled-memory blocks, as the seed's
// shouldCapture did.
func (f *Filter) applyL1(r *Rule, raw, stripped, lower string) (Match, bool) {
	if r.Func != nil {
		return f.apply(r, raw, "")
	}
	return f.apply(r, stripped, lower)
}

// L2 parses the assistant content out of text (tool wrappers and JSON
// envelopes removed) and returns the first L2 rule that drops it.
func (f *Filter) L2(text string) (Match, bool) {
	return f.first(f.l2, f.ParseContent(text))
}

func (f *Filter) first(rules []Rule, text string) (Match, bool) {
	lower := asciiLower(text)
	for i := range rules {
		if m, ok := f.apply(&rules[i], text, lower); ok && m.Pure {
			return m, true
		}
	}
	return Match{}, false
}

// Scan runs every rule of both layers and returns each one that matched,
// pure or not, in table order (L1 first). A later cleanup uses it to find
// stored memories that would not pass the filters today.
func (f *Filter) Scan(text string) []Match {
	var out []Match
	stripped := f.StripMemoryTags(text)
	lower := asciiLower(stripped)
	for i := range f.l1 {
		if m, ok := f.applyL1(&f.l1[i], text, stripped, lower); ok {
			out = append(out, m)
		}
	}
	parsed := f.ParseContent(text)
	lower = asciiLower(parsed)
	for i := range f.l2 {
		if m, ok := f.apply(&f.l2[i], parsed, lower); ok {
			out = append(out, m)
		}
	}
	return out
}

// Noise reports whether any rule of either layer drops text, and the first
// that does.
func (f *Filter) Noise(text string) (Match, bool) {
	if m, ok := f.L1(text); ok {
		return m, true
	}
	return f.L2(text)
}

// apply runs one rule; lower is text with ASCII letters lower-cased (for
// the hints), or "" when the rule is a Func.
func (f *Filter) apply(r *Rule, text, lower string) (Match, bool) {
	m := Match{Name: r.Name, Layer: r.Layer}
	if r.Scope == ScopeMessage && r.Pattern != nil {
		// A whole-message pattern (the agent's self-limitation): any match
		// is pure.
		if anyHint(lower, r.Hints) && r.Pattern.MatchString(text) {
			m.Pure = true
			return m, true
		}
		return m, false
	}
	if r.Func != nil {
		if r.Func(text) {
			m.Pure = true
			return m, true
		}
		return m, false
	}
	if r.MaxLen > 0 && len(text) > r.MaxLen || !anyHint(lower, r.Hints) {
		return m, false
	}
	locs := r.Pattern.FindAllStringIndex(text, -1)
	if len(locs) == 0 {
		return m, false
	}
	var rest string
	switch r.Scope {
	case ScopeLine:
		var removed bool
		rest, removed = removeStatusLines(text, locs)
		if !removed {
			return m, true // an error word inside a sentence that says more
		}
	case ScopeSentence:
		rest = removeSentences(text, locs)
	default:
		rest = removeSpans(text, locs)
	}
	m.Pure = !f.informative(rest)
	return m, true
}

// anyHint reports whether lower (a text from asciiLower) holds one of the
// lower-case hints (none: true).
func anyHint(lower string, hints []string) bool {
	if len(hints) == 0 {
		return true
	}
	for _, h := range hints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}

// asciiLower lower-cases ASCII letters only (hints are ASCII or Hangul), and
// allocates only when there is an upper-case letter.
func asciiLower(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' })
	if i < 0 {
		return s
	}
	b := []byte(s)
	for j := i; j < len(b); j++ {
		if 'A' <= b[j] && b[j] <= 'Z' {
			b[j] += 'a' - 'A'
		}
	}
	return string(b)
}

func removeSpans(text string, locs [][]int) string {
	var b strings.Builder
	prev := 0
	for _, l := range locs {
		b.WriteString(text[prev:l[0]])
		b.WriteByte(' ')
		prev = l[1]
	}
	b.WriteString(text[prev:])
	return b.String()
}

// removeSentences removes every sentence that holds a match. A sentence ends
// at . ! ? 。 or a newline (followed by space or the end).
func removeSentences(text string, locs [][]int) string {
	var b strings.Builder
	for _, s := range sentences(text) {
		hit := false
		for _, l := range locs {
			if l[0] < s[1] && l[1] > s[0] {
				hit = true
				break
			}
		}
		if !hit {
			b.WriteString(text[s[0]:s[1]])
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// sentences returns the [start,end) byte ranges of the sentences of text.
func sentences(text string) [][2]int {
	var out [][2]int
	start := 0
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		i += w
		end := false
		switch r {
		case '\n':
			end = true
		case '.', '!', '?', '。', '？', '！':
			end = i >= len(text) || text[i] == ' ' || text[i] == '\n' || text[i] == '\t'
		}
		if end {
			out = append(out, [2]int{start, i})
			start = i
		}
	}
	if start < len(text) {
		out = append(out, [2]int{start, len(text)})
	}
	return out
}

// removeStatusLines removes the lines that hold a match at their head and
// are status or log lines (see ScopeLine); it reports whether any was.
func removeStatusLines(text string, locs [][]int) (string, bool) {
	var b strings.Builder
	removed := false
	start := 0
	for start <= len(text) {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := text[start:end]
		status := false
		for _, l := range locs {
			if l[0] >= start && l[0] < end && atHead(line[:l[0]-start]) {
				status = isStatusLine(line)
				break
			}
		}
		if status {
			removed = true
		} else {
			b.WriteString(line)
			b.WriteByte('\n')
		}
		start = end + 1
	}
	return b.String(), removed
}

// atHead reports whether before (the part of a line before a match) holds
// nothing but whitespace, bracketed tags ("[2026-03-01 10:00] [gw]") and
// timestamps: no words of prose.
func atHead(before string) bool {
	depth := 0
	for _, r := range before {
		switch {
		case r == '[' || r == '(':
			depth++
		case r == ']' || r == ')':
			depth--
		case depth == 0 && unicode.IsLetter(r) && r != 'T' && r != 'Z':
			return false
		}
	}
	return true
}

// MinContentWords is the information floor of what is left of a message
// after its noise spans are removed: fewer content words than this and the
// rest is not worth a memory.
const MinContentWords = 3

// informative reports whether rest (a message with its noise removed) still
// says something: at least MinContentWords content words once filler
// sentences are removed.
func (f *Filter) informative(rest string) bool {
	if strings.TrimSpace(rest) == "" {
		return false
	}
	for i := range f.filler {
		r := &f.filler[i]
		if !anyHint(asciiLower(rest), r.Hints) {
			continue
		}
		if locs := r.Pattern.FindAllStringIndex(rest, -1); len(locs) > 0 {
			rest = removeSentences(rest, locs)
		}
	}
	return contentWords(rest, MinContentWords) >= MinContentWords
}

// ContentWords is contentWords for the capture's rule judge: how many
// words of s carry content, counted up to limit.
func ContentWords(s string, limit int) int { return contentWords(s, limit) }

// contentWords counts words that carry content, up to limit: Latin words of
// three or more letters that are not function words, Hangul words of two or
// more syllables that are not function words, and numbers of two or more
// digits.
func contentWords(s string, limit int) int {
	n := 0
	for w := range strings.FieldsFuncSeq(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}) {
		if isContentWord(w) {
			n++
			if n >= limit {
				return n
			}
		}
	}
	return n
}

func isContentWord(w string) bool {
	runes, hangul, digits, latin := 0, 0, 0, 0
	for _, r := range w {
		runes++
		switch {
		case isHangul(r):
			hangul++
		case unicode.IsDigit(r):
			digits++
		case r < unicode.MaxLatin1 && unicode.IsLetter(r):
			latin++
		}
	}
	switch {
	case digits == runes:
		return digits >= 2
	case hangul > 0 && latin >= 2 && unicode.IsLetter([]rune(w)[0]) && !isHangul([]rune(w)[0]):
		// A Latin name with a Korean particle ("Jenkins로", "GitHub에서",
		// "Go로"): the name carries the content, the particle is grammar.
		return true
	case hangul > 0:
		return hangul >= 2 && !functionWordKO(w)
	default:
		return runes >= 3 && !functionWordEN(strings.ToLower(w))
	}
}

func isHangul(r rune) bool {
	return (r >= 0xAC00 && r <= 0xD7A3) || (r >= 0x1100 && r <= 0x11FF) || (r >= 0x3130 && r <= 0x318F)
}
