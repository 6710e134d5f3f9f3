package importer

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"memtrace/capture"
	"memtrace/engine"
)

// fileDate finds a YYYY-MM-DD date in a memory file's name
// (memory/2026-03-01.md, the daily logs of OpenClaw and Claude Code).
var fileDate = regexp.MustCompile(`(\d{4}-\d{2}-\d{2})`)

// listItem is a Markdown list item: "- x", "* x", "+ x", "1. x", "1) x",
// with an optional task box ("- [ ] x").
var listItem = regexp.MustCompile(`^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$`)

// Whose memory files a directory holds (ReadOptions.As).
const (
	// MemoryFilesUser: the user's ~ or ~/.claude — ~/.claude/CLAUDE.md and
	// ~/.claude/rules/**/*.md, scope global.
	MemoryFilesUser = "user"
	// MemoryFilesProject: a repository — its Claude Code memory files, scope
	// project:NAME (NAME the folder's name).
	MemoryFilesProject = "project"
)

// skippedDirs are never walked into: dependencies and vendored code carry
// other projects' CLAUDE.md and READMEs, and .git is git's.
var skippedDirs = map[string]bool{"node_modules": true, "vendor": true, ".git": true}

// ReadMemoryFilesAs reads Markdown memory files in the layouts their tools
// document:
//
//   - Claude Code ("Manage Claude's memory"): CLAUDE.md at the project root
//     and in any folder below it, .claude/CLAUDE.md, CLAUDE.local.md (the
//     personal, git-ignored file: read although .gitignore lists it), and
//     .claude/rules/**/*.md; the user's ~/.claude/CLAUDE.md and
//     ~/.claude/rules. A project's files get the scope project:NAME; a
//     CLAUDE.md in a folder below the root also carries applies_to
//     ["FOLDER/**"], and a rule with "paths:" front matter its globs.
//     User files (as = user, or the directory is ~ or ~/.claude) are global.
//   - OpenClaw ("Memory"): MEMORY.md and memory/YYYY-MM-DD.md daily logs in
//     the workspace root, the user's own memory: global.
//   - A folder holding neither: every *.md in it, global.
//
// node_modules, vendor, .git, hidden folders (but .claude) and what the
// folders' .gitignore files ignore are not walked; @imports are not
// followed (the files they name are not memory files: a README is prose).
// Each list item is one memory (its continuation lines joined to it), and
// so is each paragraph outside a list; headings, front matter, code
// (fenced or indented), tables, HTML comments, badge lines and @import
// sentences are Markdown structure, not memories. An entry is dated by its
// file: the date in its name, else its modification time; its id is the
// file's path and a hash of its text. Symbolic links are never followed:
// they are reported and passed over.
func ReadMemoryFilesAs(path, as string) ([]capture.StoredMemory, []capture.RecordError, error) {
	switch as {
	case "", MemoryFilesUser, MemoryFilesProject:
	default:
		return nil, nil, engine.Errorf(engine.EINVALID, "memory files as %q: use %s or %s (or leave it out to detect)", as, MemoryFilesUser, MemoryFilesProject)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, nil, errSymlink(path)
	}
	if !fi.IsDir() {
		ms, err := readMemoryFile(filepath.Dir(path), path, fileScope{})
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		return ms, nil, nil
	}
	if as == "" {
		as = detectLayout(path)
	}
	if as == MemoryFilesUser {
		// ~: only its .claude folder is the user's Claude Code memory.
		if st, err := os.Lstat(filepath.Join(path, ".claude")); err == nil && st.IsDir() && filepath.Base(path) != ".claude" {
			path = filepath.Join(path, ".claude")
		}
	}
	w := &memWalk{root: path, as: as}
	if as == MemoryFilesProject {
		abs, _ := filepath.Abs(path)
		w.project = "project:" + filepath.Base(abs)
		if !engine.ValidScope(w.project) {
			w.project = ""
		}
	}
	if err := w.walk(); err != nil {
		return nil, w.bad, err
	}
	if len(w.files) == 0 {
		return nil, w.bad, engine.Errorf(engine.ENOTFOUND, "no Markdown memory files under %s (CLAUDE.md, .claude/rules/*.md, MEMORY.md, memory/*.md or *.md)", path)
	}
	sort.Slice(w.files, func(i, j int) bool { return w.files[i].path < w.files[j].path })
	var out []capture.StoredMemory
	for _, f := range w.files {
		ms, err := readMemoryFile(w.root, f.path, f.scope)
		if err != nil {
			w.bad = append(w.bad, capture.RecordError{Position: rel(w.root, f.path), Error: err.Error()})
			continue
		}
		out = append(out, ms...)
	}
	return out, w.bad, nil
}

// detectLayout says whose files the directory holds: the user's when it is
// ~ or ~/.claude, a project's when it has Claude Code files or a .git,
// else "" (an OpenClaw workspace or a folder of notes).
func detectLayout(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" && (abs == home || abs == filepath.Join(home, ".claude")) {
		return MemoryFilesUser
	}
	for _, n := range []string{"CLAUDE.md", "CLAUDE.local.md", ".claude", ".git"} {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			return MemoryFilesProject
		}
	}
	return ""
}

// fileScope is what a file's place says about its memories.
type fileScope struct {
	scope     string
	appliesTo []string
}

type memFile struct {
	path  string
	scope fileScope
}

type memWalk struct {
	root, as, project string
	ignore            ignoreSet
	files             []memFile
	bad               []capture.RecordError
	known, other      []memFile // memory files of a documented layout; other *.md
}

func (w *memWalk) walk() error {
	err := filepath.WalkDir(w.root, func(p string, d fs.DirEntry, err error) error {
		r := rel(w.root, p)
		if err != nil {
			w.bad = append(w.bad, capture.RecordError{Position: r, Error: "cannot read: " + err.Error()})
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			w.bad = append(w.bad, capture.RecordError{Position: r, Error: "a symbolic link; passed over (memtrace does not follow links)"})
			return nil
		}
		if d.IsDir() {
			if p == w.root {
				w.ignore.load(p, "")
				return nil
			}
			name := d.Name()
			if skippedDirs[name] || (strings.HasPrefix(name, ".") && r != ".claude") || w.ignore.ignored(r, true) {
				return filepath.SkipDir
			}
			w.ignore.load(p, r)
			return nil
		}
		if !d.Type().IsRegular() || !strings.EqualFold(filepath.Ext(p), ".md") {
			return nil
		}
		w.classify(p, r)
		return nil
	})
	if err != nil {
		return err
	}
	w.files = w.known
	if len(w.known) == 0 && w.as == "" {
		w.files = w.other
	}
	return nil
}

// classify files one Markdown file under the layout it belongs to.
func (w *memWalk) classify(p, r string) {
	base, dir := path.Base(r), path.Dir(r)
	if w.as == MemoryFilesUser {
		// The .claude folder itself: its CLAUDE.md and rules/.
		if r == "CLAUDE.md" || strings.HasPrefix(r, "rules/") {
			w.known = append(w.known, memFile{path: p, scope: fileScope{scope: engine.ScopeGlobal}})
		}
		return
	}
	if base != "CLAUDE.local.md" && w.ignore.ignored(r, false) {
		return
	}
	if strings.HasPrefix(r, ".claude/") {
		// .claude/CLAUDE.md and .claude/rules/**; the rest of .claude
		// (commands, agents, settings) is not memory.
		if r == ".claude/CLAUDE.md" || strings.HasPrefix(r, ".claude/rules/") {
			w.known = append(w.known, memFile{path: p, scope: fileScope{scope: w.projectScope()}})
		}
		return
	}
	switch {
	case base == "CLAUDE.md" || base == "CLAUDE.local.md":
		fs := fileScope{scope: w.projectScope()}
		if dir != "." {
			fs.appliesTo = []string{dir + "/**"}
		}
		w.known = append(w.known, memFile{path: p, scope: fs})
	case r == "MEMORY.md" || strings.HasPrefix(r, "memory/"):
		w.known = append(w.known, memFile{path: p, scope: fileScope{scope: engine.ScopeGlobal}})
	default:
		w.other = append(w.other, memFile{path: p, scope: fileScope{scope: engine.ScopeGlobal}})
	}
}

func (w *memWalk) projectScope() string {
	if w.project == "" {
		return engine.ScopeGlobal
	}
	return w.project
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}
