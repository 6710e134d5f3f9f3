package engine

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// RuleJudge is the L3 fallback when no LLM judge is configured. It decides
// from keyword tables, in English and Korean, and says so: its verdicts carry
// Source "rules" and the capture result Decider "rules".
//
// Store or skip. A user message is stored when it carries a memory cue — a
// type keyword below, a first-person statement ("I …", "my …", "저는 …",
// "제 …"), a number or date, or "remember"/"기억해". With detail high every
// user message that passed L1/L2 is stored; with detail low only typed ones
// (not note). Assistant messages are echoes of the conversation and are
// stored only when they record a decision or a rule ("we decided", "결정");
// tool and system output is never stored by the rules.
//
// Type. The first table in priority order whose keyword occurs wins:
// correction, rule, health, date, milestone, achievement, gift, habit,
// shared_thing, preference, current_project; else note. Declaration-like
// types are proposals only: the extraction gates confirm or reject them.
//
// Kind. correction, rule, preference, health, habit and current_project are
// facts; achievement and gift are episodes; for the rest, time-bound cues
// ("today", "yesterday", "last night", "오늘", "어제", "방금", Korean past
// endings -었/았/했 with no standing cue) make an episode, otherwise a fact.
//
// Importance comes from the type (typeImportance), nudged +0.1 by "remember"
// or "important"/"중요".
type RuleJudge struct{}

// Name identifies the fallback in capture results.
func (RuleJudge) Name() string { return "rules" }

// JudgeCapture decides one message by the rules documented on RuleJudge.
func (RuleJudge) JudgeCapture(ctx context.Context, in CaptureInput) (CaptureVerdict, error) {
	if err := ctx.Err(); err != nil {
		return CaptureVerdict{}, err
	}
	v := CaptureVerdict{Source: "rules"}
	norm := lexNorm(in.Text)
	typ, kw := classify(norm)
	v.Type = typ
	v.Kind = kindOf(typ, norm)
	v.Importance = typeImportance(typ)
	if kwFind(norm, lexicon{en: []string{"remember", "important"}, ko: []string{"기억해", "중요", "잊지 마"}}) != "" {
		v.Importance = min(1, v.Importance+0.1)
	}
	cue := kw
	if cue == "" {
		cue = memoryCue(norm)
	}
	switch in.Role {
	case "tool", "system":
		v.Reason = "rules: " + in.Role + " output is not stored by the rules"
		return v, nil
	case "assistant":
		if d := kwFind(norm, decisionWords()); d != "" {
			v.Store = true
			v.Reason = fmt.Sprintf("rules: assistant recorded a decision (%q); type %s", d, typ)
		} else {
			v.Reason = "rules: assistant message without a decision or rule"
		}
		return v, nil
	}
	switch {
	case in.Detail == DetailLow && typ == "note":
		v.Reason = "rules: detail low keeps typed memories only"
	case in.Detail == DetailHigh:
		v.Store = true
		v.Reason = fmt.Sprintf("rules: detail high keeps user statements; type %s%s", typ, cueNote(cue))
	case cue == "":
		v.Reason = "rules: no memory cue (no type keyword, first-person statement, number or date)"
	default:
		v.Store = true
		v.Reason = fmt.Sprintf("rules: type %s%s", typ, cueNote(cue))
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
			if strings.Contains(norm, " "+k[:len(k)-1]) {
				return k
			}
		} else if strings.Contains(norm, " "+k+" ") {
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

// typeTables lists the type keyword tables in priority order.
func typeTables() []struct {
	typ string
	lex lexicon
} {
	return []struct {
		typ string
		lex lexicon
	}{
		{"correction", lexicon{
			en: []string{"don't", "do not", "stop", "never", "instead of", "not like that", "that's wrong", "wrong again"},
			ko: []string{"하지 마", "하지마", "하지 말", "말고", "그렇게 말고", "틀렸", "아니라"}}},
		{"rule", lexicon{
			en: []string{"always", "from now on", "every time", "must", "make sure to", "rule"},
			ko: []string{"항상", "앞으로는", "앞으로", "반드시", "꼭", "규칙", "매번"}}},
		{"health", lexicon{
			en: []string{"allerg*", "doctor", "dentist", "medication", "medicine", "diagnosed", "diabet*", "asthma", "migraine", "surgery", "blood pressure", "pregnan*", "symptom*", "prescri*", "vegetarian", "vegan", "gluten", "lactose", "injur*", "therapy"},
			ko: []string{"알레르기", "병원", "약을", "약 ", "진단", "당뇨", "천식", "편두통", "수술", "혈압", "임신", "증상", "처방", "채식", "유당", "부상", "치료", "두통", "아파"}}},
		{"date", lexicon{
			en: []string{"birthday", "anniversary", "appointment", "deadline", "due on", "scheduled", "wedding day", "january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december"},
			ko: []string{"생일", "기념일", "예약", "마감", "일정", "결혼식", "월 ", "일에", "요일"}}},
		{"milestone", lexicon{en: milestoneWords().en, ko: milestoneWords().ko}},
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

// classify returns the type of a normalised text and the keyword that
// decided it.
func classify(norm string) (typ, kw string) {
	for _, t := range typeTables() {
		if k := kwFind(norm, t.lex); k != "" {
			return t.typ, k
		}
	}
	return "note", ""
}

// decisionWords mark an assistant message that records a decision or rule.
func decisionWords() lexicon {
	return lexicon{
		en: []string{"we decided", "decided to", "decision", "agreed to", "we agreed", "going forward", "from now on"},
		ko: []string{"결정", "합의", "앞으로는", "정했"},
	}
}

// memoryCue returns a first-person, number or remember cue of norm.
func memoryCue(norm string) string {
	if k := kwFind(norm, lexicon{
		en: []string{"i", "i'm", "i've", "my", "me", "we", "our", "remember", "note that"},
		ko: []string{" 저는", " 제가", " 제 ", " 나는", " 내가", " 내 ", " 우리", " 저희", "기억해"},
	}); k != "" {
		return k
	}
	for _, r := range norm {
		if unicode.IsDigit(r) {
			return "number"
		}
	}
	return ""
}

// kindOf decides fact vs episode.
func kindOf(typ, norm string) Kind {
	switch typ {
	case "correction", "rule", "preference", "health", "habit", "current_project":
		return KindFact
	case "achievement", "gift":
		return KindEpisode
	}
	if kwFind(norm, lexicon{
		en: []string{"today", "yesterday", "tonight", "this morning", "last night", "last week", "just now", "earlier today", "this afternoon"},
		ko: []string{"오늘", "어제", "방금", "아까", "지난주", "지난 주", "오늘 아침", "어젯밤"},
	}) != "" {
		return KindEpisode
	}
	if kwFind(norm, lexicon{
		en: []string{"i am", "i'm", "i prefer", "i have", "my", "always", "usually", "is", "are"},
		ko: []string{"저는", "제 ", "나는", "항상", "보통"},
	}) != "" {
		return KindFact
	}
	for _, past := range []string{"었어", "았어", "했어", "었다", "았다", "했다", "었습니다", "았습니다", "했습니다"} {
		if strings.Contains(norm, past) {
			return KindEpisode
		}
	}
	return KindFact
}
