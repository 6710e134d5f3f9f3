package ollama

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

// recordings holds Ollama responses in the server's wire formats: NDJSON
// chat streams (chunks, then done:true with metrics, or an {"error"} line)
// and JSON bodies of /api/tags, /api/show, /api/embed and error replies.
var recordings = filepath.Join("..", "testdata", "ollama")

// reply is one scripted response: an HTTP status and a recorded body.
type reply struct {
	status int
	file   string
}

// fakeOllama is an httptest server that speaks Ollama's wire protocol by
// replaying recordings. Chat replies are consumed in order; the test fails
// if the client asks for more than were scripted.
type fakeOllama struct {
	t   *testing.T
	srv *httptest.Server

	mu     sync.Mutex
	chat   []reply
	show   map[string]reply // by model name
	tags   reply
	embed  reply
	stall  time.Duration // /api/chat waits this long before answering
	hits   map[string]int
	bodies map[string][][]byte
}

func newFakeOllama(t *testing.T) *fakeOllama {
	t.Helper()
	f := &fakeOllama{
		t: t,
		show: map[string]reply{
			"qwen2.5:0.5b":     {200, "show_qwen2.5_0.5b.json"},
			"nomic-embed-text": {200, "show_nomic-embed-text.json"},
		},
		tags:   reply{200, "tags.json"},
		embed:  reply{200, "embed_nomic-embed-text.json"},
		hits:   map[string]int{},
		bodies: map[string][][]byte{},
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeOllama) url() *url.URL {
	u, err := url.Parse(f.srv.URL)
	if err != nil {
		f.t.Fatal(err)
	}
	return u
}

// client returns a judge client pointed at the fake server.
func (f *fakeOllama) client(timeout time.Duration) *Client {
	return NewClient(ClientConfig{Host: f.url(), Timeout: timeout})
}

func (f *fakeOllama) scriptChat(files ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, file := range files {
		f.chat = append(f.chat, reply{200, file})
	}
}

func (f *fakeOllama) hitCount(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hits[path]
}

// chatRequests decodes every /api/chat body the server received.
func (f *fakeOllama) chatRequests() []api.ChatRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []api.ChatRequest
	for _, b := range f.bodies["/api/chat"] {
		var r api.ChatRequest
		if err := json.Unmarshal(b, &r); err != nil {
			f.t.Fatalf("chat body does not decode: %v\n%s", err, b)
		}
		out = append(out, r)
	}
	return out
}

// rawBodies returns the raw request bodies of path.
func (f *fakeOllama) rawBodies(path string) [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.bodies[path]...)
}

func (f *fakeOllama) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.hits[r.URL.Path]++
	f.bodies[r.URL.Path] = append(f.bodies[r.URL.Path], body)
	f.mu.Unlock()

	switch {
	case r.Method == http.MethodHead && r.URL.Path == "/":
		w.WriteHeader(http.StatusOK)
	case r.Method == http.MethodGet && r.URL.Path == "/api/tags":
		f.writeJSON(w, f.tags)
	case r.Method == http.MethodPost && r.URL.Path == "/api/show":
		var req api.ShowRequest
		_ = json.Unmarshal(body, &req)
		rep, ok := f.show[req.Model]
		if !ok {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			json.NewEncoder(w).Encode(map[string]string{"error": "model '" + req.Model + "' not found"})
			return
		}
		f.writeJSON(w, rep)
	case r.Method == http.MethodPost && r.URL.Path == "/api/embed":
		var req api.EmbedRequest
		_ = json.Unmarshal(body, &req)
		if _, ok := f.show[req.Model]; !ok {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			json.NewEncoder(w).Encode(map[string]string{"error": "model '" + req.Model + "' not found"})
			return
		}
		f.writeJSON(w, f.embed)
	case r.Method == http.MethodPost && r.URL.Path == "/api/chat":
		f.serveChat(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeOllama) serveChat(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	stall := f.stall
	if len(f.chat) == 0 {
		f.mu.Unlock()
		f.t.Errorf("unscripted /api/chat request (the client asked more often than expected)")
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	rep := f.chat[0]
	f.chat = f.chat[1:]
	f.mu.Unlock()
	if stall > 0 {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(stall):
		}
	}
	if rep.status != http.StatusOK {
		f.writeJSON(w, rep)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	sc := bufio.NewScanner(bytes.NewReader(f.read(rep.file)))
	for sc.Scan() {
		w.Write(append(sc.Bytes(), '\n'))
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
	}
}

func (f *fakeOllama) writeJSON(w http.ResponseWriter, rep reply) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(rep.status)
	w.Write(f.read(rep.file))
}

func (f *fakeOllama) read(file string) []byte {
	b, err := os.ReadFile(filepath.Join(recordings, file))
	if err != nil {
		f.t.Errorf("recording: %v", err)
	}
	return b
}
