package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ollamaRecordings serves /api/tags, /api/show and the judge check's chat
// from testdata/ollama, as an Ollama server would answer them.
func ollamaRecordings(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string `json:"model"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		file := ""
		switch {
		case r.URL.Path == "/api/tags":
			file = "tags.json"
		case r.URL.Path == "/api/show" && req.Model == "qwen2.5:0.5b":
			file = "show_qwen2.5_0.5b.json"
		case r.URL.Path == "/api/show" && req.Model == "nomic-embed-text":
			file = "show_nomic-embed-text.json"
		case r.URL.Path == "/api/chat" && req.Model == "qwen2.5:0.5b":
			file = "chat_probe_ok.ndjson"
		default:
			w.WriteHeader(http.StatusNotFound)
			json.NewEncoder(w).Encode(map[string]string{"error": "model '" + req.Model + "' not found"})
			return
		}
		b, err := os.ReadFile(filepath.Join("testdata", "ollama", file))
		if err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestJudgeCheck(t *testing.T) {
	srv := ollamaRecordings(t)
	t.Setenv("OLLAMA_HOST", srv.URL)

	t.Run("OK", func(t *testing.T) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"judge", "check", "--model", "qwen2.5:0.5b", "--json"}, nil, &out, &errOut)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		var r judgeCheckReport
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Host != srv.URL || r.Model.Digest != "a8b0c51577010a279d933d14c2a8ab4b268079d44c5c8830c0a93900f1827c67" || len(r.PromptHash) != 64 {
			t.Fatalf("report = %+v", r)
		}
		if r.Chat.Answer != `{"ok": true}` || r.Chat.PromptTokens != 31 {
			t.Fatalf("the check did not chat with format: %+v", r.Chat)
		}
	})

	t.Run("EmbeddingModelRefused", func(t *testing.T) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"judge", "check", "--model", "nomic-embed-text"}, nil, &out, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), "cannot judge: it has no completion capability (capabilities: embedding)") || strings.Contains(out.String(), "ready") {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
		}
	})

	t.Run("MissingModel", func(t *testing.T) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"judge", "check", "--model", "llama9:70b"}, nil, &out, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), "ollama pull llama9:70b") || !strings.Contains(errOut.String(), srv.URL) {
			t.Fatalf("exit %d, stderr %q", code, errOut.String())
		}
	})

	t.Run("Usage", func(t *testing.T) {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{"judge"}, nil, &out, &errOut); code != 2 {
			t.Fatalf("exit %d, want 2", code)
		}
	})
}
