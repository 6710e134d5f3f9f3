package importer

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"memtrace/capture"
)

var (
	// importToken is a Claude Code import, "@path/to/file": an @ at the
	// start or after a space, then a path with a slash or a dot in it.
	importToken = regexp.MustCompile(`(?:^|\s)@[~\w.-]*[/.][\w./~-]*`)
	// badge is a Markdown image, or a link around one ([![alt](img)](url)).
	badge = regexp.MustCompile(`\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)|!\[[^\]]*\]\([^)]*\)`)
	// tableRule is a table's separator row: |---|:--:|.
	tableRule = regexp.MustCompile(`^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$`)
	// sentenceEnd splits a paragraph into sentences.
	sentenceEnd = regexp.MustCompile(`[.!?。]\s+`)
)

// mdReader is the state of one file's Markdown read.
type mdReader struct {
	name        string
	date        time.Time
	scope       fileScope
	out         []capture.StoredMemory
	section     string
	entry       []string
	entryLine   int
	listEntry   bool
	inCode      bool
	inComment   bool
	frontMatter bool
	front       []string
	prevBlank   bool
	seen        map[string]int
}

// readMemoryFile reads one Markdown file's entries.
func readMemoryFile(root, path string, scope fileScope) ([]capture.StoredMemory, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file; passed over")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read: %w", err)
	}
	defer f.Close()
	r := &mdReader{name: rel(root, path), date: fi.ModTime().UTC(), scope: scope, seen: map[string]int{}, prevBlank: true}
	if m := fileDate.FindString(filepath.Base(path)); m != "" {
		if t, err := time.Parse("2006-01-02", m); err == nil {
			r.date = t
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		r.line(n, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return r.out, fmt.Errorf("read: %w", err)
	}
	r.flush()
	return r.out, nil
}

func (r *mdReader) line(n int, line string) {
	if n == 1 {
		line = strings.TrimPrefix(line, "\ufeff")
		if strings.TrimSpace(line) == "---" {
			r.frontMatter = true
			return
		}
	}
	trimmed := strings.TrimSpace(line)
	if r.frontMatter {
		if trimmed == "---" {
			r.frontMatter = false
			r.readFrontMatter()
		} else {
			r.front = append(r.front, line)
		}
		return
	}
	if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
		r.flush()
		r.inCode = !r.inCode
		return
	}
	if r.inCode {
		return
	}
	line, trimmed = r.stripComments(line)
	blank := trimmed == ""
	defer func() { r.prevBlank = blank }()
	switch {
	case blank:
		r.flush()
	case strings.HasPrefix(trimmed, "#"):
		r.flush()
		r.section = strings.TrimSpace(strings.TrimLeft(trimmed, "#"))
	case strings.HasPrefix(trimmed, "|") || tableRule.MatchString(trimmed):
		r.flush() // a table row: structure, not a statement
	case (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")) && len(r.entry) == 0 && r.prevBlank:
		blank = true // an indented code block
	case strings.TrimSpace(badge.ReplaceAllString(trimmed, "")) == "":
		r.flush() // a line of badges or images
	case listItem.MatchString(line):
		r.flush() // every item, nested ones too, is a memory of its own
		r.entry, r.entryLine, r.listEntry = []string{listItem.FindStringSubmatch(line)[2]}, n, true
	default:
		if len(r.entry) == 0 {
			r.entryLine, r.listEntry = n, false
		}
		r.entry = append(r.entry, trimmed)
	}
}

// stripComments removes HTML comments, which may span lines.
func (r *mdReader) stripComments(line string) (string, string) {
	var b strings.Builder
	rest := line
	for rest != "" {
		if r.inComment {
			end := strings.Index(rest, "-->")
			if end < 0 {
				rest = ""
				break
			}
			rest, r.inComment = rest[end+3:], false
			continue
		}
		start := strings.Index(rest, "<!--")
		if start < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:start])
		rest, r.inComment = rest[start+4:], true
	}
	out := b.String()
	return out, strings.TrimSpace(out)
}

// readFrontMatter takes a rule's "paths:" globs (a list, or one string of
// comma-separated globs) as the file's applies_to.
func (r *mdReader) readFrontMatter() {
	var fm map[string]any
	if yaml.Unmarshal([]byte(strings.Join(r.front, "\n")), &fm) != nil {
		return
	}
	var globs []string
	switch v := fm["paths"].(type) {
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok && strings.TrimSpace(s) != "" {
				globs = append(globs, strings.TrimSpace(s))
			}
		}
	case string:
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				globs = append(globs, s)
			}
		}
	}
	if len(globs) > 0 {
		r.scope.appliesTo = globs
	}
}

// dropImports removes the sentences of a paragraph that hold an @import
// (they point at another file; the token is no statement) and, in a list
// item, the tokens themselves.
func dropImports(text string, list bool) string {
	if !importToken.MatchString(text) {
		return text
	}
	if list {
		return strings.Join(strings.Fields(importToken.ReplaceAllString(text, " ")), " ")
	}
	var keep []string
	last := 0
	for _, loc := range append(sentenceEnd.FindAllStringIndex(text, -1), []int{len(text), len(text)}) {
		s := strings.TrimSpace(text[last:loc[1]])
		last = loc[1]
		if s != "" && !importToken.MatchString(s) {
			keep = append(keep, s)
		}
	}
	return strings.Join(keep, " ")
}

func (r *mdReader) flush() {
	text := strings.TrimSpace(strings.Join(r.entry, " "))
	list := r.listEntry
	r.entry, r.listEntry = nil, false
	text = strings.TrimSpace(dropImports(text, list))
	if text == "" {
		return
	}
	sum := sha256.Sum256([]byte(strings.Join(strings.Fields(text), " ")))
	id := r.name + "#" + hex.EncodeToString(sum[:6])
	r.seen[id]++
	if n := r.seen[id]; n > 1 {
		id += "-" + strconv.Itoa(n)
	}
	meta := map[string]any{"file": r.name}
	if r.section != "" {
		meta["section"] = r.section
	}
	if len(r.scope.appliesTo) > 0 {
		meta["applies_to"] = r.scope.appliesTo
	}
	r.out = append(r.out, capture.StoredMemory{SourceID: id, Text: text, Importance: math.NaN(), CreatedAt: r.date,
		Scope: r.scope.scope, Position: r.name + ":" + strconv.Itoa(r.entryLine), Metadata: meta})
}
