package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
	"memtrace/engine/secret"
	"memtrace/store"
)

// The agent's doors redact too (issue 31): each example of the table
// (English and Korean) sent through memory_capture, and a recall whose
// query quotes it, leave no byte of the value in the database file or its
// WAL, and memory_recall returns the placeholder.
func TestMCPDoorsRedactSecrets(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "mcp.db")
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	e, err := engine.Open(ctx, engine.Options{Store: db, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := serverOf(t, e, Options{Keep: 10}).srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	var values []string
	for _, p := range secret.Patterns {
		text := "Please remember this for the deploy tomorrow: " + p.Example
		for _, f := range secret.Redact(text).Findings {
			values = append(values, text[f.Start:f.End])
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolCapture, Arguments: map[string]any{"text": text, "session": "s1"}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %s", p.Name, err, resultText(res))
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolRecall, Arguments: map[string]any{"query": "deploy tomorrow " + secret.Patterns[len(secret.Patterns)-3].Example}})
	if err != nil || res.IsError {
		t.Fatalf("recall: %v %s", err, resultText(res))
	}
	structured, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(resultText(res)+string(structured), "[secret:") {
		t.Error("memory_recall shows no placeholder")
	}
	ss.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	wal, _ := os.ReadFile(path + "-wal")
	raw = append(raw, wal...)
	if !bytes.Contains(raw, []byte("[secret:")) {
		t.Fatal("the database holds no placeholder: the captures were not stored")
	}
	for _, v := range values {
		if bytes.Contains(raw, []byte(v)) {
			t.Errorf("the database file or WAL holds the secret value %q", v)
		}
	}
}
