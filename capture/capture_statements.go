package capture

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"memtrace/engine"
)

// LayerStatements is the trail layer of the statement split
// (statements_split.go).
const LayerStatements = "statements"

// statementGroup is one statement a message becomes: its text and the
// verdict the judge gave it alone.
type statementGroup struct {
	text string
	v    engine.CaptureVerdict
}

// splitStatements decides p's message statement by statement when it
// holds several (statements_split.go, statements_independent.go): p
// becomes the first statement and p.more the others, each with its own
// verdict, vector and gate decision. whole is the verdict of the whole
// message. A message of one statement, or one whose parts the judge would
// not each store, is left as it is; when it had several parts, the trail
// says why they stayed one memory.
func (c *Capturer) splitStatements(ctx context.Context, p *pending, in engine.CaptureInput, whole engine.CaptureVerdict) error {
	// Most messages hold no clause boundary and no second sentence: they
	// are one statement, known without reading their speech acts.
	if !mayHaveParts(in.Text) {
		return nil
	}
	parts := statementParts(in.Text)
	if parts == nil {
		return nil
	}
	judge := func(text string) (engine.CaptureVerdict, bool, error) {
		pin := in
		pin.Text, pin.Candidates = text, nil
		v, err := c.judge.JudgeCapture(ctx, pin)
		if err != nil {
			return v, false, err
		}
		return v, v.Store && !v.NeedsReview, nil
	}
	var groups []statementGroup
	var kept []string // why a part stayed with the statement before it
	merged := map[int]bool{}
	carry := "" // parts before the first that stands alone: they open it
	for i, pt := range parts {
		why := aloneWhy(pt.text, len(groups) > 0 || carry != "")
		var v engine.CaptureVerdict
		if why == "" {
			var err error
			var ok bool
			if v, ok, err = judge(pt.text); err != nil {
				return nil // the judge broke on a part: the whole message decides, as it did
			} else if !ok {
				why = "the judge would not store it alone"
			}
		}
		if len(groups) == 0 {
			if why != "" {
				carry = joinPart(carry, pt.text, pt.clause)
				kept = append(kept, fmt.Sprintf("part %d %q opens the statement after it: %s", i+1, pt.text, why))
				continue
			}
			text := joinPart(carry, pt.text, pt.clause)
			groups = append(groups, statementGroup{text: text, v: v})
			merged[0] = carry != ""
			carry = ""
			continue
		}
		last := len(groups) - 1
		if why == "" && len(groups) >= MaxStatements {
			why = fmt.Sprintf("a message becomes at most %d memories", MaxStatements)
		}
		if why == "" {
			var ok bool
			if ok, why = independentOf(groups[last].text, parts[i-1].text, pt.text, pt.item, pt.clause, c.rule); ok {
				groups = append(groups, statementGroup{text: pt.text, v: v})
				kept = append(kept, fmt.Sprintf("part %d %q: a statement of its own — %s", i+1, pt.text, why))
				continue
			}
		}
		kept = append(kept, fmt.Sprintf("part %d %q stays with the statement before: %s", i+1, pt.text, why))
		groups[last].text = joinPart(groups[last].text, pt.text, pt.clause)
		merged[last] = true
	}
	r := p.res
	if len(groups) < 2 {
		r.Trail = append(r.Trail, engine.Decision{Layer: LayerStatements, Verdict: "whole",
			Reason: fmt.Sprintf("%d parts, one statement: %s", len(parts), strings.Join(kept, "; "))})
		return nil
	}
	// A group that took in the parts after it is judged again as the
	// statement it now is; each group must be one the judge stores.
	for i := range groups {
		if merged[i] {
			v, ok, err := judge(groups[i].text)
			if err != nil || !ok {
				r.Trail = append(r.Trail, engine.Decision{Layer: LayerStatements, Verdict: "whole",
					Reason: fmt.Sprintf("not split: the judge would not store statement %d %q alone", i+1, groups[i].text)})
				return nil
			}
			groups[i].v = v
		}
	}
	texts := make([]string, len(groups))
	for i, g := range groups {
		texts[i] = g.text
	}
	vecs, err := c.embedder().Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("embed statements of %s: %w", p.msg.ID, err)
	}
	r.Trail = append(r.Trail, engine.Decision{Layer: LayerStatements, Verdict: "split",
		Reason: fmt.Sprintf("%d independent statements: each is decided and stored on its own (keys %s, %s#2 …); %s", len(groups), p.msg.ID, p.msg.ID, strings.Join(kept, "; "))})
	for i, g := range groups {
		v := g.v
		typ, ds, err := c.gates.check(ctx, c.embedder(), g.text, vecs[i], normalType(v.Type))
		if err != nil {
			return err
		}
		v.Type = typ
		if v.Kind != engine.KindEpisode {
			v.Kind = engine.KindFact
		}
		if v.Importance <= 0 || v.Importance > 1 {
			v.Importance = typeImportance(typ)
		}
		label := "statement " + strconv.Itoa(i+1) + ": "
		r.Trail = append(r.Trail, engine.Decision{Layer: LayerStatements, Verdict: "statement",
			Reason: fmt.Sprintf("%s%q — %s (kind %s, type %s, importance %.2f)", label, g.text, v.Reason, v.Kind, v.Type, v.Importance)})
		for _, d := range ds {
			d.Reason = label + d.Reason
			r.Trail = append(r.Trail, d)
		}
		if i == 0 {
			p.stmt, p.vec, p.verdict = g.text, vecs[i], v
			continue
		}
		m := p.msg
		m.ID = p.msg.ID + "#" + strconv.Itoa(i+1)
		p.more = append(p.more, &pending{msg: m, stmt: g.text, vec: vecs[i], verdict: v, store: true,
			res: &engine.CaptureResult{MessageID: p.msg.ID, Key: m.ID, Kind: v.Kind, Type: v.Type, Trail: []engine.Decision{}}})
	}
	return nil
}

// joinPart appends part to text, as a clause (", ") or a sentence (". ").
func joinPart(text, part string, clause bool) string {
	if text == "" {
		return part
	}
	if strings.HasSuffix(text, ":") {
		return text + " " + part // "Things about me: …"
	}
	if clause {
		return text + ", " + part
	}
	return text + ". " + part
}

// storeStatements stores the statements after the first of p's message
// (p.more), each deduped and superseded on its own, and reports them in
// p's result: their trail prefixed by their key, their supersessions,
// and one entry each in Statements.
func (w *batchWriter) storeStatements(ctx context.Context, p *pending) error {
	if len(p.more) == 0 {
		return nil
	}
	r := p.res
	r.Statements = append(r.Statements, engine.StatementResult{Key: r.Key, MemoryID: r.MemoryID, Outcome: r.Outcome, Kind: r.Kind, Type: r.Type})
	for _, s := range p.more {
		if err := w.storeOrReinforce(ctx, s); err != nil {
			return err
		}
		sr := s.res
		for _, d := range sr.Trail {
			d.Reason = sr.Key + ": " + d.Reason
			r.Trail = append(r.Trail, d)
		}
		r.Supersedes = append(r.Supersedes, sr.Supersedes...)
		r.Statements = append(r.Statements, engine.StatementResult{Key: sr.Key, MemoryID: sr.MemoryID, Outcome: sr.Outcome, Kind: sr.Kind, Type: sr.Type})
	}
	return nil
}
