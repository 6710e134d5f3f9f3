package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"memtrace/golden"
)

// TestExtractSetsCopiesAndNeverFollowsASymlink: the built-in set lands in
// the user's cache as files golden.Load reads (its fixture beside it); a
// second start reuses them and keeps a baseline the user saved; a symlink
// planted where a file would go is refused, not followed.
func TestExtractSetsCopiesAndNeverFollowsASymlink(t *testing.T) {
	set, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	conv, err := os.ReadFile(filepath.Join("..", "testdata", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sets := fstest.MapFS{"golden/demo.yaml": {Data: set}, "demo.jsonl": {Data: conv}}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	path, err := extractSets(sets)
	if err != nil {
		t.Fatal(err)
	}
	s, err := golden.Load(path)
	if err != nil || len(s.Probes) == 0 {
		t.Fatalf("golden.Load(%s): %v", path, err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "..", "demo.jsonl")); err != nil {
		t.Fatalf("the fixture is not beside the set: %v", err)
	}
	saved := filepath.Join(filepath.Dir(path), "demo.baseline.json")
	if err := os.WriteFile(saved, []byte(`{"user":"saved"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// The same content reuses the directory.
	again, err := extractSets(sets)
	if err != nil || again != path {
		t.Fatalf("second extract: %s, %v; want %s", again, err, path)
	}
	if b, _ := os.ReadFile(saved); string(b) != `{"user":"saved"}` {
		t.Errorf("the user's baseline was overwritten: %s", b)
	}

	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if _, err := extractSets(sets); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a symlink in the cache: %v", err)
	}
	if _, err := os.Stat(target); err == nil {
		t.Errorf("the symlink was followed: %s was written", target)
	}
}
