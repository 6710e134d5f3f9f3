package golden

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"memtrace/internal/testdata/locomotest"
)

// loadLoCoMo loads the LoCoMo data, which must be there under CI
// (locomotest.Require); gates says what a test of it checks.
func loadLoCoMo(tb testing.TB, gates string) *LoCoMo {
	tb.Helper()
	locomotest.Require(tb, locomoPath, gates)
	l, err := LoadLoCoMo(locomoPath)
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// turnModelVariants are the experiments of testdata/golden/README.md, each
// one change from the row it names.
func turnModelVariants() []TurnModel {
	plain := TurnModel{Name: "bm25 speaker+caption (textnorm.Stem)", Speaker: true, Caption: true}
	out := []TurnModel{plain}
	for _, v := range []struct {
		win   int
		w, dc float64
	}{{1, 0.3, 1}, {1, 0.5, 1}, {2, 0.3, 1}, {2, 0.5, 1}, {2, 0.35, 0.6}, {2, 0.5, 0.6}, {3, 0.35, 0.6}, {4, 0.35, 0.6}} {
		m := plain
		m.Name = fmt.Sprintf("+ ±%d neighbours w=%.2f decay=%.1f", v.win, v.w, v.dc)
		m.Window, m.NeighbourWeight, m.NeighbourDecay = v.win, v.w, v.dc
		out = append(out, m)
	}
	def := DefaultTurnModel()
	def.Name = "default"
	out = append(out, def)
	noSpk := def
	noSpk.Name, noSpk.Speaker = "default − speaker names", false
	date := def
	date.Name, date.DateWeight = "default + session month/year w=0.5", 0.5
	ent := def
	ent.Name, ent.EntityBoost = "default + entity boost 0.5", 0.5
	prf := def
	prf.Name, prf.PRFDocs, prf.PRFTerms, prf.PRFWeight = "default + PRF 5 docs 10 terms w=0.3", 5, 10, 0.3
	prf2 := def
	prf2.Name, prf2.PRFDocs, prf2.PRFTerms, prf2.PRFWeight = "default + PRF 3 docs 5 terms w=0.2", 3, 5, 0.2
	vec := def
	vec.Name, vec.VectorWeight = "default + hashed cosine w=0.2", 0.2
	vec4 := def
	vec4.Name, vec4.VectorWeight = "default + hashed cosine w=0.4", 0.4
	rrf := def
	rrf.Name, rrf.VectorWeight, rrf.RRF = "default + RRF(bm25, hashed) 0.3", 0.3, true
	k1 := def
	k1.Name, k1.K1, k1.B = "default k1=0.9 b=0.4", 0.9, 0.4
	k2 := def
	k2.Name, k2.K1, k2.B = "default k1=1.5 b=0.75", 1.5, 0.75
	return append(out, noSpk, date, ent, prf, prf2, vec, vec4, rrf, k1, k2)
}

// TestTurnModelVariants prints the R@k table of every lab variant with
// MEMTRACE_VARIANTS=1 (it takes a few seconds). It is an experiment, not a
// gate: the product's LoCoMo figure is gated in internal/cli.
func TestTurnModelVariants(t *testing.T) {
	if os.Getenv("MEMTRACE_VARIANTS") == "" {
		t.Skip("retrieval lab: set MEMTRACE_VARIANTS=1 to print the variants table (an experiment, not a gate)")
	}
	l := loadLoCoMo(t, "the retrieval lab's variants table")
	ctx := context.Background()
	ref, err := ReferenceRecall(ctx, l, 5, 10, 25, 50)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	row := func(name string, r *RecallAtK) {
		fmt.Fprintf(&b, "| %-48s | %.3f | %.3f | %.3f | %.3f |\n", name, r.Overall(5), r.Overall(10), r.Overall(25), r.Overall(50))
	}
	b.WriteString("| variant | R@5 | R@10 | R@25 | R@50 |\n|---|---|---|---|---|\n")
	row("reference BM25 (data README)", ref)
	for _, m := range turnModelVariants() {
		r, err := m.Recall(ctx, l, 5, 10, 25, 50)
		if err != nil {
			t.Fatal(err)
		}
		row(m.Name, r)
	}
	t.Log("\n" + b.String())
}
