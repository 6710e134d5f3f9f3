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
	"strings"
	"time"

	"memtrace/capture"
	"memtrace/curate"
	"memtrace/engine"
)

// MarkdownImport reports an import of the Markdown tiers.
type MarkdownImport struct {
	Dir       string   `json:"dir"`
	Batch     string   `json:"batch"`
	Files     int      `json:"files"`
	Lines     int      `json:"lines"` // memory lines read
	Updated   int      `json:"updated"`
	Inserted  int      `json:"inserted"`
	Unchanged int      `json:"unchanged"`
	Lessons   int      `json:"lessons"`  // corrections inserted or updated
	Proposed  int      `json:"proposed"` // proposals written for the curator (moves, deletions, HOT lines, counts)
	Skipped   []string `json:"skipped,omitempty"`
}

// mdEntry is one memory line read from a tier file.
type mdEntry struct {
	file    string
	line    int
	content string
	t       mdLine
	trailer bool
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
		for _, en := range entries {
			out, id, err := importEntry(ctx, e, q, en, a, now, hashes)
			if id != 0 {
				seen[id] = true
			}
			if err != nil {
				if engine.ErrorCode(err) == engine.EINVALID {
					skipped = append(skipped, fmt.Sprintf("%s:%d: %s", en.file, en.line, engine.ErrorMessage(err)))
					continue
				}
				return engine.Errorf(engine.ErrorCode(err), "%s:%d: %s", en.file, en.line, engine.ErrorMessage(err))
			}
			switch out {
			case "inserted":
				res.Inserted++
			case "updated":
				res.Updated++
			case "proposed":
				res.Proposed++
			case "unchanged":
				res.Unchanged++
			default:
				skipped = append(skipped, fmt.Sprintf("%s:%d: %s", en.file, en.line, out))
			}
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
			text, err := unescapeLine(stripUntil(stripDate(body[:i], en.t), en.t))
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

// importEntry handles one line: out is "inserted", "updated", "proposed",
// "unchanged", or why the line was left alone; id is the memory the line
// names (0 for a new line). An EINVALID error reports the line and the
// import goes on.
func importEntry(ctx context.Context, e *engine.Engine, q engine.Queries, en mdEntry, a engine.Actor, now time.Time, hashes map[string]int64) (out string, id int64, err error) {
	if en.t.Scope != "" && !engine.ValidScope(en.t.Scope) {
		return "", 0, engine.Errorf(engine.EINVALID, "scope %q is not global, project:NAME or domain:NAME; fix the trailer", en.t.Scope)
	}
	if en.trailer && (math.IsNaN(en.t.Imp) || en.t.Imp < 0 || en.t.Imp > 1) {
		return "", 0, engine.Errorf(engine.EINVALID, "importance %v is not a number from 0 to 1; fix \"imp\" in the trailer", en.t.Imp)
	}
	var m *engine.Memory
	if en.t.ID != 0 {
		m, err = q.GetMemory(ctx, en.t.ID)
		if err != nil && engine.ErrorCode(err) != engine.ENOTFOUND {
			return "", 0, err
		}
		if m != nil && en.t.Key != "" && m.Key != en.t.Key {
			return "", 0, engine.Errorf(engine.ECONFLICT, "id %d has key %q in the database, %q in the file; the file comes from another database — remove the id to import it as new", m.ID, m.Key, en.t.Key)
		}
	}
	if m == nil && en.t.Key != "" {
		m, err = q.GetMemoryByKey(ctx, en.t.Key)
		if err != nil && engine.ErrorCode(err) != engine.ENOTFOUND {
			return "", 0, err
		}
	}
	if m == nil {
		nm := &engine.Memory{Key: en.t.Key, Importance: 0.5, Role: "user", CreatedAt: now, LastAccessedAt: now}
		en.apply(nm)
		if en.t.SupersededBy != 0 {
			// A former fact of another database, whose newer memory is
			// not here to link to: archived, so that it never comes back
			// as current.
			nm.Tier, nm.Status = engine.TierCold, engine.StatusArchived
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
		if err := q.InsertMemory(ctx, nm, a); err != nil {
			return "", 0, err
		}
		hashes[nm.Hash] = nm.ID
		return "inserted", nm.ID, nil
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
