package golden

import (
	"context"
	"math"
	"testing"

	"memtrace/engine/index"
)

// The synthetic dense embedder is deterministic, gives unit vectors with
// every coordinate nonzero (as a model's are), and puts texts that share
// words — English or Korean — nearer than texts that share none.
func TestDenseEmbedder(t *testing.T) {
	ctx := context.Background()
	a, b := NewDenseEmbedder(384, 1), NewDenseEmbedder(384, 1)
	texts := []string{"Mina bought coffee in Busan yesterday.", "Mina talked about coffee in Busan.", "My doctor said to watch blood pressure.",
		"어제 민준이랑 부산에서 커피 얘기를 했어.", "민준 부산 커피 얘기", "팀장님이 프로젝트 끝내고 싶대."}
	va, err := a.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	vb, _ := b.Embed(ctx, texts)
	for i, v := range va {
		var sq float64
		for j, x := range v {
			if x == 0 {
				t.Fatalf("%q: coordinate %d is zero", texts[i], j)
			}
			if math.Float32bits(x) != math.Float32bits(vb[i][j]) {
				t.Fatalf("%q: two embedders of one seed differ at %d", texts[i], j)
			}
			sq += float64(x) * float64(x)
		}
		if math.Abs(sq-1) > 1e-4 {
			t.Fatalf("%q: squared length %v", texts[i], sq)
		}
	}
	for _, c := range [][3]int{{0, 1, 2}, {3, 4, 5}} {
		near, far := index.Cosine(va[c[0]], va[c[1]]), index.Cosine(va[c[0]], va[c[2]])
		if near < far+0.2 {
			t.Errorf("%q: cos to %q %.3f, to %q %.3f", texts[c[0]], texts[c[1]], near, texts[c[2]], far)
		}
	}
	other, _ := NewDenseEmbedder(384, 2).Embed(ctx, texts[:1])
	if index.Cosine(other[0], va[0]) > 0.5 {
		t.Errorf("another seed gave nearly the same vector (cos %.3f)", index.Cosine(other[0], va[0]))
	}
}
