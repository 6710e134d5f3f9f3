package importer

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIgnoreSetMatchesGitignorePatterns(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "# comment\n\nbuild/\n*.log\n/only-root.md\ndocs/**/draft.md\n!keep.log\n")
	write("sub/.gitignore", "local.md\n")
	var s ignoreSet
	s.load(root, "")
	s.load(filepath.Join(root, "sub"), "sub")
	for _, c := range []struct {
		path string
		dir  bool
		want bool
	}{
		{"build", true, true},
		{"a/build", true, true},
		{"build", false, false}, // build/ ignores directories only
		{"x.log", false, true},
		{"a/b/x.log", false, true},
		{"keep.log", false, false}, // negated
		{"only-root.md", false, true},
		{"a/only-root.md", false, false}, // anchored to the root
		{"docs/a/b/draft.md", false, true},
		{"docs/draft.md", false, true},
		{"sub/local.md", false, true},
		{"local.md", false, false}, // sub/.gitignore applies below sub only
		{"CLAUDE.md", false, false},
	} {
		if got := s.ignored(c.path, c.dir); got != c.want {
			t.Errorf("ignored(%q, dir=%v) = %v, want %v", c.path, c.dir, got, c.want)
		}
	}
}

func TestDropImportsKeepsTheStatement(t *testing.T) {
	for in, want := range map[string]string{
		"Storefront and back office. See @README.md for the overview and @docs/a.md for more.": "Storefront and back office.",
		"@AGENTS.md":                       "",
		"Email me at ops@example.com now.": "Email me at ops@example.com now.",
		"Git workflow: @docs/git.md":       "",
	} {
		if got := dropImports(in, false); got != want {
			t.Errorf("dropImports(%q) = %q, want %q", in, got, want)
		}
	}
	if got := dropImports("Follow @docs/style.md strictly", true); got != "Follow strictly" {
		t.Errorf("list item: got %q", got)
	}
}
