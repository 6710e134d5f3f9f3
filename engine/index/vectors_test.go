package index

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"memtrace/engine/textnorm"
)

func TestHashedIsDeterministicAndUnit(t *testing.T) {
	h := NewHashed(0, textnorm.StableTokens)
	a, _ := h.Embed(context.Background(), []string{"충주 사과가 맛있었어", "충주 사과가 맛있었어"})
	if Cosine(a[0], a[1]) < 0.9999 {
		t.Fatalf("same text, different vectors")
	}
	if c := Cosine(a[0], a[0]); c < 0.9999 || c > 1.0001 {
		t.Errorf("self cosine = %v", c)
	}
}

func TestHashedSimilarityOrder(t *testing.T) {
	h := NewHashed(0, textnorm.StableTokens)
	q := h.EmbedOne("충주 사과")
	near := h.EmbedOne("충주에서 산 사과가 달았어")
	far := h.EmbedOne("I prefer concise answers with code first")
	if Cosine(q, near) <= Cosine(q, far)+0.2 {
		t.Errorf("cos(near)=%.3f not clearly above cos(far)=%.3f", Cosine(q, near), Cosine(q, far))
	}
	en := h.EmbedOne("apples")
	if Cosine(en, h.EmbedOne("apple")) < 0.5 {
		t.Errorf("apples/apple similarity %.3f < 0.5", Cosine(en, h.EmbedOne("apple")))
	}
}

func TestIndexMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ix := NewVectors(16)
	vecs := map[int64][]float32{}
	for id := int64(1); id <= 500; id++ {
		v := make([]float32, 16)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		ix.Set(id, v)
		vecs[id] = v
	}
	for id := int64(1); id <= 500; id += 3 {
		ix.Remove(id)
		delete(vecs, id)
	}
	q := make([]float32, 16)
	for i := range q {
		q[i] = float32(r.NormFloat64())
	}
	var want []Hit
	for id, v := range vecs {
		want = append(want, Hit{ID: id, Score: Cosine(q, v)})
	}
	sort.Slice(want, func(i, j int) bool { return Worse(want[j], want[i]) })
	got := ix.Search(q, 10)
	if len(got) != 10 {
		t.Fatalf("got %d hits", len(got))
	}
	for i := range got {
		if got[i].ID != want[i].ID {
			t.Fatalf("rank %d: got id %d (%.4f), want %d (%.4f)", i, got[i].ID, got[i].Score, want[i].ID, want[i].Score)
		}
	}
	if ix.Len() != len(vecs) {
		t.Errorf("Len = %d, want %d", ix.Len(), len(vecs))
	}
}

func BenchmarkSearch100k(b *testing.B) {
	h := NewHashed(0, textnorm.StableTokens)
	ix := NewVectors(h.Dim())
	for i := 0; i < 100000; i++ {
		ix.Set(int64(i), h.EmbedOne(fmt.Sprintf("memory number %d about topic %d", i, i%97)))
	}
	q := h.EmbedOne("topic 42")
	b.ResetTimer()
	for b.Loop() {
		ix.Search(q, 50)
	}
}

// Rows stay put until the slab grows, and every growth is counted: the
// engine keeps rows as its memories' vectors and follows them on a move.
func TestIndexRowsStayUntilMoves(t *testing.T) {
	ix := NewVectors(2)
	ix.Reserve(2)
	moves := ix.Moves()
	ix.Set(1, []float32{3, 4})
	ix.Set(2, []float32{1, 0})
	row1, _ := ix.Get(1)
	if ix.Moves() != moves {
		t.Fatalf("the slab moved within its reservation")
	}
	ix.Set(1, []float32{0, 2}) // replaced in place
	if got, _ := ix.Get(1); &got[0] != &row1[0] || got[1] != 1 {
		t.Fatalf("replacing a vector moved its row or did not normalise it: %v", got)
	}
	ix.Set(3, []float32{1, 1}) // beyond the reservation
	if ix.Moves() == moves {
		t.Fatalf("the slab grew without counting a move")
	}
	if got, _ := ix.Get(1); got[1] != 1 || got[0] != 0 {
		t.Fatalf("row 1 after the move = %v", got)
	}
	if row1[1] != 1 {
		t.Fatalf("the old row was overwritten")
	}
}

// embedReference is EmbedOne as it was written first: each feature's
// string built and hashed with hash/fnv.
func embedReference(h *Hashed, text string) []float32 {
	v := make([]float32, h.dim)
	add := func(feature string, w float64) {
		f := fnv.New64a()
		f.Write([]byte(feature))
		h.addHash(v, f.Sum64(), w)
	}
	for _, t := range textnorm.StableTokens(text) {
		add("w:"+t, termWeight)
		for _, g := range ngrams(t) {
			add("g:"+g, ngramWeight)
		}
	}
	Normalize(v)
	return v
}

// TestEmbedOneUnchanged: hashing the features in place gives the vectors
// bit for bit — the stored vectors of every database depend on it.
func TestEmbedOneUnchanged(t *testing.T) {
	h := NewHashed(0, textnorm.StableTokens)
	texts := []string{"", "a", "ab", "I moved to Busan last month", "차를 테슬라로 바꿨어, 아반떼는 팔았고.", "충주호 근처 카페",
		"naïve café résumé Ünïcödé", "mixed 한국어 and English 단어들 words", "x\xff\xfe invalid \xed\xa0\x80 bytes 한\xff국",
		"emoji 🙂 and 漢字 and Кириллица", "don't stop: it's 12:30, e-mail me@example.com"}
	for i := range 300 {
		var b strings.Builder
		for j := range 1 + i%13 {
			b.WriteString([]string{"Seoul", "서울에서", "살아요", "ka", "no9", "빛솔", "tests", "running", "ü", "\xc3", "한", "x"}[(i*7+j*5)%12])
			b.WriteString([]string{" ", "", "-", ". "}[(i+j)%4])
		}
		texts = append(texts, b.String())
	}
	for _, text := range texts {
		got, want := h.EmbedOne(text), embedReference(h, text)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%q: coordinate %d is %v, was %v", text, i, got[i], want[i])
			}
		}
	}
}
