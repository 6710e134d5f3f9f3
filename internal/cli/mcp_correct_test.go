package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
	"memtrace/mcpserver"
)

// TestMCPCorrectionsCountAndPromote: the three wordings of one lesson,
// sent through memory_correct by an agent in three sessions, are one
// lesson at 3/3, and the heartbeat proposes it for promotion once; a short
// correction is recorded, not dropped.
func TestMCPCorrectionsCountAndPromote(t *testing.T) {
	bin := buildMemtrace(t)
	dbPath := filepath.Join(t.TempDir(), "corrections.db")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "corrections-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--db", dbPath)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for i, text := range []string{"Don't call me Mr. Kim, just call me Jun.", "Stop calling me Mr. Kim, call me Jun.", "Please call me Jun, not Mr. Kim."} {
		var out mcpserver.CaptureOut
		callTool(t, ctx, cs, "memory_correct", map[string]any{"text": text, "session": fmt.Sprintf("session-%d", i+1)}, &out)
		if out.Lesson == nil || out.Lesson.Count != i+1 {
			t.Fatalf("memory_correct %q: lesson %+v, want count %d", text, out.Lesson, i+1)
		}
		keys = append(keys, out.Lesson.Key)
		if i == 2 && (out.Lesson.Status != engine.CorrectionCandidate || out.Lesson.Lesson != "Please call me Jun, not Mr. Kim") {
			t.Fatalf("third wording: %+v, want a candidate worded as it was last said", out.Lesson)
		}
	}
	if keys[0] != keys[1] || keys[1] != keys[2] {
		t.Fatalf("lesson keys %q: one lesson split in three", keys)
	}
	var tabs mcpserver.CaptureOut
	callTool(t, ctx, cs, "memory_correct", map[string]any{"text": "Don't use tabs.", "session": "session-4"}, &tabs)
	if tabs.Lesson == nil || tabs.Lesson.Key != "concept:spaces" || tabs.Lesson.Count != 1 {
		t.Fatalf("Don't use tabs.: %+v", tabs)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_correct", Arguments: map[string]any{"text": "Just this once, skip the linter."}})
	if err != nil || !res.IsError || !strings.Contains(toolText(res), "one-off") {
		t.Fatalf("a one-off instruction: %v %s, want a tool error saying it is one-off", err, toolText(res))
	}
	cs.Close()

	out, err := exec.Command(bin, "--db", dbPath, "heartbeat", "--json").Output()
	if err != nil {
		t.Fatalf("heartbeat: %v", err)
	}
	var hb struct {
		Proposals []struct {
			Kind   string `json:"kind"`
			Reason string `json:"reason"`
			Lesson string `json:"lesson_key"`
		} `json:"proposals"`
	}
	if err := json.Unmarshal(out, &hb); err != nil {
		t.Fatalf("heartbeat --json: %v\n%s", err, out)
	}
	promotes := 0
	for _, p := range hb.Proposals {
		if p.Kind == engine.ProposalPromote {
			promotes++
			if !strings.Contains(string(out), keys[0]) {
				t.Errorf("promotion proposal does not name lesson %s: %s", keys[0], out)
			}
		}
	}
	if promotes != 1 {
		t.Fatalf("%d promotion proposals, want 1: %s", promotes, out)
	}
}
