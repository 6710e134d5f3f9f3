package capture

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"memtrace/engine"
)

// screen runs L1, L2 and the judge on p once and reports whether the judge
// would store it (else its result says what dropped or held it); the lesson
// detection goes with them. A batch screens its messages ahead of the
// embedding (embedAhead) and decides them afterwards.
func (c *Capturer) screen(ctx context.Context, p *pending) (bool, error) {
	if p.screened {
		return p.passed, nil
	}
	p.screened = true
	r, m := p.res, p.msg
	r.Decider = c.decider
	if p.raw != "" {
		holdSecret(p)
		return false, nil
	}
	// A user's lesson, or an explicit correction, is read first: the
	// length floors of L1 do not apply to it ("Don't use tabs.").
	var lesson *lessonFinding
	if m.Role == "user" || m.Correction {
		// Role-play and jokes state no lesson ("*bows* I'll always trust you").
		// Nor does an account of what someone else told the user ("my PT
		// told me to stop locking my knees"; capture_recounted.go).
		if f := detectLesson(m.Text, m.Correction); f != nil && !f.NoTerms && (m.Correction || c.gates.roleplay(m.Text) == "" && !recountedInstruction(m.Text)) {
			lesson = f
		}
	}
	match, ok := c.filter.L1(m.Text)
	waived := ""
	if ok && lengthFloor(match.Name) {
		waived = c.floorWaiver(m, lesson)
	}
	if waived != "" {
		r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerL1, Verdict: "pass", Pattern: match.Name,
			Reason: "L1 rule " + match.Name + " waived: " + waived})
	} else if ok {
		r.Outcome, r.DroppedBy, r.Reason = engine.OutcomeDropped, engine.LayerL1, match.Name
		r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerL1, Verdict: "drop", Pattern: match.Name, Reason: "L1 rule " + match.Name})
		r.Decider = ""
		return false, nil
	} else {
		r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerL1, Verdict: "pass"})
	}
	if match, ok := c.filter.L2(m.Text); ok {
		r.Outcome, r.DroppedBy, r.Reason = engine.OutcomeDropped, engine.LayerL2, match.Name
		r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerL2, Verdict: "drop", Pattern: match.Name, Reason: "L2 pattern " + match.Name})
		r.Decider = ""
		return false, nil
	}
	r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerL2, Verdict: "pass"})
	p.lesson = lesson

	in := engine.CaptureInput{Text: c.filter.StripMemoryTags(m.Text), Role: m.Role, Session: m.Session, Project: m.Project, Detail: c.e.Config().Detail}
	if _, rules := c.judge.(RuleJudge); !rules {
		in.Candidates = c.judgeCandidates(in.Text, engine.ProjectScope(m.Project), m.At, m.ID)
	}
	v, err := c.judge.JudgeCapture(ctx, in)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if p.review != nil {
			// A retry asked for the judge: the rules do not decide a held
			// message in its place; it stays held.
			r.JudgeError = true
			r.Outcome, r.Reason = engine.OutcomeHeld, engine.ProposalReview
			p.held = &engine.ReviewItem{Reason: fmt.Sprintf("%s failed on the retry (%v)", c.judge.Name(), err), Judge: c.decider}
			r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerJudge, Verdict: "hold", Reason: p.held.Reason + "; still held"})
			return false, nil
		}
		// The judge is unreachable or broke: the rules decide, and the
		// trail says so.
		r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerJudge, Verdict: "error", Reason: fmt.Sprintf("%s failed (%v); rules decide", c.judge.Name(), err)})
		v, _ = RuleJudge{}.JudgeCapture(ctx, in)
		r.Decider = "rules"
		r.JudgeError = true
	} else if len(in.Candidates) > 0 {
		p.shown = in.Candidates
	}
	if v.NeedsReview {
		// Neither stored nor dropped: the message waits in the review
		// queue (written with the capture) for a retry or a curator.
		r.Outcome, r.Reason = engine.OutcomeHeld, engine.ProposalReview
		why := strings.TrimSpace(v.Reason)
		if why == "" {
			why = "the judge gave no reason"
		}
		p.held = &engine.ReviewItem{Reason: why, Judge: c.decider}
		r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerJudge, Verdict: "hold",
			Reason: "needs_review: " + why + " — held in the review queue, not acted on"})
		return false, nil
	}
	if !v.Store {
		r.Outcome, r.DroppedBy, r.Reason = engine.OutcomeDropped, engine.LayerJudge, v.Reason
		r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerJudge, Verdict: "drop", Reason: v.Reason})
		return false, nil
	}
	r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerJudge, Verdict: "store", Reason: fmt.Sprintf("%s (kind %s, type %s, importance %.2f)", v.Reason, v.Kind, v.Type, v.Importance)})
	p.in, p.judged, p.passed = in, v, true
	return true, nil
}

// decide runs the stages that need no database write: L1, L2, the judge
// (screen), the gates, the lesson detection and the embedding.
func (c *Capturer) decide(ctx context.Context, p *pending) error {
	if ok, err := c.screen(ctx, p); !ok || err != nil {
		return err
	}
	r := p.res

	in, v := p.in, p.judged

	if c.gates.unavailable != "" {
		holdUnembedded(p, c.gates.unavailable, c.decider)
		return nil
	}
	name := detectInjection(c.guard, in.Text)
	if name == "" { // flagged text is one note, never several statements
		err := c.splitStatements(ctx, p, in, v)
		if err != nil && embedderAway(ctx, err) {
			p.stmt, p.more = "", nil
			holdUnembedded(p, engine.ErrorMessage(err), c.decider)
			return nil
		}
		if err != nil {
			return err
		}
		if p.stmt != "" { // each statement was embedded and gated on its own
			p.store = true
			r.Kind, r.Type = p.verdict.Kind, p.verdict.Type
			return nil
		}
	}
	vs, err := c.embedder().Embed(ctx, []string{in.Text})
	if err != nil && embedderAway(ctx, err) {
		holdUnembedded(p, engine.ErrorMessage(err), c.decider)
		return nil
	}
	if err != nil {
		return fmt.Errorf("embed message %s: %w", p.msg.ID, err)
	}
	p.vec = vs[0]
	typ, ds, err := c.gates.check(ctx, c.embedder(), in.Text, p.vec, normalType(v.Type))
	if err != nil && embedderAway(ctx, err) {
		holdUnembedded(p, engine.ErrorMessage(err), c.decider)
		return nil
	}
	if err != nil {
		return err
	}
	r.Trail = append(r.Trail, ds...)
	v.Type = typ
	if v.Kind != engine.KindEpisode {
		v.Kind = engine.KindFact
	}
	if v.Importance <= 0 || v.Importance > 1 {
		v.Importance = typeImportance(typ)
	}
	if name != "" {
		// Text that instructs the agent gains no authority: it stays a
		// low-importance note, records no lesson, and the trail flags it.
		v.Type, v.Kind, v.Importance = "note", engine.KindFact, min(v.Importance, InjectionImportance)
		p.lesson = nil
		r.Trail = append(r.Trail, engine.Decision{Layer: LayerGuard, Verdict: "flag", Pattern: name,
			Reason: fmt.Sprintf("instruction-shaped text (%s): kept as a note of importance %.2f, never a rule; review it", name, v.Importance)})
	}
	p.verdict, p.store = v, true
	r.Kind, r.Type = v.Kind, v.Type
	return nil
}

// MaxMemoryRunes bounds what one memory made from a message holds: a
// memory longer than this could not be returned by a recall at the default
// budget (Config.Budget, 2,000), so a longer message keeps its statements
// — pasted blocks, questions and requests removed — cut at the last
// sentence that fits, and marked with " …".
const MaxMemoryRunes = 1500

// boundedContent is text within MaxMemoryRunes (see there).
func boundedContent(text string) string {
	if utf8.RuneCountInString(text) <= MaxMemoryRunes {
		return text
	}
	if said := statementText(readActs(text)); said != "" {
		text = said
	}
	if utf8.RuneCountInString(text) <= MaxMemoryRunes {
		return text
	}
	var b strings.Builder
	n := 0
	for _, s := range splitSentences(text) {
		k := utf8.RuneCountInString(s) + 2
		if n+k > MaxMemoryRunes-2 {
			break
		}
		b.WriteString(s)
		b.WriteString(". ")
		n += k
	}
	if b.Len() == 0 { // one sentence longer than the bound
		r := []rune(text)
		return string(r[:MaxMemoryRunes-2]) + " …"
	}
	return strings.TrimSpace(b.String()) + " …"
}

// statesChange is the change marker of a short user message that states
// a change or a retraction of something it names ("I stopped running",
// "the Osaka trip is off", "고기 이제 안 먹어", "퇴사했어"), or "". Such a
// message passes L1's length floors: it is the update, and dropping it
// leaves the fact it ends current. The marker must end what it names, take
// an object, or imply a subject (the weak markers "now", "instead",
// "started", "이제" alone do not), the sentence must not be a question,
// hypothetical, addition or negation, and the change must name its topic.
func (c *Capturer) statesChange(m engine.Message) string {
	if c.rule == nil || m.Role != "user" {
		return ""
	}
	f := c.rule.find(c.filter.StripMemoryTags(m.Text))
	if f.Marker == "" || f.Guard != "" || !(f.Retract || f.Open || len(f.Subjects) > 0) {
		return ""
	}
	if len(f.Terms) == 0 && len(f.Subjects) == 0 {
		return ""
	}
	return f.Marker
}

// statesHabit is the habit cue of a short user message that is one
// statement of a routine ("수요일마다 필라테스 다녀", "주말마다 tennis 레슨
// 받아"), or "": such a message is the fact a later "이제 안 다녀" retracts,
// so it passes L1's length floors as a change does.
func statesHabit(m engine.Message) string {
	if m.Role != "user" {
		return ""
	}
	norm := lexNorm(m.Text)
	cue := kwFind(norm, habitWords())
	if cue == "" {
		cue = kwFind(norm, routineCue) // any "every …" / "…마다", not only the habit type's days
	}
	if cue == "" {
		cue = koDayRun(m.Text) // "화목 저녁에", "월수금" (supersede_short.go)
	}
	if cue == "" {
		return ""
	}
	if !allStatements(m.Text) {
		return ""
	}
	return cue
}

// statesCondition is the condition word of a short user message that
// states a lasting condition, fear, allergy or diagnosis
// (standingConditions: "Got diagnosed with ADHD last spring", "개 무서워"),
// or "": all its sentences are statements.
func statesCondition(m engine.Message) string {
	if m.Role != "user" {
		return ""
	}
	cue := kwFind(lexNorm(m.Text), standingConditions())
	if cue == "" {
		return ""
	}
	if !allStatements(m.Text) {
		return ""
	}
	return cue
}

// routineCue: a recurrence ("every Tuesday", "수요일마다", "격주로").
var routineCue = lexicon{en: []string{"every", "each week", "weekly", "daily", "a day", "per day", "a week", "per week",
	"often", "usually", "on mondays", "on tuesdays", "on wednesdays", "on thursdays", "on fridays", "on saturdays", "on sundays", "on weekends", "on weeknights"},
	ko: []string{"마다", "자주", "격주", "매달", "매년", "매일", "매주", "하루", "주 1회", "주 2회", "주 3회", "주 4회", "주 5회",
		"는 날에는", "는 날엔", "은 날에는", "은 날엔"}} // "비 오는 날에는 …": on the days when, a recurrence

// floorWaiver is why a message caught by one of L1's length floors is
// kept all the same ("" when it is not): a user's lesson, a change or
// retraction, a routine, a dated plan, a fact, or the fact of a slot a later change may
// replace, each stated in few words — the first that applies, each asked
// once.
func (c *Capturer) floorWaiver(m engine.Message, lesson *lessonFinding) string {
	if lesson != nil && lesson.Skip == "" {
		return "a correction states its lesson in few words"
	}
	if cue := c.statesChange(m); cue != "" {
		return fmt.Sprintf("a change or retraction (%q) states itself in few words", cue)
	}
	if cue := statesHabit(m); cue != "" {
		return fmt.Sprintf("a routine (%q) states itself in few words", cue)
	}
	if cue := statesPlan(m); cue != "" {
		return fmt.Sprintf("a dated plan (%q) states itself in few words", cue)
	}
	if cue := statesCondition(m); cue != "" {
		return fmt.Sprintf("a lasting condition (%q) states itself in few words", cue)
	}
	if cue := statesFact(m); cue != "" {
		return fmt.Sprintf("a fact about %q states itself in few words", cue)
	}
	if cue := statesKoEvent(m); cue != "" {
		return fmt.Sprintf("a Korean account of a past event (%q) states itself in few words", cue)
	}
	if cue := c.statesSlot(m); cue != "" {
		return fmt.Sprintf("a fact of the slot %q (a later change may replace it) states itself in few words", cue)
	}
	return ""
}

// lengthFloor reports whether an L1 rule is one of the length floors,
// which a correction is exempt from.
func lengthFloor(rule string) bool { return rule == "too_short" || rule == "too_short_stripped" }

// normalType lower-cases a judge's type and maps the seed's spelling
// "shared-thing" to shared_thing; an empty type is a note.
func normalType(t string) string {
	t = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(t)), "-", "_")
	if t == "" {
		return "note"
	}
	return t
}

// allStatements: every sentence of text is a statement (readActs), none a
// question, request or acknowledgement.
func allStatements(text string) bool {
	for _, a := range readActs(text) {
		if a.act != actStatement {
			return false
		}
	}
	return true
}
