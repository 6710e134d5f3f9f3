package capture

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"memtrace/engine"
)

// Judge-assisted detection of knowledge updates. With a judge configured
// (not the rule judge), a message that carries a change marker and no
// guard (supersede_rule.go) is shown to the judge with the few stored
// memories it most likely updates — the rule's own candidates (same
// subject, same people) first, then lexical matches — each delimited as
// untrusted data and labelled C1, C2 …. The judge answers "updates": the
// labels of the ones the message replaces. That answer is validated with
// the rest of the verdict (an unknown label, a repeated one, or updates
// named while "store" is false fail it; twice: needs_review, held).
//
// Who decides: the judge, for the candidates it was shown and answered on;
// the rule for the rest (an older memory written earlier in the same
// capture batch is not stored yet when the judge is asked, so the judge
// cannot see it), and for everything when the judge's answer carries no
// "updates" key or the judge failed and the rules decided the capture.
// The trail records the judge's answer and, beside it, what the rule
// decided ("rule: would supersede #12 … — the judge did not name it: kept").

// JudgeCandidates is how many stored memories the capture judge is shown
// as ones a message may update.
const JudgeCandidates = 3

// candidateChars bounds the text of one candidate in the judge's prompt.
const candidateChars = 300

// judgeCandidates are the stored memories a message with text (to be
// stored in scope, recorded at at, key key) may update, best first: none
// unless the text carries a change marker and no guard. Active, current
// (not superseded), same scope, recorded no later than the message;
// those the rule itself would consider (same subject and people) first,
// then by shared words, then the newest.
func (c *Capturer) judgeCandidates(text, scope string, at time.Time, key string) []engine.SupersedeCandidate {
	if c.rule == nil {
		return nil
	}
	f := c.rule.find(text)
	if f.Marker == "" || f.Guard != "" {
		return nil
	}
	if !c.judgeSynced {
		c.syncIndex()
		c.judgeSynced = true
	}
	var ids []int64
	for _, s := range f.Subjects {
		all := c.dx.bySubject[s]
		ids = append(ids, all[max(0, len(all)-subjectCandidates):]...)
	}
	for _, h := range c.e.LexicalSearch(tokensOf(text), 16) {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	type cand struct {
		m       engine.Memory
		subject bool
		overlap int
	}
	var cs []cand
	for _, id := range ids {
		m, ok := c.e.Memory(id)
		if !ok || m.Status != engine.StatusActive || m.SupersededBy != 0 || m.Scope != scope || m.CreatedAt.After(at) || m.Key == key {
			continue
		}
		facts := c.oldFacts(&m)
		x := cand{m: m, subject: c.rule.subjectMatch(f, facts) != "", overlap: overlap(f.Words, facts)}
		if !x.subject && x.overlap == 0 {
			continue
		}
		cs = append(cs, x)
	}
	slices.SortFunc(cs, func(a, b cand) int {
		switch {
		case a.subject != b.subject:
			if a.subject {
				return -1
			}
			return 1
		case a.overlap != b.overlap:
			return b.overlap - a.overlap
		case !a.m.CreatedAt.Equal(b.m.CreatedAt):
			return b.m.CreatedAt.Compare(a.m.CreatedAt)
		}
		return int(b.m.ID - a.m.ID)
	})
	out := make([]engine.SupersedeCandidate, 0, min(len(cs), JudgeCandidates))
	for i, x := range cs[:min(len(cs), JudgeCandidates)] {
		out = append(out, engine.SupersedeCandidate{Label: fmt.Sprintf("C%d", i+1), ID: x.m.ID, Text: Clip(x.m.Content, candidateChars), At: x.m.CreatedAt})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// supersedeLink is one older memory a new one supersedes, and who decided.
type supersedeLink struct {
	old             *engine.Memory
	subject, marker string
	by              string // "rule" or the judge ("judge:MODEL")
}

// supersessions decides which older memories mem (about to be inserted
// from p) supersedes — the rule, and the judge for the candidates it was
// shown — and the trail notes that say why, the rule's decision beside
// the judge's.
func (w *batchWriter) supersessions(p *pending, mem *engine.Memory) ([]supersedeLink, []engine.Decision) {
	old, subject, marker, note := w.supersessionFor(mem, p.change)
	var links []supersedeLink
	var notes []engine.Decision
	judge := p.res.Decider
	if p.shown == nil || p.verdict.Updates == nil {
		if note != nil {
			notes = append(notes, *note)
		}
		if p.shown != nil {
			notes = append(notes, engine.Decision{Layer: engine.LayerSupersede, Verdict: "pass",
				Reason: fmt.Sprintf("%s said nothing about updates of the candidates shown (%s): the rule decides", judge, candidateIDs(p.shown))})
		}
		if old != nil {
			links = append(links, supersedeLink{old, subject, marker, "rule"})
		}
	} else {
		if marker == "" && w.c.rule != nil {
			marker = p.change.Marker
		}
		shown := map[int64]bool{}
		var named []engine.SupersedeCandidate
		for _, c := range p.shown {
			shown[c.ID] = true
			if slices.Contains(p.verdict.Updates, c.Label) {
				named = append(named, c)
			}
		}
		what := "none"
		if len(named) > 0 {
			what = candidateIDs(named)
		}
		notes = append(notes, engine.Decision{Layer: engine.LayerSupersede, Verdict: "judge", Pattern: marker,
			Reason: fmt.Sprintf("%s: the message updates %s of the candidates shown (%s)", judge, what, candidateIDs(p.shown))})
		for _, c := range named {
			o := w.find(c.ID)
			if o == nil || o.SupersededBy != 0 || o.Scope != mem.Scope || o.CreatedAt.After(mem.CreatedAt) {
				notes = append(notes, engine.Decision{Layer: engine.LayerSupersede, Verdict: "pass",
					Reason: fmt.Sprintf("%s named #%d, which is no longer an active current memory of this scope: not linked", judge, c.ID)})
				continue
			}
			s := ""
			if old != nil && old.ID == o.ID {
				s = subject
			}
			links = append(links, supersedeLink{o, s, marker, judge})
		}
		switch {
		case old != nil && !shown[old.ID]:
			// The judge never saw it (stored earlier in this batch).
			links = append(links, supersedeLink{old, subject, marker, "rule"})
		case old != nil && !slices.ContainsFunc(named, func(c engine.SupersedeCandidate) bool { return c.ID == old.ID }):
			notes = append(notes, engine.Decision{Layer: engine.LayerSupersede, Verdict: "keep", Pattern: marker,
				Reason: fmt.Sprintf("rule: would supersede #%d %q (same subject %q, change marker %q); %s did not name it: kept current",
					old.ID, Clip(engine.SanitizeText(old.Content), 60), subject, marker, judge)})
		case old == nil && note != nil:
			notes = append(notes, engine.Decision{Layer: engine.LayerSupersede, Verdict: "pass", Pattern: note.Pattern, Reason: "rule: " + note.Reason})
		}
	}
	if len(links) > 0 {
		takeOver(mem, links[0].old, p.change != nil && p.change.Retract)
	}
	return links, notes
}

// candidateIDs lists candidates for the trail: "#12, #40".
func candidateIDs(cs []engine.SupersedeCandidate) string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = fmt.Sprintf("#%d", c.ID)
	}
	return strings.Join(ids, ", ")
}

// supersedeReasonBy is the trail's sentence for a link, naming who made it
// and, for the judge's, whether the rule agrees.
func supersedeReasonBy(l supersedeLink) string {
	if l.by == "rule" {
		return SupersedeReason(l.old, l.subject, l.marker)
	}
	agree := "the rule would not supersede it"
	if l.subject != "" { // the rule chose the same memory
		agree = fmt.Sprintf("the rule agrees (same subject %q, change marker %q)", l.subject, l.marker)
	}
	return fmt.Sprintf("superseded #%d %q — named by %s; %s", l.old.ID, Clip(engine.SanitizeText(l.old.Content), 60), l.by, agree)
}
