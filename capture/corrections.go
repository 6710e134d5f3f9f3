package capture

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"memtrace/engine"
)

// Corrections (seed 002). A user message is a lesson when it is an explicit
// correction or a stated preference:
//
//   - it holds a standing marker — EN "don't", "do not", "never", "stop
//     …ing", "always", "from now on", "I prefer", "instead of", "every
//     (single) time"; KO "…지 마" (하지 마, 쓰지 마), "…지 말아줘", "말고",
//     "항상", "앞으로(는)", "매번", "꼭", "반드시" — or
//   - it is a request ("please …", "…해줘", "…줘") that names a known
//     convention of the concept table (gofmt, panic, table-driven tests,
//     tabs …): "write the store tests as table-driven tests please".
//
// Not recorded (seed 002 "기록하지 않는 것"): one-off instructions ("just
// this once", "for now", "이번만", "이번 한 번"), context-bound ones ("for
// this PR", "for this release only", "in this file", "이 파일에서만", "이번
// PR에서만") and anything inferred from silence — only explicit user
// statements are read, never the absence of a reaction.
//
// The lesson key makes one lesson phrased differently, in either language,
// count once per message: it is read from the message's corrective
// sentences (lessonText) — the lesson's signature over the bilingual
// concept table, with polarity, slot values and numbers (lessonsig.go), or,
// when the text names no convention of the table, its content terms
// matched against the recorded lessons (lessonkey.go). A later lesson that
// prescribes the opposite on the same subject supersedes the earlier one.
// Limits: a convention the table does not name is keyed by its words, so
// its rewordings converge only when they share content words, and the
// polarity of such a lesson is not read — the curator sees every
// occurrence before promoting.
//
// An explicit correction (memory_correct, Message.Correction) needs no
// marker and no length: "No emojis." is a lesson. Nor does a marked lesson
// in an ordinary user message need to pass the length floors of L1
// ("Don't use tabs." in a transcript is counted).
//
// The same lesson seen in PromotionThreshold (3) distinct messages becomes a
// promotion candidate; promotion itself is a human decision.

// lessonMarkers are the standing markers of a correction or preference.
func lessonMarkers() lexicon {
	return lexicon{
		en: []string{"don't", "do not", "never", "stop", "always", "from now on", "i prefer", "prefer", "instead of", "instead", "every time", "every single time", "going forward"},
		ko: []string{"지 마", "지마", "지 말아", "지 말고", "말고", "항상", "앞으로", "매번", "꼭 ", "반드시", "언제나"},
	}
}

// notLessonMarkers mark one-off and context-bound instructions.
func notLessonMarkers() []struct {
	why string
	lex lexicon
} {
	return []struct {
		why string
		lex lexicon
	}{
		{"one_off", lexicon{
			en: []string{"just this once", "this once", "only this once", "for now", "this time only", "only this time", "just for today", "for today"},
			ko: []string{"이번만", "이번 한 번", "이번 한번", "오늘만", "일단은", "지금만"}}},
		{"context_bound", lexicon{
			en: []string{"for this pr", "in this pr", "this pr only", "for this release", "this release only", "for this file", "in this file", "this file only", "for this branch", "on this branch", "for this commit", "in this function", "for this task"},
			ko: []string{"이번 pr", "이 pr", "이 파일에서만", "이 파일만", "이 브랜치", "이번 릴리스만", "이번 커밋", "이 함수만", "pr에서만", "브랜치에서만", "함수에서만"}}},
	}
}

// requestMarkers mark a request, which is a lesson only when it names an
// anchor concept.
func requestMarkers() lexicon {
	return lexicon{
		en: []string{"please", "make sure", "use", "write", "run"},
		ko: []string{"해줘", "줘", "해 줘", "하세요", "주세요", "짜줘", "돌려"},
	}
}

// skipMemoryRequest is the Skip of a request to remember a fact.
const skipMemoryRequest = "memory_request"

// lessonFinding is what detectLesson found in one message.
type lessonFinding struct {
	Key    string
	Lesson string // the sentence that states it
	Marker string
	Skip   string // one_off | context_bound | memory_request, when the message is not a lesson
	// NoTerms: an explicit correction with no content words to key it by.
	NoTerms bool
}

// detectLesson reads one user message; nil means no lesson. An explicit
// correction (Message.Correction) needs no marker: it is a lesson unless it
// is one-off or context-bound (Skip) or has no content words (NoTerms).
func detectLesson(text string, explicit bool) *lessonFinding {
	norm := lexNorm(text)
	for _, nl := range notLessonMarkers() {
		if k := kwFind(norm, nl.lex); k != "" {
			return &lessonFinding{Skip: nl.why, Marker: k}
		}
	}
	if phrase := memoryRequest(text); phrase != "" {
		// "Don't forget that …", "잊지 마, …이야": a fact to remember, not
		// a lesson about how to work (lessonremember.go).
		return &lessonFinding{Skip: skipMemoryRequest, Marker: phrase}
	}
	concepts := lessonConcepts(norm)
	marker := kwFind(norm, lessonMarkers())
	if marker == "" && len(concepts) > 0 {
		marker = kwFind(norm, requestMarkers())
	}
	if marker == "" && !explicit {
		return nil
	}
	lesson := lessonText(text)
	key := ""
	if sig := lessonSignature(text, lesson); sig.keyed() && !thinSig(sig, lesson) {
		key = sig.key()
	} else {
		terms := cachedLessonTerms(lesson) // read once already when the signature was weighed (thinSig)
		if len(terms) == 0 {
			if explicit {
				return &lessonFinding{NoTerms: true, Marker: marker}
			}
			return nil
		}
		key = termsKey(terms)
	}
	return &lessonFinding{Key: key, Lesson: Clip(lesson, 200), Marker: marker}
}

// lessonConcepts returns the sorted request anchors norm names: the
// conventions a plain request ("write the store tests as table-driven tests
// please") is a lesson about. They are a fixed, narrow list so that
// ordinary requests in a transcript are not read as lessons; what a lesson
// is about is read by readSignature.
func lessonConcepts(norm string) []string {
	var out []string
	for _, c := range requestAnchors() { // built once
		if kwFind(norm, c.forms) != "" {
			out = append(out, c.id)
		}
	}
	slices.Sort(out)
	return out
}

var requestAnchors = sync.OnceValue(func() []concept {
	return []concept{
		{id: "panic", forms: lexicon{en: []string{"panic*"}, ko: []string{"패닉", "panic"}}},
		{id: "gofmt", forms: lexicon{en: []string{"gofmt*", "go fmt", "goimports"}, ko: []string{"gofmt", "고fmt"}}},
		{id: "table_driven_tests", forms: lexicon{en: []string{"table-driven", "table driven", "tabledriven"}, ko: []string{"테이블 기반", "테이블 드리븐", "테이블드리븐"}}},
		{id: "tabs", forms: lexicon{en: []string{"tab", "tabs"}, ko: []string{"탭"}}},
		{id: "spaces", forms: lexicon{en: []string{"spaces"}, ko: []string{"스페이스", "공백"}}},
		{id: "dark_mode", forms: lexicon{en: []string{"dark mode", "dark theme"}, ko: []string{"다크 모드", "다크모드"}}},
		{id: "markdown_tables", forms: lexicon{en: []string{"markdown table*"}, ko: []string{"마크다운 표"}}},
		{id: "force_push", forms: lexicon{en: []string{"force push", "force-push", "push force", "push -f"}, ko: []string{"강제 푸시", "포스 푸시"}}},
		{id: "reply_language", forms: lexicon{en: []string{"reply in korean", "answer in korean", "reply in english"}, ko: []string{"한국어로 답", "영어로 답"}}},
		{id: "release_notes_bilingual", forms: lexicon{en: []string{"release notes in both"}, ko: []string{"릴리스 노트는 한국어랑 영어"}}},
	}
})

func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// recordLesson counts one sighting of a lesson in q: a message already
// counted is not counted again; PromotionThreshold distinct messages make a
// pending lesson a candidate (a promoted or rejected one keeps its status).
// The sighting is one row (lessons as rows): the lesson's head and the
// sightings of this message or session are read, never the whole history,
// so a sighting costs the same after 10 earlier ones as after 1,000. The
// returned lesson holds only this sighting in Occurrences.
func recordLesson(ctx context.Context, q engine.Queries, f *lessonFinding, m engine.Message, at time.Time) (*engine.Correction, bool, error) {
	key, all, err := canonicalLessonKey(ctx, q, f.Key, f.Lesson)
	if err != nil {
		return nil, false, err
	}
	f.Key = key
	c, err := q.GetLesson(ctx, f.Key)
	if engine.ErrorCode(err) == engine.ENOTFOUND {
		c = &engine.Correction{LessonKey: f.Key, Lesson: f.Lesson, Correction: m.Text, Context: lessonContext(m),
			Scope: engine.ProjectScope(m.Project), FirstSeen: at, Status: engine.CorrectionPending}
	} else if err != nil {
		return nil, false, fmt.Errorf("get lesson %s: %w", f.Key, err)
	} else if seen, err := sightingSeen(ctx, q, c, m); err != nil || seen {
		return c, false, err
	}
	o := engine.Occurrence{MessageID: m.ID, Session: m.Session, Text: m.Text, At: at}
	c.Occurrences = []engine.Occurrence{o}
	c.Count++
	c.Correction = m.Text
	if f.Lesson != "" && !at.Before(c.LastSeen) {
		c.Lesson = f.Lesson // promotion proposes the latest wording
	}
	if s := engine.ProjectScope(m.Project); s != c.Scope {
		c.Scope = engine.ScopeGlobal // the scope every sighting shares
	}
	if c.Status == engine.CorrectionSuperseded {
		c.Status = engine.CorrectionPending // said again: it replaces its replacement
	}
	if at.After(c.LastSeen) {
		c.LastSeen = at
	}
	if c.FirstSeen.IsZero() || at.Before(c.FirstSeen) {
		c.FirstSeen = at
	}
	if c.Status == engine.CorrectionPending && c.Count >= engine.PromotionThreshold {
		c.Status = engine.CorrectionCandidate
	}
	if err := q.SaveCorrection(ctx, c); err != nil { // the head and this one sighting row
		return nil, false, fmt.Errorf("save lesson %s: %w", f.Key, err)
	}
	if err := supersedeOpposites(ctx, q, c, all); err != nil {
		return nil, false, err
	}
	return c, true, nil
}

// sightingSeen reports whether lesson c already counts message m: the same
// message id, or the same text in the same session (sameSighting).
func sightingSeen(ctx context.Context, q engine.Queries, c *engine.Correction, m engine.Message) (bool, error) {
	prior, err := q.FindSightings(ctx, c.ID, m.ID, m.Session)
	if err != nil {
		return false, fmt.Errorf("sightings of lesson %s: %w", c.LessonKey, err)
	}
	for _, o := range prior {
		if o.MessageID != "" && o.MessageID == m.ID || sameSighting(o, m) {
			return true, nil
		}
	}
	return false, nil
}

// sameSighting reports whether m repeats occurrence o: the same text
// (spacing and case aside) in the same session — a client's retry, or a
// message captured from the transcript and then sent to memory_correct —
// which is one observation, not two.
func sameSighting(o engine.Occurrence, m engine.Message) bool {
	return o.Session != "" && o.Session == m.Session && strings.EqualFold(SquashSpaces(o.Text), SquashSpaces(m.Text))
}

func lessonContext(m engine.Message) string {
	if m.LessonContext != "" {
		return m.LessonContext
	}
	if m.Project != "" {
		return "project " + m.Project + ", session " + m.Session
	}
	return "session " + m.Session
}
