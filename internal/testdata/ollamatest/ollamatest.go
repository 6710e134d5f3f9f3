// Package ollamatest is an httptest server that speaks Ollama's wire
// protocol (/api/tags, /api/show, NDJSON-streamed /api/chat, JSON error
// bodies) by replaying the recordings in testdata/ollama. Tests outside
// ollama/ use it to run the real judge client against a server that
// answers each memory the way a test needs.
package ollamatest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"
)

// Model is the model the recordings were made with.
const Model = "qwen2.5:0.5b"

// Server replays recorded answers. Route picks the recording for the
// memory text a chat request judges (the text between <memory> tags,
// unescaped).
type Server struct {
	tb    testing.TB
	srv   *httptest.Server
	dir   string
	route func(text string) string

	mu    sync.Mutex
	chats int
	texts []string
}

// New starts a server; route maps a judged text to a recording file name
// under testdata/ollama (e.g. "chat_triage_keep.ndjson").
func New(tb testing.TB, route func(text string) string) *Server {
	tb.Helper()
	s := &Server{tb: tb, dir: recordings(tb), route: route}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(s.srv.Close)
	return s
}

// URL is the server's base URL, for ollama.ClientConfig.Host or OLLAMA_HOST.
func (s *Server) URL() *url.URL {
	u, err := url.Parse(s.srv.URL)
	if err != nil {
		s.tb.Fatal(err)
	}
	return u
}

// Chats is how many /api/chat requests were served.
func (s *Server) Chats() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chats
}

// recordings finds testdata/ollama by walking up to the module root.
func recordings(tb testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "ollama")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("ollamatest: no go.mod above the working directory")
		}
		dir = parent
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodHead && r.URL.Path == "/":
		w.WriteHeader(http.StatusOK)
	case r.Method == http.MethodGet && r.URL.Path == "/api/tags":
		s.file(w, http.StatusOK, "tags.json")
	case r.Method == http.MethodPost && r.URL.Path == "/api/show":
		var req api.ShowRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		if req.Model != Model {
			s.notFound(w, req.Model)
			return
		}
		s.file(w, http.StatusOK, "show_qwen2.5_0.5b.json")
	case r.Method == http.MethodPost && r.URL.Path == "/api/chat":
		var req api.ChatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
			return
		}
		if req.Model != Model {
			s.notFound(w, req.Model)
			return
		}
		text := ""
		for _, m := range req.Messages {
			if i := strings.Index(m.Content, "<memory>"); m.Role == "user" && i >= 0 {
				text = memoryText(m.Content[i:])
			}
		}
		s.mu.Lock()
		s.chats++
		s.texts = append(s.texts, text)
		s.mu.Unlock()
		name := s.route(text)
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.WriteHeader(http.StatusOK)
		sc := bufio.NewScanner(bytes.NewReader(s.read(name)))
		for sc.Scan() {
			w.Write(append(sc.Bytes(), '\n'))
			if fl, ok := w.(http.Flusher); ok {
				fl.Flush()
			}
		}
	default:
		http.NotFound(w, r)
	}
}

// memoryText undoes the judge's delimiting: the text between the tags,
// with &lt; &gt; &amp; unescaped.
func memoryText(user string) string {
	s := strings.TrimPrefix(user, "<memory>\n")
	if i := strings.LastIndex(s, "\n</memory>"); i >= 0 {
		s = s[:i]
	}
	return html.UnescapeString(s)
}

func (s *Server) notFound(w http.ResponseWriter, model string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	json.NewEncoder(w).Encode(map[string]string{"error": "model '" + model + "' not found"})
}

func (s *Server) file(w http.ResponseWriter, status int, name string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(s.read(name))
}

func (s *Server) read(name string) []byte {
	b, err := os.ReadFile(filepath.Join(s.dir, name))
	if err != nil {
		s.tb.Errorf("ollamatest: recording %s: %v", name, err)
	}
	return b
}
