package tiers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
		return nil, engine.Errorf(engine.ENOTFOUND, "no tier files (HOT.md, WARM.md, corrections.md, projects/*.md, domains/*.md, archive/*.md) in %s; write them with `memtrace export md %s`", dir, dir)
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

// CheckTierDir reports, before any database is opened, whether dir holds
// tier files an import can read (and no symbolic link among them).
func CheckTierDir(dir string) error {
	files, err := tierFiles(dir)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return engine.Errorf(engine.ENOTFOUND, "no tier files (HOT.md, WARM.md, corrections.md, projects/*.md, domains/*.md, archive/*.md) in %s; write them with `memtrace export md %s`", dir, dir)
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
