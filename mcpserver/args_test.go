package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
	"memtrace/store"
)

// connect serves a fresh database, on a clock pinned at now, to an
// in-process client.
func connect(t *testing.T, now time.Time) (*mcp.ClientSession, *engine.Engine) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "mcp.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e, err := engine.Open(ctx, engine.Options{Store: db, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := serverOf(t, e, Options{}).srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, e
}

func resultText(res *mcp.CallToolResult) string {
	s := ""
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			s += tc.Text
		}
	}
	return s
}

// TestToolArgumentErrorsNameTheField: every malformed argument is a tool
// error that names the field and says what to send.
func TestToolArgumentErrorsNameTheField(t *testing.T) {
	now := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	cs, _ := connect(t, now)
	ctx := context.Background()
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{ToolRecall, map[string]any{"query": "x", "k": "abc"}, `k must be an integer, got a string "abc"`},
		{ToolRecall, map[string]any{"query": "x", "k": 2.5}, "k must be a whole number"},
		{ToolRecall, map[string]any{"query": "x", "k": 0}, "k must be at least 1"},
		{ToolRecall, map[string]any{"query": "x", "budget": -5}, "budget must be at least 1"},
		{ToolRecall, map[string]any{"query": "x", "k": 1000}, "k must be at most 100"},
		{ToolRecall, map[string]any{"query": 5}, "query must be a string, got a number 5"},
		{ToolRecall, map[string]any{"query": "x", "read_only": "yes"}, "read_only must be true or false"},
		{ToolRecall, map[string]any{"query": "x", "detail": "everything"}, `detail "everything" is not accepted: use one of texts, ids, full`},
		{ToolRecall, map[string]any{"k": 3}, "query is required"},
		{ToolRecall, map[string]any{"query": "x", "limit": 3}, `unknown argument "limit"`},
		{ToolCapture, map[string]any{"text": "I live in Busan.", "role": "root"}, `role "root" is not accepted: use one of user, assistant`},
		{ToolCapture, map[string]any{"text": "I live in Busan.", "role": "system"}, `role "system" is not accepted`},
		{ToolCapture, map[string]any{"text": strings.Repeat("가", MaxTextChars+1)}, "text is 20001 characters long, at most 20000"},
		{ToolCapture, map[string]any{"text": "I live in Busan.", "at": "9999-12-31T00:00:00Z"}, "is in the future"},
		{ToolCapture, map[string]any{"text": "I live in Busan.", "at": "yesterday"}, `at: bad time "yesterday": use now, an offset such as +30d or -2h, a date (2026-06-01) or an RFC 3339 time`},
		{ToolForget, map[string]any{"id": -1, "reason": "x"}, "id must be at least 1"},
	}
	for _, c := range cases {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Errorf("%s %v: protocol error %v, want a tool error", c.tool, c.args, err)
			continue
		}
		if !res.IsError || !strings.Contains(resultText(res), c.want) {
			t.Errorf("%s %v: isError=%v %q, want %q", c.tool, c.args, res.IsError, resultText(res), c.want)
		}
	}
	// A day of clock skew is accepted.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolCapture, Arguments: map[string]any{
		"text": "We moved the standup to 10 o'clock on Mondays.", "at": now.Add(2 * time.Hour).Format(time.RFC3339)}})
	if err != nil || res.IsError {
		t.Fatalf("capture two hours ahead: %v %s", err, resultText(res))
	}
}

// TestToolSchemasPublishTheBounds: the bounds are in the schemas a client
// reads, not only in the server's checks.
func TestToolSchemasPublishTheBounds(t *testing.T) {
	cs, _ := connect(t, time.Now())
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]string{}
	for _, tl := range lt.Tools {
		b, _ := json.Marshal(tl.InputSchema)
		schemas[tl.Name] = string(b)
	}
	for tool, want := range map[string][]string{
		ToolRecall:  {`"minimum":1`, `"maximum":100`, `"enum":["texts","ids","full"]`},
		ToolCapture: {`"enum":["user","assistant"]`, `"maxLength":20000`, engine.TimeGrammar},
		ToolForget:  {`"minimum":1`},
	} {
		for _, w := range want {
			if !strings.Contains(schemas[tool], w) {
				t.Errorf("%s input schema lacks %s: %s", tool, w, schemas[tool])
			}
		}
	}
}

// TestOutputFieldsAreDescribed: every field of every tool's output schema
// says what it is, so an agent need not guess.
func TestOutputFieldsAreDescribed(t *testing.T) {
	cs, _ := connect(t, time.Now())
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	fields := 0
	var walk func(tool, path string, s map[string]any)
	walk = func(tool, path string, s map[string]any) {
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			fields++
			pm := p.(map[string]any)
			if d, _ := pm["description"].(string); d == "" {
				t.Errorf("%s: output field %s%s has no description", tool, path, name)
			}
			walk(tool, path+name+".", pm)
			if items, ok := pm["items"].(map[string]any); ok {
				walk(tool, path+name+"[].", items)
			}
		}
	}
	for _, tl := range lt.Tools {
		b, _ := json.Marshal(tl.OutputSchema)
		var s map[string]any
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		walk(tl.Name, "", s)
	}
	if fields < 30 {
		t.Fatalf("only %d output fields seen: the walk does not reach the schemas", fields)
	}
}
