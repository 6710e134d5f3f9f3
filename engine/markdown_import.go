package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
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
	Lessons   int      `json:"lessons"` // corrections inserted or updated
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

// ImportMarkdown reads the Markdown tiers in dir back: a line that names a
// memory (by id, else key) updates it when its text, kind, type,
// importance, tier, scope or status differ; a line without a trailer (or
// naming an unknown memory) inserts a new memory in the file's tier and
// scope; corrections.md updates or inserts lessons. Memories absent from
// the files are left as they are — import never deletes. All of it is one
// transaction audited under batch "import-md-<timestamp>".
func (e *Engine) ImportMarkdown(ctx context.Context, dir string) (*MarkdownImport, error) {
	files, err := tierFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, Errorf(ENOTFOUND, "no tier files (HOT.md, projects/, domains/, archive/, corrections.md) in %s; write them with `memtrace export md %s`", dir, dir)
	}
	now := e.Now()
	batch, err := e.Store().NextBatchID(ctx, BatchImport)
	if err != nil {
		return nil, err
	}
	res := &MarkdownImport{Dir: dir, Batch: batch, Files: len(files)}
	var entries []mdEntry
	var lessons []*Correction
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return nil, fmt.Errorf("import md: %w", err)
		}
		if f == "corrections.md" {
			ls, err := parseCorrections(data)
			if err != nil {
				return nil, Errorf(EINVALID, "%s: %s", f, ErrorMessage(err))
			}
			lessons = append(lessons, ls...)
			continue
		}
		es, err := parseTierFile(f, data)
		if err != nil {
			return nil, err
		}
		entries = append(entries, es...)
	}
	res.Lines = len(entries)
	a := Actor{Name: ActorImport, Batch: batch}
	err = e.Update(ctx, func(q Queries) error {
		res.Updated, res.Inserted, res.Unchanged, res.Lessons, res.Skipped = 0, 0, 0, 0, nil
		for _, en := range entries {
			changed, inserted, skip, err := e.importEntry(ctx, q, en, a, now)
			if skip != "" {
				res.Skipped = append(res.Skipped, fmt.Sprintf("%s:%d: %s", en.file, en.line, skip))
				continue
			}
			if err != nil {
				return Errorf(ErrorCode(err), "%s:%d: %s", en.file, en.line, ErrorMessage(err))
			}
			switch {
			case inserted:
				res.Inserted++
			case changed:
				res.Updated++
			default:
				res.Unchanged++
			}
		}
		for _, l := range lessons {
			n, err := importLesson(ctx, q, l)
			if err != nil {
				return err
			}
			res.Lessons += n
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("import md: %w", err)
	}
	return res, nil
}

// parseTierFile reads the memory lines of one tier file.
func parseTierFile(file string, data []byte) ([]mdEntry, error) {
	var out []mdEntry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		body, ok := strings.CutPrefix(line, "- ")
		if !ok {
			continue
		}
		en := mdEntry{file: file, line: n}
		if i := strings.LastIndex(body, mdTrailerStart); i >= 0 && strings.HasSuffix(body, " -->") {
			raw := body[i+len(mdTrailerStart) : len(body)-len(" -->")]
			if err := json.Unmarshal([]byte(raw), &en.t); err != nil {
				return nil, Errorf(EINVALID, "%s:%d: the <!-- mt … --> trailer is not valid JSON (%v); fix it or remove it to import the line as a new memory", file, n, err)
			}
			text, err := unescapeLine(body[:i])
			if err != nil {
				return nil, Errorf(EINVALID, "%s:%d: %v", file, n, err)
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
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	return out, nil
}

// desired applies what a line says to m (a copy of the stored memory, or a
// new one) and reports whether anything changed.
func (en mdEntry) apply(m *Memory) bool {
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
	scope := fileScope(en.file)
	if en.t.Scope != "" {
		scope = en.t.Scope
	}
	if scope != "" {
		m.Scope = scope
	}
	switch {
	case en.file == "HOT.md":
		m.Tier, m.Status = TierHot, StatusActive
	case cold:
		m.Tier, m.Status = TierCold, StatusArchived
		if en.t.Status != "" {
			m.Status = en.t.Status
		}
		if m.Status == StatusActive {
			m.Tier = TierCold
		}
	default:
		m.Tier, m.Status = TierWarm, StatusActive
	}
	return m.Content != before.Content || m.Kind != before.Kind || m.Type != before.Type ||
		m.Importance != before.Importance || m.Scope != before.Scope || m.Tier != before.Tier || m.Status != before.Status
}

// importEntry writes one line; skip says why a line was left alone.
func (e *Engine) importEntry(ctx context.Context, q Queries, en mdEntry, a Actor, now time.Time) (changed, inserted bool, skip string, err error) {
	if en.t.Scope != "" && !ValidScope(en.t.Scope) {
		return false, false, "", Errorf(EINVALID, "scope %q is not global, project:NAME or domain:NAME", en.t.Scope)
	}
	var m *Memory
	if en.t.ID != 0 {
		m, err = q.GetMemory(ctx, en.t.ID)
		if err != nil && ErrorCode(err) != ENOTFOUND {
			return false, false, "", err
		}
		if m != nil && en.t.Key != "" && m.Key != en.t.Key {
			return false, false, "", Errorf(ECONFLICT, "id %d has key %q in the database, %q in the file; the file comes from another database — remove the id to import it as new", m.ID, m.Key, en.t.Key)
		}
	}
	if m == nil && en.t.Key != "" {
		m, err = q.GetMemoryByKey(ctx, en.t.Key)
		if err != nil && ErrorCode(err) != ENOTFOUND {
			return false, false, "", err
		}
	}
	if m == nil {
		nm := &Memory{Key: en.t.Key, Importance: 0.5, Role: "user", CreatedAt: now, LastAccessedAt: now}
		en.apply(nm)
		if err := e.PrepareMemory(ctx, nm); err != nil {
			return false, false, "", err
		}
		return true, true, "", q.InsertMemory(ctx, nm, a)
	}
	if m.Status == StatusQuarantined {
		// An export never lists quarantined memories: the file predates the
		// quarantine, and importing it must not undo a curator's decision.
		return false, false, fmt.Sprintf("memory %d is quarantined; restore it with a restore proposal, not an import", m.ID), nil
	}
	oldContent := m.Content
	if !en.apply(m) {
		return false, false, "", nil
	}
	if m.Content != oldContent {
		m.Embedding, m.Embedder = nil, ""
	}
	if err := e.PrepareMemory(ctx, m); err != nil {
		return false, false, "", err
	}
	return true, false, "", q.UpdateMemory(ctx, m, a, "import")
}

// parseCorrections reads corrections.md entries.
func parseCorrections(data []byte) ([]*Correction, error) {
	var out []*Correction
	var cur *Correction
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	n := 0
	field := func(line, name string) (string, bool, error) {
		v, ok := strings.CutPrefix(line, "- "+name+": ")
		if !ok {
			return "", false, nil
		}
		s, err := unescapeLine(v)
		return s, true, err
	}
	for sc.Scan() {
		n++
		line := sc.Text()
		if h, ok := strings.CutPrefix(line, "## "); ok {
			c, err := parseLessonTitle(h)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			out = append(out, c)
			cur = c
			continue
		}
		if cur == nil {
			continue
		}
		for _, f := range []struct {
			name string
			set  func(string) error
		}{
			{"Context", func(s string) error { cur.Context = s; return nil }},
			{"Correction", func(s string) error {
				if len(s) >= 2 && strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) {
					s = s[1 : len(s)-1]
				}
				cur.Correction = s
				return nil
			}},
			{"Lesson", func(s string) error { cur.Lesson = s; return nil }},
			{"Count", func(s string) error {
				num, _, _ := strings.Cut(s, "/")
				v, err := strconv.Atoi(strings.TrimSpace(num))
				if err != nil || v < 0 {
					return fmt.Errorf("count %q is not n/%d", s, PromotionThreshold)
				}
				cur.Count = v
				return nil
			}},
			{"Status", func(s string) error {
				switch s {
				case CorrectionPending, CorrectionCandidate, CorrectionPromoted, CorrectionRejected:
					cur.Status = s
					return nil
				}
				return fmt.Errorf("status %q is not pending, candidate, promoted or rejected", s)
			}},
		} {
			v, ok, err := field(line, f.name)
			if err == nil && ok {
				err = f.set(v)
			}
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
		}
	}
	return out, sc.Err()
}

// parseLessonTitle reads "YYYY-MM-DD — title <!-- mt {…} -->".
func parseLessonTitle(h string) (*Correction, error) {
	date, rest, ok := strings.Cut(h, " — ")
	at, err := time.Parse("2006-01-02", date)
	if !ok || err != nil {
		return nil, fmt.Errorf("a lesson title reads `## YYYY-MM-DD — title`")
	}
	c := &Correction{FirstSeen: at, LastSeen: at, Status: CorrectionPending, Scope: ScopeGlobal}
	if i := strings.LastIndex(rest, mdTrailerStart); i >= 0 && strings.HasSuffix(rest, " -->") {
		var t mdLesson
		if err := json.Unmarshal([]byte(rest[i+len(mdTrailerStart):len(rest)-len(" -->")]), &t); err != nil {
			return nil, fmt.Errorf("the lesson trailer is not valid JSON: %v", err)
		}
		c.LessonKey = t.LessonKey
		if t.Scope != "" {
			c.Scope = t.Scope
		}
		rest = rest[:i]
	}
	if c.LessonKey == "" {
		c.LessonKey = "md:" + strings.ReplaceAll(strings.ToLower(squashSpaces(rest)), " ", "-")
	}
	return c, nil
}

// importLesson updates or inserts one lesson; it keeps the stored
// occurrences and first/last seen. It returns 1 when it wrote.
func importLesson(ctx context.Context, q Queries, l *Correction) (int, error) {
	c, err := q.GetCorrection(ctx, l.LessonKey)
	switch {
	case err == nil:
		if c.Context == l.Context && c.Correction == l.Correction && c.Lesson == l.Lesson && c.Count == l.Count && c.Status == l.Status && c.Scope == l.Scope {
			return 0, nil
		}
		c.Context, c.Correction, c.Lesson, c.Count, c.Status, c.Scope = l.Context, l.Correction, l.Lesson, l.Count, l.Status, l.Scope
	case ErrorCode(err) == ENOTFOUND:
		c = l
	default:
		return 0, err
	}
	if err := q.SaveCorrection(ctx, c); err != nil {
		return 0, fmt.Errorf("lesson %s: %w", l.LessonKey, err)
	}
	return 1, nil
}
