package vecfile

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

// vec is a row whose values are not float16 exactly: the file keeps them
// as float32.
func vec(x float32) []float32 { return []float32{x / 3, (x + 1) / 3, (x + 2) / 3} }

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
	if v := f.Vector(2, 3, 12, "h3", "emb"); len(v) != 3 || v[0] != vec(3)[0] || &v[0] != &f.Slab()[6] {
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
	if v := g.Vector(0, 1, 10, "h1", "emb"); v == nil || v[0] != vec(1)[0] {
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

// A file whose first vector is dense and exactly float16 keeps its vectors
// in two bytes a value, decodes them into its heap slab as they are asked
// for, and leaves a later row that is not float16 without its vector
// (read from the database) rather than round it; CopyVector writes no row.
func TestHalfFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db-vectors")
	w, err := Create(path, "dense", 4, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	w.Add(1, 1, "h1", "dense", []float32{0.5, -0.25, 1, 0.125})
	w.Add(2, 2, "h2", "dense", []float32{0.5, 1.0 / 3, 1, 0.125}) // 1/3 is no float16
	w.Add(3, 3, "h3", "dense", []float32{2, 0, -1, 3})
	if err := w.Commit(2, nil); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if want := int64(headerSize + 5*2*4 + 5*entrySize); st.Size() != want {
		t.Fatalf("%d bytes, want %d (float16)", st.Size(), want)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Half() || len(f.Slab()) != 20 {
		t.Fatalf("half %v, slab %d", f.Half(), len(f.Slab()))
	}
	if v := f.Vector(1, 2, 2, "h2", "dense"); v != nil {
		t.Fatalf("a vector that is not float16 was kept: %v", v)
	}
	if c := f.CopyVector(2, 3, 3, "h3", "dense"); len(c) != 4 || c[3] != 3 || f.Slab()[11] != 0 {
		t.Fatalf("copy %v, slab row %v", c, f.Slab()[8:12])
	}
	if v := f.Vector(0, 1, 1, "h1", "dense"); len(v) != 4 || v[1] != -0.25 || &v[0] != &f.Slab()[0] {
		t.Fatalf("row 1: %v", v)
	}
	// A flipped byte of a half fails the slot's checksum.
	b, _ := os.ReadFile(path)
	b[headerSize+1] ^= 1
	os.WriteFile(path, b, 0o600)
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.Vector(0, 1, 1, "h1", "dense") != nil || g.CopyVector(0, 1, 1, "h1", "dense") != nil {
		t.Fatal("a torn half passed its checksum")
	}
}

// A file of version 1 (float32 only, before the width was in the header)
// is not read, even with its checksum made good: the load rewrites it.
func TestOldVersionRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db-vectors")
	writeFile(t, path)
	b, _ := os.ReadFile(path)
	binary.LittleEndian.PutUint32(b[8:], 1)
	binary.LittleEndian.PutUint32(b[48+maxName:], crc32.Checksum(b[:48+maxName], castagnoli))
	os.WriteFile(path, b, 0o600)
	if _, err := Open(path); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a version 1 file: %v, want ErrInvalid", err)
	}
}
