package capture

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"memtrace/engine"
)

// RuleJudge is the L3 fallback when no LLM judge is configured. It decides
// from keyword tables, in English and Korean, and says so: its verdicts carry
// Source "rules" and the capture result Decider "rules".
//
// Store or skip. L1 and L2 have already removed the noise; the judge reads
// the rest as speech acts (statements.go) and, at detail medium, stores a
// user message only when at least one sentence is a statement — not a
// question, a request to the assistant, an acknowledgement or greeting, a
// hypothetical or pasted material. A first person or a number is not by
// itself a cue ("how long should I boil an egg" is a question). With
// detail high every user message is stored; with detail low only typed
// ones (not note). Assistant messages are echoes of the conversation and
// are stored only when they record a decision taken with the user ("we
// decided", "결정"), never as a rule or correction: "Understood, from now
// on I'll …" is the assistant's promise, the user's own message is the
// rule. Tool and system output is never stored by the rules.
//
// Type and kind are read from the statements alone, so a question or a
// paste beside them does not type the memory.
//
// Type. The first table in priority order whose keyword occurs wins:
// correction, rule, milestone, health, date, achievement, gift, habit,
// shared_thing, preference, current_project; else note. Declaration-like
// types are proposals only: the extraction gates confirm or reject them.
//
// Kind (kind.go). correction, rule, preference, health, habit,
// current_project and milestone are facts; achievement and gift are
// episodes. For the rest the statement's predicate decides: a lasting
// condition, fear, allergy or trait, a period of life ("for six years",
// "in college", "grew up", "4년 동안 … 살았어") is a fact; a time-bound cue
// ("today", "next week", "오늘", "다음 주") makes an episode; a decision or
// standing cue and a change of state ("switched to", "started", "이직했어")
// a fact; an event verb in the past (EN past forms and -ed words that are
// no participle of state, KO a syllable closed by ㅆ) an episode unless the
// head clause's first verb is present ("Needles freak me out, I nearly
// fainted …"); otherwise a fact.
//
// Importance comes from the type (typeImportance), nudged +0.1 by "remember"
// or "important"/"중요".
//
// The zero RuleJudge is ready to use: its keyword tables are compiled
// once per process.
type RuleJudge struct {
	tables *typeClassifier // nil: the default tables
}

// Name identifies the fallback in capture results.
func (RuleJudge) Name() string { return "rules" }

// JudgeCapture decides one message by the rules documented on RuleJudge.
func (r RuleJudge) JudgeCapture(ctx context.Context, in engine.CaptureInput) (engine.CaptureVerdict, error) {
	if err := ctx.Err(); err != nil {
		return engine.CaptureVerdict{}, err
	}
	v := engine.CaptureVerdict{Source: "rules"}
	acts := readActs(in.Text)
	said := statementText(acts)
	// The type and kind are read from the statements, not from the
	// questions, requests and pastes around them.
	norm := lexNorm(in.Text)
	if said != "" {
		norm = lexNorm(said)
	}
	tables := r.tables
	if tables == nil {
		tables = defaultTypeTables()
	}
	typ, kw := tables.classify(norm)
	if (typ == "correction" || typ == "rule") && recountedInstruction(in.Text) {
		// Another person's words told in an account of the day are no
		// instruction to the assistant (capture_recounted.go): the type
		// comes from the other tables.
		rest := recountTables()
		if r.tables != nil {
			rest = newTypeClassifier(r.tables.tables[2:])
		}
		typ, kw = rest.classify(norm)
	}
	if typ == "health" {
		if w := occupationKeyword(norm, kw); w != "" { // "is a dentist": a job (rulejudge_occupation.go)
			typ, kw = tables.classify(strings.Replace(norm, w, " ", 1))
		}
	}
	v.Type = typ
	head := said // the head clause is read from the statements too
	if head == "" {
		head = in.Text
	}
	v.Kind = kindOf(typ, head, norm)
	v.Importance = typeImportance(typ)
	if kwFind(norm, lexicon{en: []string{"remember", "important"}, ko: []string{"기억해", "중요", "잊지 마"}}) != "" {
		v.Importance = min(1, v.Importance+0.1)
	}
	switch in.Role {
	case "tool", "system":
		v.Reason = "rules: " + in.Role + " output is not stored by the rules"
		return v, nil
	case "assistant":
		// The assistant's text is an echo of the conversation: it is kept
		// only when it records a decision taken with the user, and it never
		// becomes a rule or a correction of the user's — an acknowledgement
		// ("Understood, from now on I'll …") is the assistant's promise,
		// the user's own message is the rule.
		if d := kwFind(norm, decisionLexicon()); d != "" && said != "" {
			v.Store = true
			if v.Type == "rule" || v.Type == "correction" {
				v.Type, v.Importance = "note", typeImportance("note")
			}
			v.Reason = fmt.Sprintf("rules: assistant recorded a decision (%q); type %s", d, v.Type)
		} else {
			v.Reason = "rules: assistant message without a decision taken with the user"
		}
		return v, nil
	}
	cue := kw
	if cue == "" {
		cue = "statement"
	}
	switch {
	case in.Detail == engine.DetailLow && typ == "note":
		v.Reason = "rules: detail low keeps typed memories only"
	case in.Detail == engine.DetailHigh:
		v.Store = true
		v.Reason = fmt.Sprintf("rules: detail high keeps user statements; type %s%s", typ, cueNote(cue))
	case said == "":
		v.Reason = fmt.Sprintf("rules: no statement to remember (%s)", firstNonStatement(acts))
	default:
		v.Store = true
		v.Reason = fmt.Sprintf("rules: user statement, type %s%s", typ, cueNote(cue))
	}
	return v, nil
}

func cueNote(cue string) string {
	if cue == "" {
		return ""
	}
	return fmt.Sprintf(" by %q", cue)
}

// typeImportance is the importance a type starts with.
func typeImportance(typ string) float64 {
	switch typ {
	case "health":
		return 0.85
	case "correction", "rule", "milestone":
		return 0.8
	case "preference", "date":
		return 0.7
	case "current_project", "achievement":
		return 0.6
	case "habit", "shared_thing":
		return 0.55
	case "gift":
		return 0.5
	}
	return 0.4
}

// lexicon is a keyword list in both languages. An English entry matches a
// whole word or phrase; one ending in '*' matches a word prefix. A Korean
// entry matches as a substring (particles and endings attach to it).
type lexicon struct{ en, ko []string }

// lexNorm prepares text for kwFind: lower case, words separated by single
// spaces, padded with a space on each side.
func lexNorm(text string) string {
	var b strings.Builder
	b.Grow(len(text) + 2)
	b.WriteByte(' ')
	space := true
	for _, r := range strings.ToLower(text) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' {
			b.WriteRune(r)
			space = false
		} else if r == '’' {
			b.WriteByte('\'')
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

// kwFind returns the first keyword of l found in norm (from lexNorm).
func kwFind(norm string, l lexicon) string {
	for _, k := range l.en {
		if strings.HasSuffix(k, "*") {
			if hasWord(norm, k[:len(k)-1], false) {
				return k
			}
		} else if hasWord(norm, k, true) {
			return k
		}
	}
	for _, k := range l.ko {
		if strings.Contains(norm, k) {
			return k
		}
	}
	return ""
}

// hasWord reports whether w occurs in norm starting at a word boundary and,
// when whole, ending at one; norm is padded with spaces (lexNorm), and the
// search allocates nothing.
func hasWord(norm, w string, whole bool) bool {
	for from := 0; ; {
		i := strings.Index(norm[from:], w)
		if i < 0 {
			return false
		}
		i += from
		if i > 0 && norm[i-1] == ' ' && (!whole || i+len(w) < len(norm) && norm[i+len(w)] == ' ') {
			return true
		}
		from = i + 1
	}
}

// typeTable is the keyword table of one type.
type typeTable struct {
	typ string
	lex lexicon
}

// defaultTypeTables and decisionLexicon are typeTables (compiled) and
// decisionWords built once (read only).
var (
	defaultTypeTables = sync.OnceValue(func() *typeClassifier { return newTypeClassifier(typeTables()) })
	decisionLexicon   = sync.OnceValue(decisionWords)
	// recountTables are the tables after correction and rule, for a
	// recounted instruction.
	recountTables = sync.OnceValue(func() *typeClassifier { return newTypeClassifier(typeTables()[2:]) })
)

// typeTables lists the type keyword tables in priority order.
func typeTables() []typeTable {
	return []typeTable{
		{"correction", lexicon{
			en: []string{"don't", "do not", "stop", "never", "instead of", "not like that", "that's wrong", "wrong again"},
			ko: []string{"지 마", "지마", "지 말", "말고", "틀렸", "아니라"}}},
		{"rule", lexicon{
			en: []string{"always", "from now on", "every time", "must", "make sure to", "rule"},
			ko: []string{"항상", "앞으로는", "앞으로", "반드시", "꼭", "규칙", "매번"}}},
		{"milestone", lexicon{en: milestoneWords().en, ko: milestoneWords().ko}},
		{"health", lexicon{
			en: []string{"allerg*", "doctor", "dentist", "medication", "medicine", "diagnosed", "diabet*", "asthma", "migraine", "surgery", "blood pressure", "pregnan*", "symptom*", "prescri*", "vegetarian", "vegan", "gluten", "lactose", "injur*", "therapy"},
			ko: []string{"알레르기", "병원", "약을", "약 ", "진단", "당뇨", "천식", "편두통", "수술", "혈압", "임신", "증상", "처방", "채식", "유당", "부상", "치료", "두통", "아파"}}},
		{"date", lexicon{
			en: []string{"birthday", "anniversary", "appointment", "deadline", "due on", "scheduled", "wedding day", "january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december"},
			ko: []string{"생일", "기념일", "예약", "마감", "일정", "결혼식", "월 ", "일에", "요일"}}},
		{"achievement", lexicon{en: achievementWords().en, ko: achievementWords().ko}},
		{"gift", lexicon{en: giftWords().en, ko: giftWords().ko}},
		{"habit", lexicon{en: habitWords().en, ko: habitWords().ko}},
		{"shared_thing", lexicon{en: sharedWords().en, ko: sharedWords().ko}},
		{"preference", lexicon{
			en: []string{"prefer*", "i like", "i love", "i hate", "i dislike", "favorite", "favourite", "i'd rather", "i enjoy", "can't stand"},
			ko: []string{"좋아해", "좋아하", "좋아요", "싫어", "선호", "제일 좋", "가장 좋", "취향", "즐겨"}}},
		{"current_project", lexicon{
			en: []string{"working on", "project", "building", "migrating", "refactor*", "sprint", "release", "repository", "repo"},
			ko: []string{"프로젝트", "작업 중", "작업하고", "개발 중", "개발하고", "마이그레이션", "리팩터", "배포", "스프린트", "릴리스"}}},
	}
}

// typeClassifier is the type tables with every English keyword of
// every table in one wordSet: one pass over the text's words instead of a
// substring search per keyword (a few hundred for a text of no type).
type typeClassifier struct {
	tables []typeTable
	en     *wordSet
	// table[e] and pos[e] are the table of entry e and its place in that
	// table's English list.
	table, pos []int32
	// ko lists the Korean keywords (substrings, as kwFind) by their first
	// rune: table and place in its Korean list.
	ko map[rune][]koKeyword
}

type koKeyword struct {
	word       string
	table, pos int32
}

func newTypeClassifier(tables []typeTable) *typeClassifier {
	c := &typeClassifier{tables: tables}
	var entries []string
	for ti, t := range tables {
		for pi, k := range t.lex.en {
			entries = append(entries, k)
			c.table, c.pos = append(c.table, int32(ti)), append(c.pos, int32(pi))
		}
	}
	c.en = newWordSet(entries)
	c.ko = map[rune][]koKeyword{}
	for ti, t := range tables {
		for pi, k := range t.lex.ko {
			if k == "" {
				continue
			}
			r, _ := utf8.DecodeRuneInString(k)
			c.ko[r] = append(c.ko[r], koKeyword{k, int32(ti), int32(pi)})
		}
	}
	return c
}

// classify returns the type of a normalised text and the keyword that
// decided it: the first table, in order, with a keyword in norm as kwFind
// finds them — its first English keyword found, else its first Korean one
// (by substring).
func (c *typeClassifier) classify(norm string) (typ, kw string) {
	// 1 + the place of each table's first English (Korean) keyword found;
	// 0 none.
	first := make([]int32, 2*len(c.tables))
	firstKo := first[len(c.tables):]
	c.en.each(norm, func(e int) {
		if t, p := c.table[e], c.pos[e]+1; first[t] == 0 || p < first[t] {
			first[t] = p
		}
	})
	// A Korean keyword is in norm where norm, from the start of one of its
	// runes (a match of valid UTF-8 starts at one), begins with it.
	for i, r := range norm {
		for _, k := range c.ko[r] {
			if p := k.pos + 1; (firstKo[k.table] == 0 || p < firstKo[k.table]) && strings.HasPrefix(norm[i:], k.word) {
				firstKo[k.table] = p
			}
		}
	}
	for ti, t := range c.tables {
		if p := first[ti]; p > 0 {
			return t.typ, t.lex.en[p-1]
		}
		if p := firstKo[ti]; p > 0 {
			return t.typ, t.lex.ko[p-1]
		}
	}
	return "note", ""
}

// decisionWords mark an assistant message that records a decision or rule.
func decisionWords() lexicon {
	return lexicon{
		en: []string{"we decided", "decided to", "decision", "agreed to", "we agreed"},
		ko: []string{"결정", "합의", "정했"},
	}
}
