package vecfile

import (
	"os"
	"path/filepath"
	"testing"
)

func vec(x float32) []float32 { return []float32{x, x + 1, x + 2} }

// writeFile writes rows 1..3 (row 2 of another embedder) with 5 spare slots.
func writeFile(t *testing.T, path string) {
	t.Helper()
	w, err := Create(path, "emb", 3, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	w.Add(1, 10, "h1", "emb", vec(1))
	w.Add(2, 11, "h2", "other", vec(2))
	w.Add(3, 12, "h3", "emb", vec(3))
	if err := w.Commit(5, nil); err != nil {
		t.Fatal(err)
	}
}

func TestFileRoundTripAndRowChecks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db-vectors")
	writeFile(t, path)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Rows() != 3 || f.Slots() != 8 || f.Dim != 3 || f.Embedder != "emb" || f.MaxSeq != 12 || len(f.Slab()) != 24 {
		t.Fatalf("rows %d slots %d dim %d %q seq %d slab %d", f.Rows(), f.Slots(), f.Dim, f.Embedder, f.MaxSeq, len(f.Slab()))
	}
	if v := f.Vector(2, 3, 12, "h3", "emb"); len(v) != 3 || v[0] != 3 || &v[0] != &f.Slab()[6] {
		t.Fatalf("row 3: %v", v)
	}
	for name, v := range map[string][]float32{
		"other seq":      f.Vector(0, 1, 11, "h1", "emb"),
		"other hash":     f.Vector(0, 1, 10, "h9", "emb"),
		"other embedder": f.Vector(0, 1, 10, "h1", "x"),
		"other id":       f.Vector(0, 2, 10, "h1", "emb"),
		"no vector":      f.Vector(1, 2, 11, "h2", "emb"),
		"spare slot":     f.Vector(4, 0, 0, "", "emb"),
		"past the end":   f.Vector(9, 1, 10, "h1", "emb"),
	} {
		if v != nil {
			t.Errorf("%s: %v", name, v)
		}
	}
	// The slab is private: a write to it never reaches the file.
	f.Slab()[0] = 99
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if v := g.Vector(0, 1, 10, "h1", "emb"); v == nil || v[0] != 1 {
		t.Fatalf("the file changed under a private write: %v", v)
	}
	if f.Vector(0, 1, 10, "h1", "emb") != nil {
		t.Fatal("a row changed in memory passes its checksum")
	}
}

// A writer that dies before Commit leaves the old file as it was and no
// file where there was none; Remove clears what it left.
func TestUncommittedWriterChangesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "db-vectors")
	writeFile(t, path)
	before, _ := os.ReadFile(path)
	w, err := Create(path, "emb", 3, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	w.Add(1, 20, "h1", "emb", vec(7)) // and the process dies here
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Fatal("an uncommitted writer changed the file")
	}
	if err := Remove(path); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "db-vectors*")); len(left) != 1 || filepath.Base(left[0]) != "db-vectors.lock" {
		t.Fatalf("left after Remove: %v", left)
	}
	w.Abort()
}
