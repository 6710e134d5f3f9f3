package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/golden"
	"memtrace/internal/testdata/locomotest"
)

const locomoFile = "../shared/data/locomo10.json"

func TestBenchLoCoMoOneConversation(t *testing.T) {
	locomotest.Require(t, locomoFile, "`bench locomo`'s JSON on one conversation")
	out, errOut, code := runCLI(t, "bench", "locomo", locomoFile, "--limit-conversations", "1", "--k", "5,10", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Questions int                                      `json:"questions"`
		Results   map[string]map[string]map[string]float64 `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Questions != 197 {
		t.Errorf("questions %d, conv-26 has 197 with evidence", got.Questions)
	}
	for _, sys := range []string{"pipeline", "final", "rerank", "bm25"} {
		row := got.Results[sys]["R@10"]
		if _, ok := row["overall"]; !ok {
			t.Fatalf("%s has no R@10 overall: %v", sys, got.Results[sys])
		}
		if _, ok := row["single-hop"]; !ok {
			t.Errorf("%s has no single-hop figure", sys)
		}
	}
	if bm := got.Results["bm25"]["R@10"]["overall"]; bm < 0.59 || bm > 0.61 {
		t.Errorf("bm25 reference R@10 on conv-26 = %.4f, want ≈ 0.598", bm)
	}
	if rr, bm := got.Results["rerank"]["R@10"]["overall"], got.Results["bm25"]["R@10"]["overall"]; rr < bm+0.1 {
		t.Errorf("pipeline retrieval R@10 %.3f does not clearly beat plain BM25 %.3f", rr, bm)
	}
	if f, p := got.Results["final"]["R@5"]["overall"], got.Results["pipeline"]["R@5"]["overall"]; f > p {
		t.Errorf("budget survivors (%.3f) cannot recall more than the ranking they come from (%.3f)", f, p)
	}
}

func TestBenchRecallJSON(t *testing.T) {
	out, errOut, code := runCLI(t, "bench", "recall", "--n", "300", "--queries", "5", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got golden.RecallBenchResult
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != 1 {
		t.Fatalf("runs %+v", got.Runs)
	}
	r := got.Runs[0]
	if r.N != 300 || r.Queries != 5 || r.P50MS <= 0 || r.P95MS < r.P50MS || r.ScanFloorMS < 0 || r.RSSMB <= 0 {
		t.Errorf("run %+v", r)
	}
	if _, _, code := runCLI(t, "bench", "recall", "--n", "ten"); code != 2 {
		t.Errorf("--n ten: exit %d, want 2", code)
	}
}

// `bench recall --dense DIM` stores a deterministic embedder's dense
// vectors, past the size where the vector search goes through sign codes,
// and reports the search's recall@50 against the exact scan of the same
// run — which must hold the bound — with the vector bytes per memory.
func TestBenchRecallDense(t *testing.T) {
	out, errOut, code := runCLI(t, "bench", "recall", "--dense", "256", "--n", "6000", "--queries", "20", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got golden.RecallBenchResult
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != 1 || !strings.HasPrefix(got.Embedder, "synthetic-dense-v1/256") {
		t.Fatalf("embedder %q, runs %+v", got.Embedder, got.Runs)
	}
	r := got.Runs[0]
	if r.Dim != 256 || r.RecallAt50 < 0.98 || r.RecallAt50 > 1 {
		t.Errorf("dim %d, recall@50 against exact %.4f (want ≥ 0.98)", r.Dim, r.RecallAt50)
	}
	// 1 KB of float32 a row, 32 bytes of signs, an 8-byte id.
	if r.VectorBytesPerMemory < 1024+32+8 || r.VectorBytesPerMemory > 2*1064 || r.HeapBytesPerMemory < r.VectorBytesPerMemory {
		t.Errorf("vector bytes per memory %d, heap %d", r.VectorBytesPerMemory, r.HeapBytesPerMemory)
	}
	for _, bad := range [][]string{{"--dense", "-1"}, {"--dense", "9000"}, {"--dense", "64", "--embedder", "ollama:x"}} {
		args := append([]string{"bench", "recall", "--n", "10"}, bad...)
		if _, errOut, code := runCLI(t, args...); code != 2 || !strings.Contains(errOut, "--dense") {
			t.Errorf("%v: exit %d %q, want a usage error naming --dense", bad, code, errOut)
		}
	}
}

// bench open writes a database, opens it repeatedly and reads its rows
// alone; the JSON row carries every figure, and the temporary database is
// gone afterwards.
func TestBenchOpenJSON(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	out, errOut, code := runCLI(t, "bench", "open", "--n", "400", "--opens", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got golden.OpenBenchResult
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != 1 {
		t.Fatalf("runs %+v", got.Runs)
	}
	r := got.Runs[0]
	if r.N != 400 || r.Opens != 3 || r.FirstMS <= 0 || r.P50MS <= 0 || r.P95MS < r.P50MS || r.ReadFloorMS <= 0 || r.Ratio <= 0 || r.HeapMB <= 0 {
		t.Errorf("run %+v", r)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("bench open left %d entries in the temporary directory", len(left))
	}
	if _, _, code := runCLI(t, "bench", "open", "--opens", "0"); code != 2 {
		t.Errorf("--opens 0: exit %d, want 2", code)
	}
	// --keep leaves the database, a memtrace database like any other, and
	// refuses to overwrite it.
	keep := filepath.Join(t.TempDir(), "dbs")
	if _, errOut, code := runCLI(t, "bench", "open", "--n", "50", "--opens", "1", "--keep", keep); code != 0 {
		t.Fatalf("--keep: exit %d: %s", code, errOut)
	}
	out, errOut, code = runCLI(t, "--db", filepath.Join(keep, "open-50.db"), "list", "--json")
	if code != 0 || !strings.Contains(out, "syn-49") {
		t.Fatalf("list on the kept database: exit %d: %s %.200s", code, errOut, out)
	}
	if _, errOut, code := runCLI(t, "bench", "open", "--n", "50", "--opens", "1", "--keep", keep); code == 0 || !strings.Contains(errOut, "exists") {
		t.Errorf("a second --keep run into the same directory: exit %d: %s", code, errOut)
	}
}

// BenchmarkLoCoMoOneConversation ingests conv-26 into a fresh database and
// runs its 197 questions through the full recall pipeline.
func BenchmarkLoCoMoOneConversation(b *testing.B) {
	locomotest.Require(b, locomoFile, "the full pipeline's speed on one LoCoMo conversation")
	l, err := golden.LoadLoCoMo(locomoFile)
	if err != nil {
		b.Fatal(err)
	}
	open := tempEngines(b.TempDir(), nil, engine.Config{})
	for b.Loop() {
		if _, err := golden.RunLoCoMo(context.Background(), l, open, golden.LoCoMoOptions{Conversations: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// `bench recall --embedder` benchmarks that embedder (its server is asked)
// and says so in the result; with the server away it refuses the run
// rather than benchmarking the hashed embedder instead.
func TestBenchRecallHonoursEmbedder(t *testing.T) {
	srv := newFakeEmbedServer(t, "tiny-embed:latest")
	t.Setenv("OLLAMA_HOST", srv.srv.URL)
	out, errOut, code := runCLI(t, "bench", "recall", "--embedder", "ollama:tiny-embed", "--n", "200", "--queries", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got golden.RecallBenchResult
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if _, texts := srv.count(); got.Embedder != "ollama:tiny-embed:latest" || texts < 200 || len(got.Runs) != 1 {
		t.Fatalf("embedder %q, %d texts embedded by the server, runs %+v", got.Embedder, texts, got.Runs)
	}
	t.Setenv("OLLAMA_HOST", "http://127.0.0.1:1")
	_, errOut, code = runCLI(t, "bench", "recall", "--embedder", "ollama:tiny-embed", "--n", "200", "--queries", "3")
	if code != 1 || !strings.Contains(errOut, "bench recall --embedder ollama:tiny-embed") || !strings.Contains(errOut, "leave out --embedder") {
		t.Fatalf("server down: exit %d %q", code, errOut)
	}
}
