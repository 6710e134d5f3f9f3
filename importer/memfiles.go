package importer

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// fileDate finds a YYYY-MM-DD date in a memory file's name
// (memory/2026-03-01.md, the daily logs of OpenClaw and Claude Code).
var fileDate = regexp.MustCompile(`(\d{4}-\d{2}-\d{2})`)

// listItem is a Markdown list item: "- x", "* x", "+ x", "1. x", "1) x",
// with an optional task box ("- [ ] x").
var listItem = regexp.MustCompile(`^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$`)

// ReadMemoryFiles reads Markdown memory files — OpenClaw's and Claude
// Code's MEMORY.md, memory/YYYY-MM-DD.md daily logs, CLAUDE.md — from a
// directory (recursively, in name order) or one file. Each list item is one
// memory (the lines after it up to the next item or blank line joined to
// it), and so is each paragraph outside a list; headings are kept as the entry's section,
// front matter and code blocks are skipped. An entry is dated by its file:
// the date in the file's name, else the file's modification time. Its id is
// the file's path and a hash of its text, so it survives re-import and
// reordering. Symbolic links are never followed: they are reported and
// passed over.
func ReadMemoryFiles(path string) ([]capture.StoredMemory, []capture.RecordError, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, nil, errSymlink(path)
	}
	var files []string
	var bad []capture.RecordError
	root := path
	if fi.IsDir() {
		err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				bad = append(bad, capture.RecordError{Position: p, Error: "cannot read: " + err.Error()})
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				bad = append(bad, capture.RecordError{Position: rel(root, p), Error: "a symbolic link; passed over (memtrace does not follow links)"})
				return nil
			}
			if d.IsDir() && p != path && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() && strings.EqualFold(filepath.Ext(p), ".md") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, bad, err
		}
		if len(files) == 0 {
			return nil, bad, engine.Errorf(engine.ENOTFOUND, "no Markdown memory files (*.md) under %s", path)
		}
	} else {
		root = filepath.Dir(path)
		files = []string{path}
	}
	sort.Strings(files)
	var out []capture.StoredMemory
	for _, f := range files {
		ms, err := readMemoryFile(root, f)
		if err != nil {
			bad = append(bad, capture.RecordError{Position: rel(root, f), Error: err.Error()})
			continue
		}
		out = append(out, ms...)
	}
	return out, bad, nil
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}

// readMemoryFile reads one Markdown file's entries.
func readMemoryFile(root, path string) ([]capture.StoredMemory, error) {
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
	name := rel(root, path)
	date := fi.ModTime().UTC()
	if m := fileDate.FindString(filepath.Base(path)); m != "" {
		if t, err := time.Parse("2006-01-02", m); err == nil {
			date = t
		}
	}
	var (
		out         []capture.StoredMemory
		section     string
		entry       []string
		entryLine   int
		inCode      bool
		frontMatter bool
		seen        = map[string]int{}
	)
	flush := func() {
		text := strings.TrimSpace(strings.Join(entry, " "))
		entry = nil
		if text == "" {
			return
		}
		sum := sha256.Sum256([]byte(strings.Join(strings.Fields(text), " ")))
		id := name + "#" + hex.EncodeToString(sum[:6])
		seen[id]++
		if n := seen[id]; n > 1 {
			id += "-" + strconv.Itoa(n)
		}
		meta := map[string]any{"file": name}
		if section != "" {
			meta["section"] = section
		}
		out = append(out, capture.StoredMemory{SourceID: id, Text: text, Importance: math.NaN(), CreatedAt: date,
			Position: name + ":" + strconv.Itoa(entryLine), Metadata: meta})
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
			if strings.TrimSpace(line) == "---" {
				frontMatter = true
				continue
			}
		}
		trimmed := strings.TrimSpace(line)
		if frontMatter {
			if trimmed == "---" {
				frontMatter = false
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			flush()
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		switch {
		case trimmed == "":
			flush()
		case strings.HasPrefix(trimmed, "#"):
			flush()
			section = strings.TrimSpace(strings.TrimLeft(trimmed, "#"))
		case listItem.MatchString(line):
			// Every item, nested ones too, is a memory of its own.
			flush()
			entry, entryLine = []string{listItem.FindStringSubmatch(line)[2]}, n
		default:
			if len(entry) == 0 {
				entryLine = n
			}
			entry = append(entry, trimmed)
		}
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("read: %w", err)
	}
	flush()
	return out, nil
}
