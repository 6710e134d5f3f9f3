package tiers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"memtrace/capture"
	"memtrace/curate"
	"memtrace/engine"
)

// MarkdownImport reports an import of the Markdown tiers.
type MarkdownImport struct {
	Dir       string `json:"dir"`
	Batch     string `json:"batch"`
	Files     int    `json:"files"`
	Lines     int    `json:"lines"` // memory lines read
	Updated   int    `json:"updated"`
	Inserted  int    `json:"inserted"`
	Unchanged int    `json:"unchanged"`
	// Renumbered counts inserted lines whose id the file names was taken in
	// this database by another memory (the file comes from another
	// database): they were inserted under a new id. A line whose id is free
	// is inserted under that id, so an export read into a new database
	// keeps its ids.
	Renumbered int      `json:"renumbered"`
	Lessons    int      `json:"lessons"`  // corrections inserted or updated
	Proposed   int      `json:"proposed"` // proposals written for the curator (moves, deletions, HOT lines, counts)
	Skipped    []string `json:"skipped,omitempty"`
}

// mdEntry is one memory line read from a tier file.
type mdEntry struct {
	file    string
	line    int
	content string
	t       mdLine
	trailer bool
	day     time.Time // an episode's "[2026-03-01] " date, zero without one
}

// ImportMarkdown reads the Markdown tiers in dir back, with the curator in
// the loop (seed 002: a human confirms every move):
//
//   - a line that names a memory (by id, else key) in its own file updates
//     it when its text, kind, type or importance differ;
//   - a line moved to another file (tier or scope) becomes a move proposal;
//   - a memory whose line was deleted from a file becomes a quarantine
//     proposal — import never deletes or quarantines by itself;
//   - a hand-written line without a trailer in HOT.md becomes an add
//     proposal for a HOT rule; elsewhere it is inserted in the file's tier
//     and scope; a line whose text is already a memory (or an open
//     proposal) is left alone, so importing again changes nothing;
//   - a line with an invalid importance or scope is reported by file:line
//     and the rest imports;
//   - in corrections.md an edited Count is not written: counts come from
//     what was said; a count raised to the threshold becomes a promotion
//     proposal. Other lesson fields are written.
//
// Symbolic links in dir are refused. The writes are one transaction
// audited under one batch; proposals wait in the Curate tab.
func ImportMarkdown(ctx context.Context, e *engine.Engine, dir string) (*MarkdownImport, error) {
	files, err := tierFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, engine.Errorf(engine.ENOTFOUND, "no tier files (HOT.md, projects/, domains/, archive/, corrections.md) in %s; write them with `memtrace export md %s`", dir, dir)
	}
	if err := refuseLinks(dir, files); err != nil {
		return nil, err
	}
	now := e.Now()
	batch, err := e.Store().NextBatchID(ctx, engine.BatchImport)
	if err != nil {
		return nil, err
	}
	res := &MarkdownImport{Dir: dir, Batch: batch, Files: len(files)}
	var entries []mdEntry
	var lessons []*engine.Correction
	present := map[string]bool{}
	for _, f := range files {
		present[f] = true
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return nil, fileError("read", filepath.Join(dir, f), err)
		}
		if f == "corrections.md" {
			ls, err := parseCorrections(data)
			if err != nil {
				return nil, engine.Errorf(engine.EINVALID, "%s: %s", f, engine.ErrorMessage(err))
			}
			lessons = append(lessons, ls...)
			continue
		}
		es, bad := parseTierFile(f, data)
		res.Skipped = append(res.Skipped, bad...)
		entries = append(entries, es...)
	}
	res.Lines = len(entries)
	// What the files would hold if exported now: a memory listed there
	// whose line is gone was deleted by hand.
	scopes := e.TierScopes()
	hashes := map[string]int64{} // content hash → memory, for hand-added lines
	e.EachMemory(func(m *engine.Memory) bool {
		if m.Status != engine.StatusQuarantined {
			hashes[m.Hash] = m.ID
		}
		return true
	})
	a := engine.Actor{Name: engine.ActorImport, Batch: batch}
	err = e.Update(ctx, func(q engine.Queries) error {
		res.Updated, res.Inserted, res.Unchanged, res.Lessons, res.Proposed = 0, 0, 0, 0, 0
		skipped := res.Skipped
		seen := map[int64]bool{}
		// Lines that name an id go first, so a line inserted under a new id
		// cannot take an id a later line of the files names.
		var named, later []mdEntry
		for _, en := range entries {
			if en.t.ID != 0 {
				named = append(named, en)
			} else {
				later = append(later, en)
			}
		}
		var deferred []mdEntry
		back := restored{at: map[int64]bool{}, formers: map[int64]mdEntry{}}
		for _, en := range named {
			out, id, err := importEntry(ctx, e, q, en, a, now, hashes, back, false)
			if err == nil && out == outRenumber {
				deferred = append(deferred, en)
				continue
			}
			skipped = tally(res, skipped, en, out, id, err, seen)
			if err != nil && engine.ErrorCode(err) != engine.EINVALID {
				return engine.Errorf(engine.ErrorCode(err), "%s:%d: %s", en.file, en.line, engine.ErrorMessage(err))
			}
		}
		for _, en := range append(deferred, later...) {
			out, id, err := importEntry(ctx, e, q, en, a, now, hashes, back, true)
			skipped = tally(res, skipped, en, out, id, err, seen)
			if err != nil && engine.ErrorCode(err) != engine.EINVALID {
				return engine.Errorf(engine.ErrorCode(err), "%s:%d: %s", en.file, en.line, engine.ErrorMessage(err))
			}
		}
		if err := back.links(ctx, q, a); err != nil {
			return err
		}
		for _, sc := range scopes {
			if !present[sc.File] {
				continue
			}
			for _, id := range sc.Memories {
				if seen[id] {
					continue
				}
				if open, err := curate.OpenProposal(ctx, q, engine.ProposalQuarantine, id, ""); err != nil {
					return err
				} else if open {
					continue
				}
				p := &engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: id, Proposer: curate.ProposerImport, Confidence: 1,
					Status: engine.ProposalPending, CreatedAt: now, Reason: fmt.Sprintf("its line was deleted from %s", sc.File)}
				if err := q.InsertProposal(ctx, p); err != nil {
					return err
				}
				res.Proposed++
			}
		}
		for _, l := range lessons {
			n, note, err := importLesson(ctx, e, q, l, now)
			if err != nil {
				return err
			}
			res.Lessons += n
			switch note {
			case "proposed":
				res.Proposed++
			case "":
			default:
				skipped = append(skipped, "corrections.md: "+note)
			}
		}
		res.Skipped = skipped
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("import md: %w", err)
	}
	return res, nil
}

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

// parseTierFile reads the memory lines of one tier file; a line it cannot
// read is reported by file:line in bad and the rest is read.
func parseTierFile(file string, data []byte) (out []mdEntry, bad []string) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	n := 0
	for sc.Scan() {
		n++
		line, _ := capture.RedactSecrets(sc.Text()) // a hand edit may paste a secret
		body, ok := strings.CutPrefix(line, "- ")
		if !ok {
			continue
		}
		en := mdEntry{file: file, line: n}
		if i := strings.LastIndex(body, mdTrailerStart); i >= 0 && strings.HasSuffix(body, " -->") {
			raw := body[i+len(mdTrailerStart) : len(body)-len(" -->")]
			if err := json.Unmarshal([]byte(raw), &en.t); err != nil {
				bad = append(bad, fmt.Sprintf("%s:%d: the <!-- mt … --> trailer is not valid JSON (%s); fix it or remove it to import the line as a new memory", file, n, capture.JSONProblem(err)))
				continue
			}
			undated := stripDate(body[:i], en.t)
			if len(undated) < len(body[:i]) {
				en.day, _ = time.Parse("2006-01-02", body[1:11])
			}
			text, err := unescapeLine(stripUntil(undated, en.t))
			if err != nil {
				bad = append(bad, fmt.Sprintf("%s:%d: %v", file, n, err))
				continue
			}
			en.content, en.trailer = text, true
		} else {
			en.content = strings.TrimSpace(body)
		}
		if en.content == "" {
			continue
		}
		out = append(out, en)
	}
	if err := sc.Err(); err != nil {
		bad = append(bad, fmt.Sprintf("%s:%d: cannot read further (%v)", file, n+1, err))
	}
	return out, bad
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

// CheckTierDir reports, before any database is opened, whether dir holds
// tier files an import can read (and no symbolic link among them).
func CheckTierDir(dir string) error {
	files, err := tierFiles(dir)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return engine.Errorf(engine.ENOTFOUND, "no tier files (HOT.md, projects/, domains/, archive/, corrections.md) in %s; write them with `memtrace export md %s`", dir, dir)
	}
	return refuseLinks(dir, files)
}

// refuseLinks refuses an import from a directory whose tier files or
// subdirectories are symbolic links: a file tree must not point memtrace at
// files outside it.
func refuseLinks(dir string, files []string) error {
	checked := map[string]bool{}
	for _, f := range files {
		parts := strings.Split(f, "/")
		for i := range parts {
			rel := strings.Join(parts[:i+1], "/")
			if checked[rel] {
				continue
			}
			checked[rel] = true
			full := filepath.Join(dir, filepath.FromSlash(rel))
			if fi, err := os.Lstat(full); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				return engine.Errorf(engine.EINVALID, "%s is a symbolic link; memtrace does not follow links in a tier directory — replace it with the file itself", full)
			}
		}
	}
	return nil
}

// fileError is a file-system failure in words a person can act on.
func fileError(what, path string, err error) error {
	var pe *os.PathError
	reason := err.Error()
	if errors.As(err, &pe) {
		reason = pe.Err.Error()
	}
	switch {
	case errors.Is(err, os.ErrPermission):
		return engine.Errorf(engine.EUNAVAIL, "cannot %s %s: permission denied; check its permissions", what, path)
	case errors.Is(err, os.ErrNotExist):
		return engine.Errorf(engine.ENOTFOUND, "cannot %s %s: no such file or directory; check the path (its parent directory must exist)", what, path)
	}
	return engine.Errorf(engine.EUNAVAIL, "cannot %s %s: %s", what, path, reason)
}
