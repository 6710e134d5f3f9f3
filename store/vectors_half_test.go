package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/store"
	"memtrace/store/vecfile"
)

// denseEmb is a deterministic dense embedder: every value of every vector
// nonzero and none a float16 exactly, as a model's.
type denseEmb struct{ dim int }

func (d denseEmb) Name() string { return fmt.Sprintf("dense-test/%d", d.dim) }
func (d denseEmb) Dim() int     { return d.dim }
func (d denseEmb) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		var seed uint64
		for _, c := range t {
			seed = seed*131 + uint64(c)
		}
		r := rand.New(rand.NewPCG(seed, 7))
		v := make([]float32, d.dim)
		for j := range v {
			v[j] = float32(r.NormFloat64()) + 1e-3
		}
		out[i] = v
	}
	return out, nil
}

// A dense embedder's vectors go through the engine at float16 precision:
// the database keeps them in 1 + 2·dim bytes, the vector file in two bytes
// a value, and an engine opened over either ranks exactly as the warm one
// that embedded them, every vector the same to the bit. A vector that is
// not exactly float16 (one written before, or the hashed embedder's) is
// stored as float32, unchanged.
func TestDenseVectorsStoredAsHalves(t *testing.T) {
	t.Cleanup(store.SetVectorFileMin(16))
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	db, err := store.Open(ctx, path, newClock().Now)
	must(t, err)
	defer db.Close()
	const dim = 64
	now := func() time.Time { return at(30) }
	open := func() *engine.Engine {
		e, err := engine.Open(ctx, engine.Options{Store: db, Embedder: denseEmb{dim}, Now: now})
		must(t, err)
		return e
	}
	warm := open()
	for i := range 200 {
		m := newMemory(fmt.Sprintf("k%d", i), fmt.Sprintf("note %d on the harbour, 항구 기록 %d", i, i%13))
		must(t, warm.AddMemory(ctx, m, engine.Actor{Name: "test"}))
	}
	// One memory keeps a float32 vector written before (not float16): the
	// vector file, whose width the first row's vector chose, leaves its
	// slot without it.
	raw, _ := denseEmb{dim}.Embed(ctx, []string{"old"})
	m1, err := db.GetMemory(ctx, 150)
	must(t, err)
	ok, err := db.SetEmbedding(ctx, 150, m1.Hash, raw[0], denseEmb{dim}.Name())
	if err != nil || !ok {
		t.Fatalf("set embedding: %v %v", ok, err)
	}
	must(t, warm.Refresh(ctx))

	sq, err := sql.Open("sqlite3", path)
	must(t, err)
	defer sq.Close()
	for id, want := range map[int64]int{150: 4 * dim, 1: 1 + 2*dim, 200: 1 + 2*dim} {
		var n int
		must(t, sq.QueryRow(`SELECT length(embedding) FROM memories WHERE id = ?`, id).Scan(&n))
		if n != want {
			t.Errorf("memory %d: a blob of %d bytes, want %d", id, n, want)
		}
	}
	if m, err := db.GetMemory(ctx, 150); err != nil || !reflect.DeepEqual(m.Embedding, raw[0]) {
		t.Fatalf("the float32 vector did not come back unchanged: %v", err)
	}

	open() // writes the vector file
	db.WaitVectorFile()
	f, err := vecfile.Open(path + vecfile.Suffix)
	if err != nil || !f.Half() {
		t.Fatalf("vector file: %v, half %v", err, f != nil && f.Half())
	}
	mapped := open()
	t.Setenv(store.VectorFileEnv, "off")
	read := open()
	for id := int64(1); id <= 200; id++ {
		w, _ := warm.VectorOf(id)
		for name, e := range map[string]*engine.Engine{"mapped": mapped, "read": read} {
			v, _ := e.VectorOf(id)
			if len(v) != dim || !sameBits(v, w) {
				t.Fatalf("%s: memory %d's vector differs from the warm engine's", name, id)
			}
		}
	}
	q, _ := warm.Embed(ctx, "the harbour 항구")
	want := warm.VectorSearch(q[0], 20)
	for name, e := range map[string]*engine.Engine{"mapped": mapped, "read": read} {
		if got := e.VectorSearch(q[0], 20); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}

func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}
