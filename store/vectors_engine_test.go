package store_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"memtrace/engine"
	"memtrace/store"
	"memtrace/store/vecfile"
)

// An engine opened over the mapped vector file ranks exactly as one that
// read every vector from SQLite, and its vectors are the file's pages, not
// copies; the rows another process wrote since are the database's.
func TestEngineOverVectorFileMatchesSQLite(t *testing.T) {
	ctx := context.Background()
	path, _, emb, texts, open := vectorFileFixture(t, "e.db", 300, func(i int) string {
		return fmt.Sprintf("note %d about the garden, the %d tomatoes and the rain of week %d", i, i%17, i%5)
	})
	if _, err := vecfile.Open(path + vecfile.Suffix); err != nil {
		t.Fatal(err)
	}
	// Another connection changes a memory's vector after the file was made.
	other, err := store.Open(ctx, path, newClock().Now)
	must(t, err)
	m, err := other.GetMemory(ctx, 5)
	must(t, err)
	v200, err := emb.Embed(ctx, []string{texts[200]})
	must(t, err)
	ok, err := other.SetEmbedding(ctx, 5, m.Hash, v200[0], emb.Name())
	must(t, err)
	must(t, other.Close())
	if !ok {
		t.Fatal("SetEmbedding did not set")
	}

	mapped := open()
	t.Setenv(store.VectorFileEnv, "off")
	read := open()
	if runtime.GOOS == "linux" {
		v, _ := mapped.VectorOf(7)
		if !inFileMapping(t, v, vecfile.Suffix) {
			t.Error("memory 7's vector is not in the mapped vector file")
		}
		v, _ = read.VectorOf(7)
		if inFileMapping(t, v, vecfile.Suffix) {
			t.Error("with the file off a vector is in it")
		}
	}
	for i := 0; i < len(texts); i += 7 {
		q, _ := emb.Embed(ctx, []string{texts[i]})
		a, b := mapped.VectorSearch(q[0], 10), read.VectorSearch(q[0], 10)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("query %d: mapped %v, read %v", i, a, b)
		}
	}
	// Memory 5's row of the slab holds SQLite's vector (copied into its
	// page, private to the process), not the file's.
	va, _ := mapped.VectorOf(5)
	vb, _ := read.VectorOf(5)
	if fmt.Sprint(va) != fmt.Sprint(vb) {
		t.Fatal("memory 5's vector differs")
	}
	if fmt.Sprint(va) != fmt.Sprint(v200[0]) {
		t.Fatal("memory 5 has the vector it had when the file was written")
	}
}

// inFileMapping reports whether v lies in a mapping of a file whose name
// ends in suffix (/proc/self/maps).
func inFileMapping(t *testing.T, v []float32, suffix string) bool {
	t.Helper()
	if len(v) == 0 {
		return false
	}
	p := uint64(uintptr(unsafe.Pointer(&v[0])))
	f, err := os.Open("/proc/self/maps")
	must(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || !strings.HasSuffix(fields[5], suffix) {
			continue
		}
		lo, hi, _ := strings.Cut(fields[0], "-")
		l, _ := strconv.ParseUint(lo, 16, 64)
		h, _ := strconv.ParseUint(hi, 16, 64)
		if p >= l && p < h {
			return true
		}
	}
	return false
}

// A memory restored under an id between the file's rows puts every later
// row one place off its slot: those are copied, never shared with a place
// the vector index writes, and every vector is still the database's.
func TestEngineOverVectorFileWithRowRestoredBetween(t *testing.T) {
	t.Cleanup(store.SetVectorFileMin(16))
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	db, err := store.Open(ctx, path, newClock().Now)
	must(t, err)
	defer db.Close()
	emb := engine.NewHashed(engine.HashedDim)
	const n = 3000 // several of the load's batches
	texts := make([]string, n)
	for i := range texts {
		texts[i] = fmt.Sprintf("entry %d on the %d orchard rows and %d ladders", i, i%31, i%7)
	}
	vecs, err := emb.Embed(ctx, texts)
	must(t, err)
	insert := func(q engine.Queries, i int) error {
		m := newMemory(fmt.Sprintf("k%d", i), texts[i])
		m.ID, m.Embedding, m.Embedder = int64(i+1), vecs[i], emb.Name()
		return q.InsertMemoryAt(ctx, m, engine.Actor{Name: "test"})
	}
	must(t, db.Update(ctx, func(q engine.Queries) error {
		for i := range texts {
			if i != 10 {
				if err := insert(q, i); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	now := func() time.Time { return at(30) }
	_, err = engine.Open(ctx, engine.Options{Store: db, Now: now})
	must(t, err)
	db.WaitVectorFile()
	must(t, db.Update(ctx, func(q engine.Queries) error { return insert(q, 10) }))

	mapped, err := engine.Open(ctx, engine.Options{Store: db, Now: now})
	must(t, err)
	t.Setenv(store.VectorFileEnv, "off")
	read, err := engine.Open(ctx, engine.Options{Store: db, Now: now})
	must(t, err)
	for i := range texts {
		a, _ := mapped.VectorOf(int64(i + 1))
		b, _ := read.VectorOf(int64(i + 1))
		if len(a) == 0 || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("memory %d: mapped %v, read %v", i+1, a, b)
		}
	}
	for i := 0; i < n; i += 97 {
		q, _ := emb.Embed(ctx, []string{texts[i]})
		if a, b := mapped.VectorSearch(q[0], 10), read.VectorSearch(q[0], 10); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("query %d: mapped %v, read %v", i, a, b)
		}
	}
}

// vectorFileFixture is a database at name in a temporary directory (vector
// files from 16 rows) holding n memories, text(i) each, with the hashed
// embedder's vectors, and its vector file written by a first open; open
// opens an engine over it at day 30.
func vectorFileFixture(t *testing.T, name string, n int, text func(int) string) (path string, db *store.DB, emb engine.Embedder, texts []string, open func() *engine.Engine) {
	t.Helper()
	t.Cleanup(store.SetVectorFileMin(16))
	path = filepath.Join(t.TempDir(), name)
	db, err := store.Open(context.Background(), path, newClock().Now)
	must(t, err)
	t.Cleanup(func() { db.Close() })
	emb = engine.NewHashed(engine.HashedDim)
	texts = make([]string, n)
	for i := range texts {
		texts[i] = text(i)
	}
	open = fillHashed(t, db, emb, texts)
	open() // writes the file
	db.WaitVectorFile()
	return path, db, emb, texts, open
}

// fillHashed inserts one memory a text (keys k0, k1, …) with emb's
// vectors, and returns how to open an engine over db at day 30.
func fillHashed(t *testing.T, db *store.DB, emb engine.Embedder, texts []string) func() *engine.Engine {
	t.Helper()
	ctx := context.Background()
	vecs, err := emb.Embed(ctx, texts)
	must(t, err)
	must(t, db.Update(ctx, func(q engine.Queries) error {
		for i, text := range texts {
			m := newMemory(fmt.Sprintf("k%d", i), text)
			m.Embedding, m.Embedder = vecs[i], emb.Name()
			if err := q.InsertMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
				return err
			}
		}
		return nil
	}))
	return func() *engine.Engine {
		e, err := engine.Open(ctx, engine.Options{Store: db, Now: func() time.Time { return at(30) }})
		must(t, err)
		return e
	}
}
