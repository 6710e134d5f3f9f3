package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"memtrace/engine"
	"memtrace/store"
)

// fakeEmbedServer speaks Ollama's /api/embed with deterministic vectors
// (the hashed embedder's, 48-dimensional, so they differ from the
// default's), counting requests; onEmbed runs before each answer.
type fakeEmbedServer struct {
	srv     *httptest.Server
	mu      sync.Mutex
	embeds  int
	texts   int
	largest int // the most texts one request carried
	onEmbed func(n int)
}

func newFakeEmbedServer(t *testing.T, model string) *fakeEmbedServer {
	f := &fakeEmbedServer{}
	h := engine.NewHashed(48)
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/embed" {
			http.NotFound(w, r)
			return
		}
		var req api.EmbedRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if req.Model != model {
			w.WriteHeader(http.StatusNotFound)
			json.NewEncoder(w).Encode(map[string]string{"error": "model '" + req.Model + "' not found"})
			return
		}
		var in []string
		switch v := req.Input.(type) {
		case string:
			in = []string{v}
		case []any:
			for _, s := range v {
				in = append(in, s.(string))
			}
		}
		f.mu.Lock()
		f.embeds++
		f.texts += len(in)
		f.largest = max(f.largest, len(in))
		n, hook := f.embeds, f.onEmbed
		f.mu.Unlock()
		if hook != nil {
			hook(n)
		}
		vecs, _ := h.Embed(context.Background(), in)
		json.NewEncoder(w).Encode(api.EmbedResponse{Model: model, Embeddings: vecs})
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeEmbedServer) count() (requests, texts int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.embeds, f.texts
}

func embedders(t *testing.T, path string) map[string]int {
	t.Helper()
	db, err := store.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string]int{}
	db.ForEachMemory(context.Background(), func(m *engine.Memory) error {
		out[m.Embedder]++
		return nil
	})
	return out
}

func setting(t *testing.T, path, key string) string {
	t.Helper()
	db, err := store.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	v, err := db.GetSetting(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// `reembed --embedder ollama:MODEL` moves a hashed database to the Ollama
// embedder; cut short, it keeps what it did and the next run resumes;
// afterwards every command embeds with the database's embedder, and one
// asking for another is refused with what to run.
func TestReembedResumesAndTheDatabaseKeepsItsEmbedder(t *testing.T) {
	srv := newFakeEmbedServer(t, "tiny-embed:latest")
	t.Setenv("OLLAMA_HOST", srv.srv.URL)
	db := filepath.Join(t.TempDir(), "m.db")
	mustRun(t, "demo", "--no-tui", "--db", db)
	before := embedders(t, db)
	total := before[engine.NewHashed(engine.HashedDim).Name()]
	if total < 20 || len(before) != 1 {
		t.Fatalf("demo vectors: %v", before)
	}

	// First run: cancelled after the 3rd embedding request (batches of 5:
	// the probe of Ready, then two batches are written).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv.onEmbed = func(n int) {
		if n == 4 {
			cancel()
		}
	}
	var out, errb bytes.Buffer
	code := run(ctx, []string{"--db", db, "reembed", "--embedder", "ollama:Tiny-Embed", "--batch", "5"}, strings.NewReader(""), &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "reembed stopped at 10 of") || !strings.Contains(errb.String(), "to resume") {
		t.Fatalf("interrupted run: exit %d\n%s", code, errb.String())
	}
	mid := embedders(t, db)
	if mid["ollama:tiny-embed:latest"] != 10 || setting(t, db, settingReembedTarget) != "ollama:tiny-embed:latest" || setting(t, db, settingEmbedder) != engine.NewHashed(engine.HashedDim).Name() {
		t.Fatalf("after the interruption: %v, target %q, embedder %q", mid, setting(t, db, settingReembedTarget), setting(t, db, settingEmbedder))
	}
	// Until it finishes the database keeps its old embedder, and says so.
	errb.Reset()
	if code := run(context.Background(), []string{"--db", db, "recall", "충주 사과"}, strings.NewReader(""), &out, &errb); code != 0 || !strings.Contains(errb.String(), "has not finished") {
		t.Fatalf("recall mid-reembed: exit %d %q", code, errb.String())
	}

	// Second run, no flag: resumes the unfinished reembed.
	srv.onEmbed = nil
	var errb2 bytes.Buffer
	out.Reset()
	if code := run(context.Background(), []string{"--db", db, "reembed", "--json"}, strings.NewReader(""), &out, &errb2); code != 0 {
		t.Fatalf("resume: exit %d %s", code, errb2.String())
	}
	st := decodeJSON[ReembedStats](t, out.String())
	if !st.Resumed || st.Already != 10 || st.Embedded != total-10 || st.Memories != total || st.Dim != 48 || st.Embedder != "ollama:tiny-embed:latest" {
		t.Fatalf("resume stats: %+v", st)
	}
	// stderr is not a terminal here: progress lines, ending at 100%.
	if !strings.Contains(errb2.String(), "reembed ollama:tiny-embed:latest: 10/") || !strings.Contains(errb2.String(), "(100%)") {
		t.Fatalf("progress:\n%s", errb2.String())
	}
	if after := embedders(t, db); after["ollama:tiny-embed:latest"] != total || len(after) != 1 {
		t.Fatalf("after resume: %v", after)
	}
	if setting(t, db, settingEmbedder) != "ollama:tiny-embed:latest" || setting(t, db, settingEmbedderDim) != "48" || setting(t, db, settingReembedTarget) != "" {
		t.Fatal("settings not switched")
	}

	// Every command now embeds with it: recall asks the server.
	r0, _ := srv.count()
	rec := mustRun(t, "--db", db, "recall", "충주 사과", "--json")
	if r1, _ := srv.count(); r1 <= r0 || !strings.Contains(rec, "ollama:tiny-embed:latest") {
		t.Fatalf("recall did not embed with the database's embedder (requests %d → %d)", r0, r1)
	}
	// Asking for another is refused, with what to run; nothing is written.
	for _, args := range [][]string{
		{"--db", db, "--embedder", "hashed", "recall", "충주"},
		{"--db", db, "add", "--embedder", "hashed", "another memory"},
		{"--db", db, "mcp", "--embedder", "hashed"},
	} {
		errb.Reset()
		if code := run(context.Background(), args, strings.NewReader(""), &out, &errb); code != 1 ||
			!strings.Contains(errb.String(), "have vectors from ollama:tiny-embed:latest, not hashed-ngram-v2/256") ||
			!strings.Contains(errb.String(), "memtrace reembed --embedder hashed") {
			t.Errorf("%v: exit %d %q", args, code, errb.String())
		}
	}
	// A server that is gone does not stop the database: what needs no new
	// vector works, recall falls back to the lexical channels and says so
	// (trace field and the preprocess stage's notes), and stderr says how
	// to go back to the offline embedder.
	t.Setenv("OLLAMA_HOST", "http://127.0.0.1:1")
	errb.Reset()
	out.Reset()
	if code := run(context.Background(), []string{"--db", db, "recall", "충주 사과", "--json"}, strings.NewReader(""), &out, &errb); code != 0 || !strings.Contains(errb.String(), "reembed --embedder hashed") || !strings.Contains(errb.String(), "working offline") {
		t.Fatalf("server down: exit %d %q", code, errb.String())
	}
	tr := decodeJSON[engine.Trace](t, out.String())
	if pre := tr.Stage("preprocess"); tr.Fallback != "lexical" || pre == nil || pre.Notes["embedder_unavailable"] == "" || len(tr.Survivors) == 0 {
		t.Fatalf("offline recall: fallback %q, %d survivors, preprocess %+v", tr.Fallback, len(tr.Survivors), pre)
	}
	for _, args := range [][]string{{"list"}, {"show", "1"}, {"forecast"}, {"audit"}, {"mcp"}} {
		errb.Reset()
		if code := run(context.Background(), append([]string{"--db", db}, args...), strings.NewReader(""), &out, &errb); code != 0 {
			t.Errorf("%v with the server down: exit %d %q", args, code, errb.String())
		}
	}
}
