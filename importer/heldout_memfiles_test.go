package importer_test

import (
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
)

type memfilesExpect struct {
	Must []struct {
		Text      string   `yaml:"text"`
		Scope     string   `yaml:"scope"`
		AppliesTo []string `yaml:"applies_to"`
		File      string   `yaml:"file"`
		Date      string   `yaml:"date"`
	} `yaml:"must_become_memories"`
	May []struct {
		Text  string `yaml:"text"`
		Scope string `yaml:"scope"`
	} `yaml:"may_become_memories"`
	MustNot     []string       `yaml:"must_not_appear_in_any_memory"`
	ScopeCounts map[string]int `yaml:"scope_counts"`
}

// TestHeldoutMemoryFiles imports the user's ~/.claude, a repository shaped
// like a real one and an OpenClaw workspace from disk (the fixture's own
// .gitignore hides some of its files from git; they are read from disk).
func TestHeldoutMemoryFiles(t *testing.T) {
	dir := filepath.Join(heldoutImport, "memfiles_repo")
	var want memfilesExpect
	readYAML(t, filepath.Join(dir, "expect.yaml"), &want)
	e, path := openImported(t)
	var rep = importInto(t, e, "memory-files", filepath.Join(dir, "home"), heldoutReadOptions{As: "user"})
	importInto(t, e, "memory-files", filepath.Join(dir, "acme-shop"), heldoutReadOptions{As: "project"})
	importInto(t, e, "memory-files", filepath.Join(dir, "openclaw-workspace"), heldoutReadOptions{})
	im := snapshot(t, e, path, rep)
	c := &tally{t: t}
	for _, w := range want.Must {
		ms := im.activeWith(w.Text)
		c.check(len(ms) == 1, "%s: %q in %d active memories, want 1", w.File, w.Text, len(ms))
		if len(ms) != 1 {
			// The checks below cannot be made: count them as failed, so the
			// pass rate keeps one denominator.
			c.check(false, "%s: %q scope not checkable", w.File, w.Text)
			if w.AppliesTo != nil {
				c.check(false, "%s: %q applies_to not checkable", w.File, w.Text)
			}
			if w.Date != "" {
				c.check(false, "%s: %q date not checkable", w.File, w.Text)
			}
			continue
		}
		m := ms[0]
		c.check(m.Scope == w.Scope, "%s: %q scope %q, want %q", w.File, w.Text, m.Scope, w.Scope)
		if w.AppliesTo != nil {
			got := im.meta[m.ID]["applies_to"]
			c.check(jsonEqual(got, w.AppliesTo), "%s: %q applies_to %v, want %v", w.File, w.Text, got, w.AppliesTo)
		}
		if w.Date != "" {
			c.check(m.CreatedAt.UTC().Format("2006-01-02") == w.Date, "%s: %q dated %s, want %s", w.File, w.Text, m.CreatedAt, w.Date)
		}
	}
	for _, s := range want.MustNot {
		c.check(!im.anyWith(s), "%q must not be in any memory", s)
	}
	// The scope counts are over the memories that must be there: a memory a
	// may_become entry allows (an @import followed, a paragraph) is not counted.
	counts := map[string]int{}
	for _, m := range im.all {
		if m.Status != engine.StatusActive {
			continue
		}
		allowed := false
		for _, w := range want.May {
			if strings.Contains(strings.ToLower(m.Content), strings.ToLower(w.Text)) {
				allowed = true
				c.check(m.Scope == w.Scope, "may-memory %q scope %q, want %q", w.Text, m.Scope, w.Scope)
			}
		}
		if !allowed {
			counts[m.Scope]++
		}
	}
	c.check(jsonEqual(counts, want.ScopeCounts), "scope counts %v, want %v", counts, want.ScopeCounts)
	c.ratchet("memfiles_repo", 89)
}
