package capture

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/engine/textnorm"
)

// Supersede links older memory oldID to newer memory newID by hand (a
// curator action), audited under a. validTo zero: the newer memory's
// creation time. It refuses a memory superseded already (unlink it first),
// a link to itself and a cycle. With no a.Batch the change is a curator
// batch of its own (a new id from the database); it returns the batch.
func Supersede(ctx context.Context, e *engine.Engine, oldID, newID int64, validTo time.Time, a engine.Actor) (*engine.Memory, string, error) {
	if oldID == newID {
		return nil, "", engine.Errorf(engine.EINVALID, "memory %d cannot supersede itself", oldID)
	}
	var out *engine.Memory
	err := e.Update(ctx, func(q engine.Queries) error {
		if err := takeBatch(ctx, q, &a); err != nil {
			return err
		}
		old, err := q.GetMemory(ctx, oldID)
		if err != nil {
			return err
		}
		nw, err := q.GetMemory(ctx, newID)
		if err != nil {
			return err
		}
		if old.SupersededBy != 0 {
			return engine.Errorf(engine.ECONFLICT, "memory %d is already superseded by #%d; unlink it first (`memtrace supersede %d --unlink`)", oldID, old.SupersededBy, oldID)
		}
		// A cycle: the newer memory is itself (transitively) superseded
		// by the older one.
		for cur, n := nw, 0; cur.SupersededBy != 0 && n < 1000; n++ {
			if cur.SupersededBy == oldID {
				return engine.Errorf(engine.ECONFLICT, "memory %d already leads to %d through supersession; linking back would make a cycle", newID, oldID)
			}
			if cur, err = q.GetMemory(ctx, cur.SupersededBy); err != nil {
				return err
			}
		}
		if validTo.IsZero() {
			validTo = nw.CreatedAt
		}
		old.SupersededBy, old.ValidTo, old.SupersededAt = newID, validTo.UTC(), e.Now()
		if err := q.UpdateMemory(ctx, old, a, "supersede"); err != nil {
			return err
		}
		out = old
		return nil
	})
	return out, a.Batch, err
}

// takeBatch gives a curator action without a batch one of its own.
func takeBatch(ctx context.Context, q engine.Queries, a *engine.Actor) error {
	if a.Batch != "" {
		return nil
	}
	b, err := q.NextBatchID(ctx, engine.BatchCurator)
	if err != nil {
		return err
	}
	a.Batch = b
	return nil
}

// Unsupersede removes the supersession link of memory id by hand, audited
// under a: the memory is current again. It refuses a memory that is not
// superseded. It returns the batch, as Supersede does.
func Unsupersede(ctx context.Context, e *engine.Engine, id int64, a engine.Actor) (*engine.Memory, string, error) {
	var out *engine.Memory
	err := e.Update(ctx, func(q engine.Queries) error {
		if err := takeBatch(ctx, q, &a); err != nil {
			return err
		}
		m, err := q.GetMemory(ctx, id)
		if err != nil {
			return err
		}
		if m.SupersededBy == 0 {
			return engine.Errorf(engine.EINVALID, "memory %d is not superseded; nothing to unlink", id)
		}
		m.SupersededBy, m.ValidTo, m.SupersededAt = 0, time.Time{}, time.Time{}
		if err := q.UpdateMemory(ctx, m, a, "unsupersede"); err != nil {
			return err
		}
		out = m
		return nil
	})
	return out, a.Batch, err
}

// supersessionFor runs the supersession rule for mem, about to be inserted
// by this batch, given change, the rule's reading of mem.Content: it
// returns the one older memory mem replaces and the shared subject and
// marker, or nil. It appends to the capture's trail what it
// found when the text carries a change marker and nothing qualified. A new
// memory that supersedes a fact states that fact's current value, so it is
// made a fact too (a past-tense "I moved to Busan" would otherwise be an
// episode that fades in weeks while the fact it replaced is hidden).
func (w *batchWriter) supersessionFor(mem *engine.Memory, change *changeFinding) (old *engine.Memory, subject, marker string, note *engine.Decision) {
	c := w.c
	if c.rule == nil { // detection off (the benchmark's reference)
		return nil, "", "", nil
	}
	f := *change
	if f.Marker == "" {
		return nil, "", "", nil
	}
	if f.Guard != "" {
		return nil, "", "", &engine.Decision{Layer: engine.LayerSupersede, Verdict: "pass", Pattern: f.Guard,
			Reason: fmt.Sprintf("change marker %q, but the sentence is %s: supersedes nothing", f.Marker, guardPhrase(f.Guard))}
	}
	var best *engine.Memory
	var bestSubject string
	bestOverlap := -1
	// Rank: topic terms shared (the object named), then all words shared,
	// then the newest — the nearest older memory naming the subject.
	ids, sounds := w.supersedeCandidates(f)
	for _, s := range sounds { // loanwords of the topic in the other script, by sound
		if !slices.Contains(f.Partners, s) {
			f.Partners = append(f.Partners, s)
		}
	}
	for _, id := range ids {
		old := w.find(id)
		if old == nil || old.SupersededBy != 0 || old.Scope != mem.Scope ||
			old.CreatedAt.After(mem.CreatedAt) {
			continue
		}
		facts := c.oldFacts(old)
		subject := c.rule.subjectMatch(f, facts)
		if subject == "" {
			continue
		}
		ov := overlap(f.Words, facts) + 1000*len(strings.Fields(topicShared(f, facts.main.terms)))
		if ov > bestOverlap || ov == bestOverlap && (old.CreatedAt.After(best.CreatedAt) ||
			old.CreatedAt.Equal(best.CreatedAt) && old.ID > best.ID) {
			best, bestSubject, bestOverlap = old, subject, ov
		}
	}
	if best == nil {
		about := f.AdHoc
		if about == "" && len(f.Subjects) > 0 {
			about = strings.Join(f.Subjects, ", ")
		}
		if about == "" && f.Open && len(f.Terms) > 0 {
			about = strings.Join(f.Terms, " ")
		}
		why := "no subject from the lexicon"
		if about != "" {
			why = "no older active fact about " + about + " in scope " + mem.Scope
		}
		if f.Partner != "" {
			why += " and none of the speaker's names the partner " + f.Partner
		}
		return nil, "", "", &engine.Decision{Layer: engine.LayerSupersede, Verdict: "pass", Pattern: f.Marker,
			Reason: fmt.Sprintf("change marker %q but %s: supersedes nothing", f.Marker, why) + slotNote(f.Slot)}
	}
	return best, bestSubject, f.Marker, nil
}

// takeOver gives mem, which supersedes old, what it needs to outlive it:
// an update states a fact's current value, so it is a fact; a retraction
// ("the Osaka trip is off") takes the kind and importance of what it
// retracts, so it is not forgotten before the plan it cancels.
func takeOver(mem, old *engine.Memory, retract bool) {
	if !retract {
		mem.Kind = engine.KindFact
		return
	}
	mem.Kind = old.Kind
	mem.Importance = max(mem.Importance, old.Importance)
}

// linkSuperseded writes the link l (of l.old to mem, inserted), audited in
// the capture's batch, and reports it in the result and the trail.
func (w *batchWriter) linkSuperseded(ctx context.Context, p *pending, mem *engine.Memory, l supersedeLink) error {
	old, subject, marker := l.old, l.subject, l.marker
	old.SupersededBy, old.ValidTo, old.SupersededAt = mem.ID, mem.CreatedAt, mem.CreatedAt
	if err := w.q.UpdateMemory(ctx, old, w.actor, "supersede"); err != nil {
		return fmt.Errorf("supersede memory %d: %w", old.ID, err)
	}
	if _, ok := w.insertedByID[old.ID]; !ok {
		if w.reinforced == nil {
			w.reinforced = map[int64]*engine.Memory{}
		}
		w.reinforced[old.ID] = old
	}
	r := p.res
	r.Kind = mem.Kind
	r.Supersedes = append(r.Supersedes, engine.SupersedeInfo{ID: old.ID, Key: old.Key, Text: old.Content,
		Subject: subject, Marker: marker, ValidTo: old.ValidTo, By: l.by})
	slot := ""
	if p.change != nil && l.subject != "" {
		slot = slotNote(p.change.Slot)
	}
	r.Trail = append(r.Trail, engine.Decision{Layer: engine.LayerSupersede, Verdict: "supersede", Pattern: marker,
		Reason: supersedeReasonBy(l) + slot})
	return nil
}

// tokensOf is textnorm.Tokens for the lexical index.
func tokensOf(s string) []string { return textnorm.Tokens(s) }

// slotNote is the trail's note of the slot a change fills (changeFinding.Slot).
func slotNote(slot string) string {
	if slot == "" {
		return ""
	}
	return " (slot: " + slot + ")"
}

func guardPhrase(g string) string {
	switch g {
	case "question":
		return "a question"
	case "addition":
		return "an addition (also, another, second, 또, 추가로 …)"
	case "attempt":
		return "an attempt, not a change (tried to …, almost …)"
	case "someone else":
		return "about someone else (he, she, they, 걔 …)"
	}
	return g
}

// oldFacts returns the rule's reading of memory m, from the cache when its
// content has not changed.
func (c *Capturer) oldFacts(m *engine.Memory) *oldFacts {
	if c.facts == nil {
		c.facts = map[int64]factsEntry{}
	}
	if e, ok := c.facts[m.ID]; ok && e.hash == m.Hash {
		return e.facts
	}
	f := readOld(m.Content)
	c.facts[m.ID] = factsEntry{hash: m.Hash, facts: f}
	return f
}

type factsEntry struct {
	hash  string
	facts *oldFacts
}

// subjectCandidates bounds how many memories naming a subject a capture
// looks at: the most recently indexed ones (ids grow with time), so the
// cost of a capture does not grow with the store.
const subjectCandidates = 32

// supersedeCandidates are the memories that may be about f's subjects: the
// subject index's entries (active memories of the cache and of this
// batch) for its lexicon subjects and, for an open marker's topic or an
// ad-hoc subject ("new X is"), for each of its terms — the most recent of
// each, so the nearest older memory naming X is among them — and for the
// open topic's terms of the other script that sound alike (loanwords,
// supersede_open.go), which it returns.
func (w *batchWriter) supersedeCandidates(f changeFinding) ([]int64, []string) {
	c := w.c
	if !w.synced {
		c.syncIndex()
		w.synced = true
	}
	var ids []int64
	for _, s := range f.Subjects {
		all := c.dx.bySubject[s]
		ids = append(ids, all[max(0, len(all)-subjectCandidates):]...)
	}
	var open []string
	if f.AdHoc != "" {
		open = tokensOf(f.AdHoc)
	} else if f.Open {
		open = append(slices.Clone(f.Terms), f.Partners...)
	}
	if f.Partner != "" { // the speaker's memories naming the partner (supersede_slot.go)
		open = append(open, f.Partner)
		open = append(open, f.Partner+"이") // "준형이는" is indexed as 준형이
	}
	var sounds []string
	if f.Open && f.AdHoc == "" {
		sounds = c.dx.soundPartners(append(slices.Clone(f.Terms), f.Surface...))
	}
	for _, t := range append(open, sounds...) {
		all := c.dx.bySubject[topicKey(t)]
		ids = append(ids, all[max(0, len(all)-subjectCandidates):]...)
	}
	slices.Sort(ids)
	return slices.Compact(ids), sounds
}
