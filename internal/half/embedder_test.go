package half

import (
	"context"
	"testing"
)

type fixedEmbedder struct{ v []float32 }

func (f fixedEmbedder) Name() string { return "fixed" }
func (f fixedEmbedder) Dim() int     { return len(f.v) }
func (f fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = append([]float32(nil), f.v...)
	}
	return out, nil
}

type batchEmbedder struct{ fixedEmbedder }

func (batchEmbedder) EmbedBatch() int { return 7 }

// HalfVectors rounds a dense embedder's vectors, keeps a batch embedder's
// batch, wraps once, and leaves the hashed embedder as it is.
func TestVectors(t *testing.T) {
	third := float32(1.0 / 3)
	e := Vectors(fixedEmbedder{[]float32{third, 0.5}})
	vs, _ := e.Embed(context.Background(), []string{"a"})
	if vs[0][0] != ToFloat32(FromFloat32(third)) || vs[0][0] == third || vs[0][1] != 0.5 || e.Name() != "fixed" {
		t.Fatalf("rounded %v", vs[0])
	}
	if w, ok := Vectors(e).(halfEmbedder); !ok {
		t.Fatal("not rounding")
	} else if _, ok := w.Embedder.(fixedEmbedder); !ok {
		t.Fatalf("wrapped twice: %T", w.Embedder)
	}
	b, ok := Vectors(batchEmbedder{fixedEmbedder{[]float32{1}}}).(interface{ EmbedBatch() int })
	if !ok || b.EmbedBatch() != 7 {
		t.Fatal("the batch embedder lost its batch")
	}
	if Vectors(nil) != nil {
		t.Fatal("nil was wrapped")
	}
}
