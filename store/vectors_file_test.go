package store_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"unsafe"

	"memtrace/engine"
	"memtrace/store"
	"memtrace/store/vecfile"
)

const vfDim = 8

// vfVector is memory i's vector, distinct per memory and per version, and
// no float16 exactly (a third in each value): stored as float32.
func vfVector(i, version int) []float32 {
	v := make([]float32, vfDim)
	for j := range v {
		v[j] = float32(i*vfDim+j) + float32(version)*0.5 + 1 + 1.0/3
	}
	return v
}

// vfStore makes a store of n memories with vfDim-float vectors of the
// embedder "vf" in a temporary directory.
func vfStore(t *testing.T, n int) (*store.DB, string) {
	t.Helper()
	t.Cleanup(store.SetVectorFileMin(16))
	path := filepath.Join(t.TempDir(), "vf.db")
	db, err := store.Open(context.Background(), path, newClock().Now)
	must(t, err)
	t.Cleanup(func() { db.Close() })
	must(t, db.Update(context.Background(), func(q engine.Queries) error {
		for i := range n {
			m := newMemory(fmt.Sprintf("k%d", i), fmt.Sprintf("memory number %d", i))
			m.Embedding, m.Embedder = vfVector(i, 0), "vf"
			if err := q.InsertMemory(context.Background(), m, engine.Actor{Name: "test"}); err != nil {
				return err
			}
		}
		return nil
	}))
	return db, path
}

// vfLoad is an engine open's load: the slab, then every memory. The slab's
// owner is kept until the test ends.
func vfLoad(t *testing.T, db *store.DB) ([]float32, []*engine.Memory) {
	t.Helper()
	slab, owner := db.VectorSlab("vf", vfDim)
	t.Cleanup(func() { runtime.KeepAlive(owner) })
	var ms []*engine.Memory
	must(t, db.ForEachMemory(context.Background(), func(m *engine.Memory) error {
		ms = append(ms, m)
		return nil
	}))
	db.WaitVectorFile()
	return slab, ms
}

func inSlab(slab, v []float32) bool {
	if len(slab) == 0 || len(v) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(&v[0])), uintptr(unsafe.Pointer(&slab[0]))
	return p >= lo && p < lo+4*uintptr(len(slab))
}

// checkVectors: every loaded memory's vector is its row's in SQLite, bit
// for bit; it returns how many came from the slab.
func checkVectors(t *testing.T, db *store.DB, slab []float32, ms []*engine.Memory) int {
	t.Helper()
	from := 0
	for _, m := range ms {
		want, err := db.GetMemory(context.Background(), m.ID)
		must(t, err)
		if len(want.Embedding) != len(m.Embedding) {
			t.Fatalf("memory %d: vector %v, SQLite has %v", m.ID, m.Embedding, want.Embedding)
		}
		for j := range want.Embedding {
			if math.Float32bits(want.Embedding[j]) != math.Float32bits(m.Embedding[j]) {
				t.Fatalf("memory %d: vector %v, SQLite has %v", m.ID, m.Embedding, want.Embedding)
			}
		}
		if inSlab(slab, m.Embedding) {
			from++
		}
	}
	return from
}

func TestVectorFileWrittenThenMapped(t *testing.T) {
	db, path := vfStore(t, 100)
	slab, ms := vfLoad(t, db)
	if slab != nil {
		t.Fatalf("a slab before any file was written")
	}
	checkVectors(t, db, nil, ms)
	f, err := vecfile.Open(path + vecfile.Suffix)
	must(t, err)
	if f.Rows() != 100 || f.Slots() <= 100 || f.Embedder != "vf" || f.Dim != vfDim {
		t.Fatalf("file: %d rows in %d slots, %s/%d", f.Rows(), f.Slots(), f.Embedder, f.Dim)
	}
	slab, ms = vfLoad(t, db)
	if got := checkVectors(t, db, slab, ms); got != 100 {
		t.Fatalf("%d of 100 vectors from the mapped file", got)
	}
	// Another embedder's engine gets no slab and the blobs.
	if slab, _ := db.VectorSlab("other", vfDim); slab != nil {
		t.Fatal("a slab for another embedder")
	}
}

// A second connection writes after the file was made: its rows are read
// from SQLite, the others still from the file.
func TestVectorFileStaleRowsReadFromSQLite(t *testing.T) {
	db, path := vfStore(t, 100)
	vfLoad(t, db)
	other, err := store.Open(context.Background(), path, newClock().Now)
	must(t, err)
	defer other.Close()
	ctx := context.Background()
	m, err := other.GetMemory(ctx, 7)
	must(t, err)
	ok, err := other.SetEmbedding(ctx, 7, m.Hash, vfVector(7, 1), "vf")
	must(t, err)
	if !ok {
		t.Fatal("SetEmbedding did not set")
	}
	m, err = other.GetMemory(ctx, 9)
	must(t, err)
	m.Content, m.Hash, m.Embedding = "changed", engine.ContentHash("changed"), vfVector(9, 2)
	must(t, other.UpdateMemory(ctx, m, engine.Actor{Name: "test"}, "edit"))
	n := newMemory("new", "a new memory")
	n.Embedding, n.Embedder = vfVector(100, 0), "vf"
	must(t, other.InsertMemory(ctx, n, engine.Actor{Name: "test"}))

	slab, ms := vfLoad(t, db)
	if len(ms) != 101 {
		t.Fatalf("%d memories", len(ms))
	}
	if got := checkVectors(t, db, slab, ms); got != 98 {
		t.Fatalf("%d vectors from the file, want the 98 unchanged", got)
	}
}

func TestVectorFileTornOrCorruptIsNotUsed(t *testing.T) {
	db, path := vfStore(t, 100)
	vfLoad(t, db)
	file := path + vecfile.Suffix
	raw, err := os.ReadFile(file)
	must(t, err)

	// One vector's bytes changed (the table intact): that row from SQLite.
	bad := bytes.Clone(raw)
	bad[4096+5*4*vfDim+3] ^= 0x40
	must(t, os.WriteFile(file, bad, 0o600))
	slab, ms := vfLoad(t, db)
	if got := checkVectors(t, db, slab, ms); got != 99 {
		t.Fatalf("%d vectors from a file with one torn vector, want 99", got)
	}

	// Truncated (a crash mid-copy), a flipped table byte or header byte:
	// the file is not used at all, and the load writes it whole again.
	for name, b := range map[string][]byte{
		"truncated": raw[:len(raw)-100],
		"table":     flip(raw, len(raw)-entryBack),
		"header":    flip(raw, 20),
		"empty":     {},
	} {
		must(t, os.WriteFile(file, b, 0o600))
		if _, err := vecfile.Open(file); err == nil {
			t.Fatalf("%s: the file opens", name)
		}
		slab, ms := vfLoad(t, db)
		if slab != nil {
			t.Fatalf("%s: a slab from a broken file", name)
		}
		checkVectors(t, db, slab, ms)
		if _, err := vecfile.Open(file); err != nil {
			t.Fatalf("%s: not rewritten: %v", name, err)
		}
	}
}

// entryBack is how far from the end a byte of a used table entry lies.
const entryBack = (1024 + 40) * 32

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 1
	return c
}

func TestVectorFileEraseLeavesNoErasedVector(t *testing.T) {
	db, path := vfStore(t, 100)
	vfLoad(t, db)
	file := path + vecfile.Suffix
	erased := vfVector(42, 0)
	needle := unsafe.Slice((*byte)(unsafe.Pointer(&erased[0])), 4*len(erased))
	raw, err := os.ReadFile(file)
	must(t, err)
	if !bytes.Contains(raw, needle) {
		t.Fatal("the vector is not in the file to begin with")
	}
	rep, err := db.EraseMemories(context.Background(), engine.EraseRequest{IDs: []int64{43}, Actor: "test", Reason: "test"})
	must(t, err)
	if _, err := os.Stat(file); err == nil {
		t.Fatal("the vector file survived the erasure")
	}
	if !bytes.Contains([]byte(fmt.Sprint(rep.Compaction)), []byte("vector file")) {
		t.Errorf("the report does not say the vector file went: %v", rep.Compaction)
	}
	slab, ms := vfLoad(t, db) // rewrites it
	checkVectors(t, db, slab, ms)
	raw, err = os.ReadFile(file)
	must(t, err)
	if bytes.Contains(raw, needle) {
		t.Fatal("the rewritten vector file holds the erased vector")
	}
}

// A writer whose load began before an erasure does not put its file in place.
func TestVectorFileWriterYieldsToErasure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x")
	w, err := vecfile.Create(path, "vf", vfDim, 0o600)
	must(t, err)
	w.Add(1, 1, "h", "vf", vfVector(1, 0))
	if err := w.Commit(0, func() error { return fmt.Errorf("erased since") }); err == nil {
		t.Fatal("commit despite the check")
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the file is in place")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "x.tmp-*")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// A store whose vectors are another embedder's than the engine's gets no
// file: its slots would all be empty and send every load to SQLite row by
// row.
func TestVectorFileNotWrittenForAnotherEmbedder(t *testing.T) {
	db, path := vfStore(t, 100)
	db.VectorSlab("other", vfDim)
	n := 0
	must(t, db.ForEachMemory(context.Background(), func(m *engine.Memory) error {
		if len(m.Embedding) != vfDim {
			t.Fatalf("memory %d lost its vector", m.ID)
		}
		n++
		return nil
	}))
	db.WaitVectorFile()
	if _, err := os.Stat(path + vecfile.Suffix); err == nil || n != 100 {
		t.Fatalf("%d memories; a vector file of empty slots was written (%v)", n, err)
	}
	if left, _ := filepath.Glob(path + vecfile.Suffix + ".tmp-*"); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}
