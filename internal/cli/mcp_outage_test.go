package cli

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/mcpserver"
)

// The offline twin of TestRealOllamaKilledMidMCPSession (which needs a real
// Ollama): an `mcp` session whose embedding server stops answering
// mid-session — every request cut off, as when the process is killed —
// loses no statement: captures are held in the review queue, recall
// answers lexically, correct answers; every command works offline; with
// the server back, `review retry` stores what was held.
func TestMCPSessionSurvivesEmbedderOutage(t *testing.T) {
	srv := newFakeEmbedServer(t, "tiny-embed:latest")
	var down atomic.Bool
	srv.onEmbed = func(int) {
		if down.Load() {
			panic(http.ErrAbortHandler) // the connection is cut, no answer
		}
	}
	t.Setenv("OLLAMA_HOST", srv.srv.URL)
	db := filepath.Join(t.TempDir(), "m.db")
	mustRun(t, "--db", db, "--embedder", "ollama:tiny-embed", "add", "I grow apples in Chungju every autumn.")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errOut strings.Builder
	done := make(chan int, 1)
	go func() {
		code := run(ctx, []string{"--db", db, "mcp"}, inR, outW, &errOut)
		outW.Close()
		done <- code
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "outage", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	var before mcpserver.CaptureOut
	callTool(t, ctx, cs, "memory_capture", map[string]any{"text": "My daughter Minji starts school in Busan next March."}, &before)
	if before.Outcome != "stored" {
		t.Fatalf("capture with the server up: %+v", before)
	}

	down.Store(true)
	statements := []string{
		"I keep bees on the roof of our house in Chungju.",
		"저는 매주 토요일 아침에 한강에서 자전거를 타요.",
	}
	for _, s := range statements {
		var out mcpserver.CaptureOut
		callTool(t, ctx, cs, "memory_capture", map[string]any{"text": s}, &out)
		if out.Outcome != "held" {
			t.Errorf("capture of %q with the server down: %+v, want held", s, out)
		}
	}
	var corr mcpserver.CaptureOut
	callTool(t, ctx, cs, "memory_correct", map[string]any{"text": "Don't use tabs, use two spaces for indentation."}, &corr)
	t.Logf("correct with the server down: %s (%s)", corr.Outcome, corr.Reason)
	if rec := recallTool(t, ctx, cs, map[string]any{"query": "Minji school Busan", "read_only": true}); !strings.Contains(rec.Prompt, "Minji") {
		t.Errorf("recall with the server down found no Minji: %+v", rec)
	}
	cs.Close()
	inW.Close()
	if code := <-done; code != 0 {
		t.Fatalf("mcp exit %d: %s", code, errOut.String())
	}

	q := mustRun(t, "--db", db, "review", "list", "--json")
	for _, s := range statements {
		if !strings.Contains(q, s) || !strings.Contains(q, "embedder_unavailable") {
			t.Errorf("%q is not in the review queue:\n%s", s, q)
		}
	}
	offlineOnOllama(t, db)

	down.Store(false)
	r := mustRun(t, "--db", db, "review", "retry", "--all")
	l := mustRun(t, "--db", db, "list", "--limit", "0")
	for _, s := range statements {
		if !strings.Contains(l, s[:20]) {
			t.Errorf("%q not stored after the retry:\n%s\nretry said:\n%s", s, l, r)
		}
	}
}
