package mcpserver

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
	"memtrace/store"
)

// connectOpening connects a client to a server whose engine is opened by
// open in the background (NewOpening).
func connectOpening(t *testing.T, open func() (*engine.Engine, error)) (*mcp.ClientSession, *Server) {
	t.Helper()
	ctx := context.Background()
	s := NewOpening(open, Options{})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatalf("initialize while the engine opens: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, s
}

// TestOpeningServerAnswersBeforeTheEngine: initialize and tools/list are
// answered while the engine is still opening (a large database loading its
// indexes); a recall sent then waits for the engine and answers from it.
func TestOpeningServerAnswersBeforeTheEngine(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "mcp.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	release := make(chan struct{})
	cs, s := connectOpening(t, func() (*engine.Engine, error) {
		<-release
		e, err := engine.Open(ctx, engine.Options{Store: db, Now: func() time.Time { return at }})
		if err == nil {
			loadDemo(t, e)
		}
		return e, err
	})
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 5 {
		t.Fatalf("tools/list while the engine opens: %v, %d tools", err, len(tools.Tools))
	}
	select {
	case <-s.ready:
		t.Fatal("the engine opened before it was released: the test proves nothing")
	default:
	}
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolRecall, Arguments: map[string]any{"query": "what is my blood type"}})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case res := <-done:
		t.Fatalf("a recall answered before the engine was open: %s", resultText(res))
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	res := <-done
	if res == nil || res.IsError {
		t.Fatalf("recall after the open: %+v", res)
	}
	_, out := structuredOnly(t, res)
	if len(out.Survivors) == 0 || !strings.Contains(out.Survivors[0].Text, "blood type") {
		t.Fatalf("recall after the open found %+v", out.Survivors)
	}
	if err := s.Opened(); err != nil {
		t.Fatal(err)
	}
}

// TestOpeningServerSaysWhyTheEngineFailed: a database that cannot be
// opened answers every tool call with the reason, and Opened returns it.
func TestOpeningServerSaysWhyTheEngineFailed(t *testing.T) {
	why := engine.Errorf(engine.EINVALID, "x.db is not a memtrace database (not a SQLite file)")
	cs, s := connectOpening(t, func() (*engine.Engine, error) { return nil, why })
	for _, call := range []*mcp.CallToolParams{
		{Name: ToolRecall, Arguments: map[string]any{"query": "anything"}},
		{Name: ToolCapture, Arguments: map[string]any{"text": "My blood type is A positive."}},
	} {
		res, err := cs.CallTool(context.Background(), call)
		if err != nil || !res.IsError || !strings.Contains(resultText(res), "not a memtrace database") {
			t.Errorf("%s with the engine unopened: %v %+v", call.Name, err, res)
		}
	}
	if err := s.Opened(); !errors.Is(err, why) {
		t.Fatalf("Opened = %v, want %v", err, why)
	}
}
