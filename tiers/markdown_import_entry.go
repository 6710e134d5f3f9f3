package tiers

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"memtrace/curate"
	"memtrace/engine"
)

// One line of a tier file against the database: matched, applied,
// inserted under its own id or a new one, and counted.

// restored is what an import inserted under the ids its lines name.
type restored struct {
	at      map[int64]bool    // every memory inserted under its own id
	formers map[int64]mdEntry // the former facts among them (a superseded_by trailer)
}

// links links each former fact inserted under its own id to the newer
// memory its trailer names, when this import inserted that one under its
// own id too: both came from one export, so the link is the export's,
// restored — never one a hand edit made (a link is not written from an
// edit of a file; unlink with memtrace supersede ID --unlink).
func (r restored) links(ctx context.Context, q engine.Queries, a engine.Actor) error {
	ids := make([]int64, 0, len(r.formers))
	for id := range r.formers {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		en := r.formers[id]
		until, err := time.Parse(time.RFC3339, en.t.ValidTo)
		if !r.at[en.t.SupersededBy] || err != nil {
			continue // nothing to link to, or no end date: it stays archived
		}
		m, err := q.GetMemory(ctx, id)
		if err != nil {
			return err
		}
		m.SupersededBy, m.ValidTo, m.SupersededAt = en.t.SupersededBy, until, until
		m.Tier, m.Status = engine.TierWarm, engine.StatusActive
		if en.t.Status != "" {
			m.Status = en.t.Status
		}
		if err := q.UpdateMemory(ctx, m, a, "import"); err != nil {
			return err
		}
	}
	return nil
}

// archiveMonth is the month an archive file (archive/2026-03.md) is of.
func archiveMonth(file string) (time.Time, bool) {
	name, ok := strings.CutPrefix(file, "archive/")
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01.md", name)
	return t, err == nil
}

// outRenumber is importEntry's answer for a line whose id is taken by
// another memory, when it may not insert under a new id yet.
const outRenumber = "renumber"

// tally counts one line's outcome in res; a line it cannot import (an
// EINVALID err, or a reason in out) is added to skipped, which it returns.
// Another error is the caller's to return.
func tally(res *MarkdownImport, skipped []string, en mdEntry, out string, id int64, err error, seen map[int64]bool) []string {
	if id != 0 {
		seen[id] = true
	}
	if err != nil {
		if engine.ErrorCode(err) == engine.EINVALID {
			skipped = append(skipped, fmt.Sprintf("%s:%d: %s", en.file, en.line, engine.ErrorMessage(err)))
		}
		return skipped
	}
	switch out {
	case "inserted":
		res.Inserted++
	case "renumbered":
		res.Inserted++
		res.Renumbered++
	case "updated":
		res.Updated++
	case "proposed":
		res.Proposed++
	case "unchanged":
		res.Unchanged++
	default:
		skipped = append(skipped, fmt.Sprintf("%s:%d: %s", en.file, en.line, out))
	}
	return skipped
}

// desired applies what a line says to m (a copy of the stored memory, or a
// new one) and reports whether anything changed.
func (en mdEntry) apply(m *engine.Memory) bool {
	before := *m
	cold := strings.HasPrefix(en.file, "archive/")
	m.Content = en.content
	if en.t.Kind != "" {
		m.Kind = en.t.Kind
	}
	if en.t.Type != "" {
		m.Type = en.t.Type
	}
	if en.trailer {
		m.Importance = en.t.Imp
	}
	scope := engine.FileScope(en.file)
	if en.t.Scope != "" {
		scope = en.t.Scope
	}
	if scope != "" {
		m.Scope = scope
	}
	switch {
	case en.file == "HOT.md":
		m.Tier, m.Status = engine.TierHot, engine.StatusActive
	case cold && en.t.SupersededBy != 0:
		// A former fact is archived because it was superseded, not
		// because it went cold: its tier stays. The link itself is never
		// read from a file (unlink with memtrace supersede ID --unlink).
		if en.t.Status != "" {
			m.Status = en.t.Status
		}
	case cold:
		m.Tier, m.Status = engine.TierCold, engine.StatusArchived
		if en.t.Status != "" {
			m.Status = en.t.Status
		}
		if m.Status == engine.StatusActive {
			m.Tier = engine.TierCold
		}
	default:
		m.Tier, m.Status = engine.TierWarm, engine.StatusActive
	}
	return m.Content != before.Content || m.Kind != before.Kind || m.Type != before.Type ||
		m.Importance != before.Importance || m.Scope != before.Scope || m.Tier != before.Tier || m.Status != before.Status
}

// importEntry handles one line: out is "inserted", "renumbered" (inserted
// under a new id: the file's was taken), "updated", "proposed",
// "unchanged", outRenumber (renumber is false and the line would need a
// new id), or why the line was left alone; id is the memory the line names
// (0 for a new line). An EINVALID error reports the line and the import
// goes on.
//
// A line is matched to a memory by key first, then by id: the id of a
// line with a key names this database's memory only when the keys agree.
// A line no memory here matches is inserted under the id it names when
// that id is free — an export read into a new database keeps its ids.
func importEntry(ctx context.Context, e *engine.Engine, q engine.Queries, en mdEntry, a engine.Actor, now time.Time, hashes map[string]int64, back restored, renumber bool) (out string, id int64, err error) {
	if en.t.Scope != "" && !engine.ValidScope(en.t.Scope) {
		return "", 0, engine.Errorf(engine.EINVALID, "scope %q is not global, project:NAME or domain:NAME; fix the trailer", en.t.Scope)
	}
	if en.trailer && (math.IsNaN(en.t.Imp) || en.t.Imp < 0 || en.t.Imp > 1) {
		return "", 0, engine.Errorf(engine.EINVALID, "importance %v is not a number from 0 to 1; fix \"imp\" in the trailer", en.t.Imp)
	}
	var m *engine.Memory
	if en.t.Key != "" {
		m, err = q.GetMemoryByKey(ctx, en.t.Key)
		if err != nil && engine.ErrorCode(err) != engine.ENOTFOUND {
			return "", 0, err
		}
	}
	idFree := false
	if m == nil && en.t.ID != 0 {
		byID, err := q.GetMemory(ctx, en.t.ID)
		switch {
		case engine.ErrorCode(err) == engine.ENOTFOUND:
			idFree = true
		case err != nil:
			return "", 0, err
		case en.t.Key == "" || byID.Key == en.t.Key:
			m = byID
		case !renumber:
			return outRenumber, 0, nil
		}
	}
	if m == nil {
		nm := &engine.Memory{Key: en.t.Key, Importance: 0.5, Role: "user", CreatedAt: now, LastAccessedAt: now}
		if !en.day.IsZero() {
			nm.CreatedAt = en.day // an episode is of the day its line names
		}
		en.apply(nm)
		if en.t.SupersededBy != 0 {
			// A former fact: archived, so that it never comes back as
			// current, until restoreLinks finds its newer memory.
			nm.Tier, nm.Status = engine.TierCold, engine.StatusArchived
		} else if month, ok := archiveMonth(en.file); ok && en.day.IsZero() && month.Before(now) {
			// A cold memory's archive file is the month it was last used.
			nm.CreatedAt, nm.LastAccessedAt = month, month
		}
		if !en.trailer && en.file == "HOT.md" && en.t.Type == "" {
			nm.Type = "rule" // a line of HOT.md is a rule the agent always loads
		}
		if nm.Kind == "" {
			nm.Kind = engine.KindFact
		}
		if id, ok := hashes[engine.ContentHash(nm.Content)]; ok {
			return "unchanged", id, nil // a hand-added line imported before
		}
		if err := engine.ValidateMemory(nm); err != nil {
			return "", 0, err
		}
		if en.file == "HOT.md" {
			// HOT is always loaded: a person's new line waits for the
			// curator as a proposal, like every promotion.
			if open, err := curate.OpenProposal(ctx, q, curate.ProposalAdd, 0, nm.Content); err != nil || open {
				return "unchanged", 0, err
			}
			p, err := curate.NewMDProposal(curate.ProposalAdd, 0, nm, en.file, en.line, fmt.Sprintf("written by hand into HOT.md line %d: a HOT %s", en.line, nm.Type), now)
			if err != nil {
				return "", 0, err
			}
			return "proposed", 0, q.InsertProposal(ctx, p)
		}
		if err := e.PrepareMemory(ctx, nm); err != nil {
			return "", 0, err
		}
		out := "inserted"
		if idFree {
			nm.ID = en.t.ID
			err = q.InsertMemoryAt(ctx, nm, a)
		} else {
			if en.t.ID != 0 {
				out = "renumbered"
			}
			err = q.InsertMemory(ctx, nm, a)
		}
		if err != nil {
			return "", 0, err
		}
		hashes[nm.Hash] = nm.ID
		if idFree {
			back.at[nm.ID] = true
			if en.t.SupersededBy != 0 {
				back.formers[nm.ID] = en
			}
		}
		return out, nm.ID, nil
	}
	if m.Status == engine.StatusQuarantined {
		// An export never lists quarantined memories: the file predates the
		// quarantine, and importing it must not undo a curator's decision.
		return fmt.Sprintf("memory %d is quarantined; restore it with a restore proposal, not an import", m.ID), m.ID, nil
	}
	if from := engine.TierFile(m); from != "" && from != en.file {
		want := *m
		en.apply(&want)
		if open, err := curate.OpenProposal(ctx, q, curate.ProposalMove, m.ID, ""); err != nil || open {
			return "unchanged", m.ID, err
		}
		p, err := curate.NewMDProposal(curate.ProposalMove, m.ID, &want, en.file, en.line, fmt.Sprintf("its line moved from %s to %s:%d", from, en.file, en.line), now)
		if err != nil {
			return "", m.ID, err
		}
		return "proposed", m.ID, q.InsertProposal(ctx, p)
	}
	oldContent := m.Content
	if !en.apply(m) {
		return "unchanged", m.ID, nil
	}
	if m.Content != oldContent {
		m.Embedding, m.Embedder = nil, ""
	}
	if err := e.PrepareMemory(ctx, m); err != nil {
		return "", m.ID, err
	}
	return "updated", m.ID, q.UpdateMemory(ctx, m, a, "import")
}
