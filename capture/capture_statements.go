package capture

import (
	"context"
	"fmt"
	"strconv"

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

// typed: a verdict that labels its text with a type the judge reads
// reliably — not a plain note, and not a declaration type the gates must
// confirm first.
func typed(v engine.CaptureVerdict) bool {
	t := normalType(v.Type)
	return t != "note" && !isDeclaration(t)
}

// differ reports whether statement v needs a decision of its own after
// prev: a clause when the judge types the two differently (one of them
// at least typed, "my birthday is May 3, and always write …": date and
// rule); a sentence only when both are typed reliably (typed) and
// differently. Two notes stay one memory ("We moved CI to GitHub Actions,
// and the Jenkins box is switched off" is one change).
func differ(clause bool, v, prev engine.CaptureVerdict) bool {
	t, u := normalType(v.Type), normalType(prev.Type)
	if t == u {
		return false
	}
	if clause {
		return true
	}
	return typed(v) && typed(prev)
}

// splitStatements decides p's message statement by statement when it
// holds several (statements_split.go): p becomes the first statement and
// p.more the others, each with its own verdict, vector and gate decision.
// whole is the verdict of the whole message. A message of one statement,
// or one whose parts the judge would not each store, is left as it is.
func (c *Capturer) splitStatements(ctx context.Context, p *pending, in engine.CaptureInput, whole engine.CaptureVerdict) error {
	// Most messages hold no clause boundary and no typed sentence: they
	// are one statement, known without reading their speech acts.
	if !typed(whole) && !mayHaveClauses(in.Text) {
		return nil
	}
	parts := statementParts(in.Text)
	if parts == nil {
		return nil
	}
	clauses := false
	for _, pt := range parts {
		clauses = clauses || pt.clause || pt.item
	}
	if !clauses && !typed(whole) {
		return nil // sentences split only by type, and no sentence is typed
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
	merged := map[int]bool{}
	for _, pt := range parts {
		alone := standsAlone(pt.text)
		var v engine.CaptureVerdict
		if alone {
			var err error
			if v, alone, err = judge(pt.text); err != nil {
				return nil // the judge broke on a part: the whole message decides, as it did
			}
		}
		last := len(groups) - 1
		split := alone && len(groups) < MaxStatements && (last < 0 || pt.item || differ(pt.clause, v, groups[last].v))
		if last < 0 || split {
			groups = append(groups, statementGroup{text: pt.text, v: v})
			if !alone {
				merged[len(groups)-1] = true
			}
			continue
		}
		sep := ". "
		if pt.clause {
			sep = ", "
		}
		groups[last].text += sep + pt.text
		merged[last] = true
	}
	if len(groups) < 2 {
		return nil
	}
	// A group that took in the parts after it is judged again as the
	// statement it now is; each group must be one the judge stores.
	for i := range groups {
		if merged[i] {
			v, ok, err := judge(groups[i].text)
			if err != nil || !ok {
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
	r := p.res
	r.Trail = append(r.Trail, engine.Decision{Layer: LayerStatements, Verdict: "split",
		Reason: fmt.Sprintf("%d independent statements: each is decided and stored on its own (keys %s, %s#2 …)", len(groups), p.msg.ID, p.msg.ID)})
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
