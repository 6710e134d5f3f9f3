package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/engine/secret"
	"memtrace/internal/testdata/ollamatest"
	"memtrace/recall"
)

// wireRecorder stands between memtrace and a fake Ollama: it keeps every
// request body the judge and the embedder sent, answers /api/embed itself
// (a small deterministic vector per input) and hands the rest to the
// recorded server.
type wireRecorder struct {
	mu     sync.Mutex
	bodies bytes.Buffer
}

func (rec *wireRecorder) serve(t *testing.T, upstream *ollamatest.Server) *httptest.Server {
	proxy := httputil.NewSingleHostReverseProxy(upstream.URL())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.bodies.Write(body)
		rec.bodies.WriteByte('\n')
		rec.mu.Unlock()
		if r.URL.Path == "/api/embed" {
			var req struct {
				Model string `json:"model"`
				Input any    `json:"input"`
			}
			_ = json.Unmarshal(body, &req)
			var in []any
			switch x := req.Input.(type) {
			case []any:
				in = x
			default:
				in = []any{x}
			}
			vecs := make([][]float32, len(in))
			for i, x := range in {
				h := fnv.New64a()
				fmt.Fprint(h, x)
				sum := h.Sum64()
				v := make([]float32, 8)
				for d := range v {
					v[d] = float32(int64(sum>>(d*8))&0xff) - 127.5
				}
				vecs[i] = v
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": vecs})
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Issue 31's acceptance: each pattern of the table (the help's own
// examples, English and Korean) captured through ingest with a judge (and
// its verdict cache) and an Ollama embedder, added by hand and imported
// from a memory JSONL (the value in the metadata too), recalled with its trace stored, exported as Markdown and
// as an --otel file, leaves no byte of any value in the database file, its
// WAL, the trace, the --otel file, the export, or the requests the judge
// and the embedder received — and the memories hold the placeholders.
func TestSecretsNeverLeaveTheDoor(t *testing.T) {
	upstream := ollamatest.New(t, func(string) string { return "chat_capture_store.ndjson" })
	rec := &wireRecorder{}
	t.Setenv("OLLAMA_HOST", rec.serve(t, upstream).URL)
	tmp := t.TempDir()
	db := filepath.Join(tmp, "s.db")

	var lines []string
	var values []string
	rawHashes := map[string]bool{} // engine.ContentHash of each text as offered
	for i, p := range secret.Patterns {
		text := "Please remember this for the deploy tomorrow: " + p.Example
		rawHashes[engine.ContentHash(text)] = true
		r := secret.Redact(text)
		if len(r.Findings) == 0 {
			t.Fatalf("%s: example not redacted", p.Name)
		}
		for _, f := range r.Findings {
			values = append(values, text[f.Start:f.End])
		}
		b, _ := json.Marshal(map[string]string{"id": fmt.Sprintf("sec-%02d", i), "session": "s1", "role": "user",
			"text": text, "at": "2026-05-01T10:00:00Z"})
		lines = append(lines, string(b))
	}
	msgs := filepath.Join(tmp, "msgs.jsonl")
	if err := os.WriteFile(msgs, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(tmp, "judge-cache.jsonl")
	mustRunCLI(t, "--db", db, "--embedder", "ollama:all-minilm", "ingest", msgs, "--judge", ollamatest.Model, "--judge-cache", cache)
	// The other doors: `add`, and `import memories` (a memory JSONL as
	// README documents it, the value also in its metadata).
	var mems []string
	for i, p := range secret.Patterns {
		mustRunCLI(t, "--db", db, "add", "Added by hand: "+p.Example, "--key", fmt.Sprintf("add-%02d", i))
		b, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("mem-%02d", i), "text": "Imported: " + p.Example,
			"metadata": map[string]any{"source": "agent-v1", "note": p.Example}})
		mems = append(mems, string(b))
	}
	memFile := filepath.Join(tmp, "memories.jsonl")
	if err := os.WriteFile(memFile, []byte(strings.Join(mems, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRunCLI(t, "--db", db, "--embedder", "ollama:all-minilm", "import", "memories", memFile, "--from", "jsonl")
	out := mustRunCLI(t, "--db", db, "list", "--json", "--limit", "0")
	if n := strings.Count(out, "[secret:"); n < 3*len(secret.Patterns) {
		t.Errorf("list holds %d placeholders, want one per pattern and door (%d) at least:\n%s", n, 3*len(secret.Patterns), out)
	}
	otel := filepath.Join(tmp, "spans.jsonl")
	mustRunCLI(t, "--db", db, "recall", "deploy tomorrow password token key", "--otel", otel, "--otel-content") // with the memories' texts: the strictest case
	exportDir := filepath.Join(tmp, "md")
	mustRunCLI(t, "--db", db, "export", "md", exportDir)

	// A trace stored as the MCP server stores one.
	ctx := context.Background()
	eng, _, closeDB, err := openEngineAt(ctx, db, true, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := recall.Recall(ctx, eng, engine.Query{Text: "deploy tomorrow password", At: eng.Now(), K: 50, Budget: 20000, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := recall.Keep(ctx, eng, tr, "deploy tomorrow password", "s1", "mcp", 10); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tr.Prompt, "[secret:") {
		t.Errorf("the recalled prompt shows no placeholder: %q", tr.Prompt)
	}
	closeDB()

	files := map[string][]byte{}
	for _, p := range []string{db, db + "-wal", otel, cache} {
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = b
	}
	filepath.Walk(exportDir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(p)
			files["md/"+info.Name()] = b
		}
		return nil
	})
	rec.mu.Lock()
	files["requests to the judge and the embedder"] = rec.bodies.Bytes()
	rec.mu.Unlock()
	if !bytes.Contains(files["requests to the judge and the embedder"], []byte("[secret:")) {
		t.Fatal("the judge and the embedder received no placeholder: the test did not reach them")
	}
	judged := 0
	for line := range bytes.Lines(files[filepath.Base(cache)]) {
		var e struct{ Texts []string }
		json.Unmarshal(line, &e)
		for _, h := range e.Texts {
			judged++
			if rawHashes[h] {
				t.Errorf("the judge cache names a text as offered, before redaction: %s", line)
			}
		}
	}
	if judged < len(secret.Patterns) {
		t.Errorf("the judge cache names %d judged texts, want one per pattern at least", judged)
	}
	if !bytes.Contains(files["spans.jsonl"], []byte("secret:")) {
		t.Error("the --otel file holds no placeholder: the recall found none of the memories")
	}
	for _, v := range values {
		for name, b := range files {
			for _, form := range []string{v, jsonForm(v)} {
				if bytes.Contains(b, []byte(form)) {
					t.Errorf("%s holds the secret value %q", name, v)
				}
			}
		}
	}
}

// jsonForm is v as it reads inside a JSON string.
func jsonForm(v string) string {
	b, _ := json.Marshal(v)
	return string(b[1 : len(b)-1])
}

// Redactions are counted by pattern like any other filter: in `ingest
// --json` and its summary, and in `audit`, which also finds a value stored
// in clear before redaction existed (written here straight into the store,
// as an old database holds it).
func TestRedactionsCountedByPattern(t *testing.T) {
	tmp := t.TempDir()
	db := filepath.Join(tmp, "c.db")
	msgs := filepath.Join(tmp, "m.jsonl")
	lines := `{"id":"a","session":"s","role":"user","text":"my password is hunter2-staging-9 for the staging box","at":"2026-05-01T10:00:00Z"}
{"id":"b","session":"s","role":"user","text":"내 은행 앱 비밀번호는 sunflower!92 로 바꿨어, 잊지 말아줘","at":"2026-05-01T10:01:00Z"}
{"id":"c","session":"s","role":"user","text":"deploy token ghp_16C7e42F292c6912E7710c838347Ae178B4a and my password is Marigold!2291","at":"2026-05-01T10:02:00Z"}
{"id":"d","session":"s","role":"user","text":"I moved to Busan last spring and love the sea","at":"2026-05-01T10:03:00Z"}
`
	if err := os.WriteFile(msgs, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var st engine.IngestStats
	if err := json.Unmarshal([]byte(mustRunCLI(t, "--db", db, "ingest", msgs, "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Redacted["password"] != 2 || st.Redacted["password_ko"] != 1 || st.Redacted["github_token"] != 1 || len(st.Redacted) != 3 {
		t.Errorf("ingest --json redacted %v, want password 2, password_ko 1, github_token 1", st.Redacted)
	}
	if out := mustRunCLI(t, "--db", filepath.Join(tmp, "d.db"), "ingest", msgs); !strings.Contains(out, "redacted by pattern") || !strings.Contains(out, "password 2") {
		t.Errorf("the ingest summary does not count redactions by pattern:\n%s", out)
	}

	ctx := context.Background()
	eng, _, closeDB, err := openEngineAt(ctx, db, true, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	old := &engine.Memory{Key: "old-1", Content: "the NAS admin password is Tr0ub4dor&3x", Kind: engine.KindFact, Type: "note",
		Importance: 0.5, Status: engine.StatusActive, Tier: engine.TierWarm, CreatedAt: eng.Now(), LastAccessedAt: eng.Now()}
	if err := eng.Store().Update(ctx, func(q engine.Queries) error {
		b, err := q.NextBatchID(ctx, engine.ActorCurator)
		if err != nil {
			return err
		}
		return q.InsertMemory(ctx, old, engine.Actor{Name: engine.ActorCurator, Batch: b})
	}); err != nil {
		t.Fatal(err)
	}
	closeDB()
	var audit struct{ Secrets curate.AuditSecrets }
	if err := json.Unmarshal([]byte(mustRunCLI(t, "--db", db, "audit", "--json")), &audit); err != nil {
		t.Fatal(err)
	}
	s := audit.Secrets
	counts := map[string]int{}
	for _, x := range s.Redacted {
		counts[x.Reason] = x.Count
	}
	if counts["password"] != 3 || counts["github_token"] != 1 {
		t.Errorf("audit redacted %+v, want password 3 (the Korean one too), github_token 1", s.Redacted)
	}
	if s.InClearMemories != 1 || len(s.InClearIDs) != 1 || s.InClearIDs[0] != old.ID || len(s.InClear) != 1 || s.InClear[0].Reason != "password" {
		t.Errorf("audit in clear %+v, want the old memory %d by password", s, old.ID)
	}
	if out := mustRunCLI(t, "--db", db, "audit"); !strings.Contains(out, "1 memories hold a value in clear") || !strings.Contains(out, fmt.Sprintf("memtrace erase %d", old.ID)) {
		t.Errorf("the audit text does not show the secrets:\n%s", out)
	}
}
