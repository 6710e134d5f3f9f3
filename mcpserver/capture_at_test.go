package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
)

// memory_capture's at reads the one time grammar (engine/timegrammar.tsv)
// as the CLI's --at does: every input the table names a time for is
// accepted at that time, from the engine's clock (or refused as in the
// future, past the allowed skew), and every input it refuses is refused
// with the table's message.
func TestCaptureAtReadsTheTimeGrammar(t *testing.T) {
	examples, err := engine.TimeExamples()
	if err != nil {
		t.Fatal(err)
	}
	now := engine.TimeExamplesNow
	skew, _ := time.ParseDuration(MaxFutureSkew)
	ctx := context.Background()
	stored := 0
	for _, c := range examples {
		cs, e := connect(t, now)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolCapture, Arguments: map[string]any{
			"text": "My sister's name is Jiwoo.", "at": c.Input}})
		if err != nil {
			t.Fatalf("at %q: protocol error %v", c.Input, err)
		}
		switch {
		case c.Error != "":
			if !res.IsError || !strings.Contains(resultText(res), c.Error) {
				t.Errorf("at %q: isError=%v %q, want the grammar's message %q", c.Input, res.IsError, resultText(res), c.Error)
			}
		case c.Want.After(now.Add(skew)):
			if !res.IsError || !strings.Contains(resultText(res), "is in the future") {
				t.Errorf("at %q (%v): isError=%v %q, want it refused as in the future", c.Input, c.Want, res.IsError, resultText(res))
			}
		default:
			var out CaptureOut
			if res.IsError {
				t.Errorf("at %q: refused: %s", c.Input, resultText(res))
				continue
			}
			b, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(b, &out); err != nil || out.Outcome != "stored" {
				t.Fatalf("at %q: outcome %q (%v), want stored: %s", c.Input, out.Outcome, err, b)
			}
			m, ok := e.Memory(out.MemoryID)
			if !ok || !m.CreatedAt.Equal(c.Want) {
				t.Errorf("at %q: memory %d created at %v (found %v), want %v", c.Input, out.MemoryID, m.CreatedAt, ok, c.Want)
			}
			stored++
		}
	}
	if stored < 5 {
		t.Errorf("only %d of the table's times were stored; the table lost the past and near times this test needs", stored)
	}
}
