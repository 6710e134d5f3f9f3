package tiers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"memtrace/internal/outfile"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/safetext"
)

// The Markdown tiers (seed 002) are files an agent can read: HOT.md,
// WARM.md (global WARM memories), projects/NAME.md, domains/NAME.md,
// archive/YYYY-MM.md and corrections.md. One memory is one line:
//
//	- TEXT <!-- mt {"id":12,"key":"m0005","kind":"fact","type":"preference","imp":0.7} -->
//
// TEXT is the content with backslashes, line breaks and control characters
// escaped (\\, \n, \r, \t, \u001b), so a file never carries a terminal
// control sequence and one memory never spans two lines. The trailer names
// the memory so that `import md` can update it; a line without a trailer is
// a new memory. Export is deterministic (files by name, memories by id), and
// export → import → export is byte-identical.

// mdTrailerStart opens the machine-readable trailer of a line.
const mdTrailerStart = " <!-- mt "

// mdLine is the trailer of one memory line. Fields the file already implies
// (tier, scope of a WARM file, status) are left out.
type mdLine struct {
	ID     int64         `json:"id,omitempty"`
	Key    string        `json:"key,omitempty"`
	Kind   engine.Kind   `json:"kind,omitempty"`
	Type   string        `json:"type,omitempty"`
	Imp    float64       `json:"imp"`
	Scope  string        `json:"scope,omitempty"`
	Status engine.Status `json:"status,omitempty"`
	// SupersededBy and ValidTo: a former fact (archived because a newer
	// memory superseded it) and when it stopped holding; its text starts
	// with "[until DATE] ".
	SupersededBy int64  `json:"superseded_by,omitempty"`
	ValidTo      string `json:"valid_to,omitempty"`
}

// mdLesson is the trailer of a corrections.md entry's title.
type mdLesson struct {
	LessonKey string `json:"lesson_key"`
	Scope     string `json:"scope,omitempty"`
}

// MarkdownFile is one file an export wrote.
type MarkdownFile struct {
	Path  string `json:"path"` // relative to the export directory
	Lines int    `json:"lines"`
	Cap   int    `json:"cap,omitempty"`
	Items int    `json:"items"`
}

// MarkdownExport reports an export.
type MarkdownExport struct {
	Dir     string         `json:"dir"`
	Files   []MarkdownFile `json:"files"`
	Removed []string       `json:"removed,omitempty"` // stale tier files of an earlier export
}

// RenderMarkdown renders every tier file and corrections.md, keyed by path
// relative to the export directory.
func RenderMarkdown(ctx context.Context, e *engine.Engine) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, s := range e.TierScopes() {
		var b bytes.Buffer
		fmt.Fprintln(&b, tierTitle(s))
		fmt.Fprintln(&b)
		for _, id := range s.Memories {
			m, ok := e.Memory(id)
			if !ok {
				continue
			}
			line, err := memoryLine(&m, s.File)
			if err != nil {
				return nil, err
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
		files[s.File] = b.Bytes()
	}
	if _, ok := files["HOT.md"]; !ok {
		files["HOT.md"] = []byte(tierTitle(engine.TierScope{File: "HOT.md", Tier: engine.TierHot, Lines: engine.TierHeaderLines, Cap: engine.HotLineCap}) + "\n\n")
	}
	cs, err := allCorrections(ctx, e)
	if err != nil {
		return nil, err
	}
	corr, err := renderCorrections(cs)
	if err != nil {
		return nil, err
	}
	files["corrections.md"] = corr
	return files, nil
}

func tierTitle(s engine.TierScope) string {
	count := fmt.Sprintf("%d/%d lines", s.Lines, s.Cap)
	if s.Cap == 0 {
		count = fmt.Sprintf("%d lines", s.Lines)
	}
	switch {
	case s.File == "HOT.md":
		return "# HOT — always loaded (" + count + ")"
	case s.File == "WARM.md":
		return "# WARM — global (" + count + ")"
	case strings.HasPrefix(s.File, "projects/"):
		return "# WARM — project " + escapeLine(strings.TrimPrefix(s.Scope, "project:")) + " (" + count + ")"
	case strings.HasPrefix(s.File, "domains/"):
		return "# WARM — domain " + escapeLine(strings.TrimPrefix(s.Scope, "domain:")) + " (" + count + ")"
	}
	month := strings.TrimSuffix(strings.TrimPrefix(s.File, "archive/"), ".md")
	return "# COLD — archive " + month + " (" + count + ")"
}

// memoryLine renders one memory for file.
func memoryLine(m *engine.Memory, file string) (string, error) {
	t := mdLine{ID: m.ID, Key: m.Key, Kind: m.Kind, Type: m.Type, Imp: m.Importance}
	cold := strings.HasPrefix(file, "archive/")
	if cold || m.Scope != engine.FileScope(file) {
		t.Scope = m.Scope
	}
	if cold && m.Status != engine.StatusArchived {
		t.Status = m.Status
	}
	until := ""
	if m.SupersededBy != 0 {
		t.SupersededBy, t.ValidTo = m.SupersededBy, m.ValidTo.UTC().Format(time.RFC3339)
		until = "[until " + m.ValidTo.UTC().Format("2006-01-02") + "] "
	}
	raw, err := json.Marshal(t) // escapes < and >, so "-->" never appears inside
	if err != nil {
		return "", fmt.Errorf("render memory %d: %w", m.ID, err)
	}
	return "- " + episodeDate(m) + until + escapeLine(m.Content) + mdTrailerStart + string(raw) + " -->", nil
}

// episodeDate is the "[2026-03-01] " an episode's line starts with: an
// episode is about a day, and an agent reading the file needs it. Import
// strips it again (stripDate).
func episodeDate(m *engine.Memory) string {
	if m.Kind != engine.KindEpisode || m.CreatedAt.IsZero() {
		return ""
	}
	return "[" + m.CreatedAt.UTC().Format("2006-01-02") + "] "
}

// stripDate removes the date episodeDate put before an episode's text.
func stripDate(text string, t mdLine) string {
	if t.Kind != engine.KindEpisode || len(text) < 13 || text[0] != '[' || text[11] != ']' || text[12] != ' ' {
		return text
	}
	if _, err := time.Parse("2006-01-02", text[1:11]); err != nil {
		return text
	}
	return text[13:]
}

// stripUntil removes the "[until DATE] " memoryLine put before a former
// fact's text (after stripDate).
func stripUntil(text string, t mdLine) string {
	if t.SupersededBy == 0 {
		return text
	}
	rest, ok := strings.CutPrefix(text, "[until ")
	if !ok || len(rest) < 12 || rest[10:12] != "] " {
		return text
	}
	if _, err := time.Parse("2006-01-02", rest[:10]); err != nil {
		return text
	}
	return rest[12:]
}

func allCorrections(ctx context.Context, e *engine.Engine) ([]*engine.Correction, error) {
	var all []*engine.Correction
	for _, st := range engine.CorrectionStatuses() {
		cs, err := e.Store().FindCorrections(ctx, st)
		if err != nil {
			return nil, fmt.Errorf("corrections: %w", err)
		}
		all = append(all, cs...)
	}
	// By the day the file shows, then the key: the order is a function of
	// what the file holds, so a file read into a new database exports in
	// the same order again.
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i].FirstSeen.UTC().Format(time.DateOnly), all[j].FirstSeen.UTC().Format(time.DateOnly)
		if a != b {
			return a < b
		}
		return all[i].LessonKey < all[j].LessonKey
	})
	return all, nil
}

// renderCorrections writes corrections.md in seed 002's entry format.
func renderCorrections(cs []*engine.Correction) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# Corrections\n")
	for _, c := range cs {
		raw, err := json.Marshal(mdLesson{LessonKey: c.LessonKey, Scope: c.Scope})
		if err != nil {
			return nil, fmt.Errorf("render lesson %s: %w", c.LessonKey, err)
		}
		fmt.Fprintf(&b, "\n## %s — %s%s%s -->\n\n", c.FirstSeen.UTC().Format("2006-01-02"), lessonTitle(c), mdTrailerStart, raw)
		fmt.Fprintf(&b, "- Context: %s\n", escapeLine(c.Context))
		fmt.Fprintf(&b, "- Correction: \"%s\"\n", escapeLine(c.Correction))
		fmt.Fprintf(&b, "- Lesson: %s\n", escapeLine(c.Lesson))
		fmt.Fprintf(&b, "- Count: %d/%d\n", c.Count, engine.PromotionThreshold)
		fmt.Fprintf(&b, "- Status: %s\n", c.Status)
	}
	return b.Bytes(), nil
}

// lessonTitle is a short title for a lesson entry (display only; import
// reads the lesson from its own line).
func lessonTitle(c *engine.Correction) string {
	t := capture.SquashSpaces(c.Lesson)
	if t == "" {
		t = c.LessonKey
	}
	if utf8.RuneCountInString(t) > 60 {
		t = string([]rune(t)[:59]) + "…"
	}
	return escapeLine(t)
}

// ExportMarkdown writes the Markdown tiers to dir and removes tier files of
// an earlier export that no longer have memories (only *.md files at the
// paths the tiers use).
func ExportMarkdown(ctx context.Context, e *engine.Engine, dir string) (*MarkdownExport, error) {
	files, err := RenderMarkdown(ctx, e)
	if err != nil {
		return nil, err
	}
	out := &MarkdownExport{Dir: dir}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	// Nothing is written until every path is known to be safe: a symbolic
	// link anywhere under dir (a file, a subdirectory, a dangling one) is
	// refused, so an export cannot write outside dir or through a link.
	if err := refuseLinks(dir, append(paths, "projects", "domains", "archive")); err != nil {
		return nil, err
	}
	perm := e.Store().FilePerm()
	if err := outfile.MkdirAll(dir, perm); err != nil {
		return nil, fileError("create directory", dir, err)
	}
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := outfile.MkdirAll(filepath.Dir(full), perm); err != nil {
			return nil, fileError("create directory", filepath.Dir(full), err)
		}
		if err := writeFileAtomic(full, files[p], perm); err != nil {
			return nil, err
		}
		lines := bytes.Count(files[p], []byte("\n"))
		items := bytes.Count(files[p], []byte("\n- "))
		if p == "corrections.md" {
			items = bytes.Count(files[p], []byte("\n## "))
		}
		out.Files = append(out.Files, MarkdownFile{Path: p, Lines: lines, Cap: capOf(p), Items: items})
	}
	stale, err := tierFiles(dir)
	if err != nil {
		return nil, err
	}
	for _, p := range stale {
		if _, ok := files[p]; ok {
			continue
		}
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			return nil, fmt.Errorf("export md: remove stale %s: %w", p, err)
		}
		out.Removed = append(out.Removed, p)
	}
	return out, nil
}

func capOf(p string) int {
	if p == "corrections.md" {
		return 0
	}
	return engine.FileCap(p)
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it over path: a reader sees the old file or the new one, never half of
// one, and a link at path is replaced, not followed.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	f, err := outfile.CreateTemp(path, perm)
	if err != nil {
		return fileError("write", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fileError("write", path, err)
	}
	return nil
}

// tierFiles lists the tier files present in dir, relative and sorted.
func tierFiles(dir string) ([]string, error) {
	var out []string
	for _, p := range []string{"HOT.md", "WARM.md", "corrections.md"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			out = append(out, p)
		}
	}
	for _, sub := range []string{"projects", "domains", "archive"} {
		ms, err := filepath.Glob(filepath.Join(dir, sub, "*.md"))
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", sub, err)
		}
		for _, m := range ms {
			out = append(out, sub+"/"+filepath.Base(m))
		}
	}
	sort.Strings(out)
	return out, nil
}

// escapeLine makes text one line with no control characters; unescapeLine
// reverses it exactly.
func escapeLine(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || safetext.ActsOnTerminal(r):
			// Controls, bidi overrides and the like are written as escapes,
			// so the file reads safely in a terminal and imports exactly.
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func unescapeLine(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			return "", fmt.Errorf("a lone backslash ends the line; write \\\\ for a backslash")
		}
		i++
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			if i+4 >= len(s) {
				return "", fmt.Errorf("\\u needs four hex digits")
			}
			v, err := strconv.ParseUint(s[i+1:i+5], 16, 32)
			if err != nil {
				return "", fmt.Errorf("\\u%s is not four hex digits", s[i+1:i+5])
			}
			b.WriteRune(rune(v))
			i += 4
		case 'U':
			if i+8 >= len(s) {
				return "", fmt.Errorf("\\U needs eight hex digits")
			}
			v, err := strconv.ParseUint(s[i+1:i+9], 16, 32)
			if err != nil {
				return "", fmt.Errorf("\\U%s is not eight hex digits", s[i+1:i+9])
			}
			b.WriteRune(rune(v))
			i += 8
		default:
			return "", fmt.Errorf("unknown escape \\%c; write \\\\ for a backslash", s[i])
		}
	}
	return b.String(), nil
}
