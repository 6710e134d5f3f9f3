package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/safetext"
)

// loadDemo captures the demo conversation into e.
func loadDemo(t *testing.T, e *engine.Engine) {
	t.Helper()
	f, err := os.Open("../testdata/demo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()
	if _, err := capture.ReadMessages(f, func(_ int, m engine.Message) error {
		_, err := capture.Capture(ctx, e, m)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// structuredOnly is what a client that forwards only structuredContent
// hands its model (Claude Code, VS Code: JSON.stringify(structuredContent)),
// decoded back as the model would read it.
func structuredOnly(t *testing.T, res *mcp.CallToolResult) (string, RecallOut) {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var out RecallOut
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return string(raw), out
}

// TestRecallTextsReachStructuredOnlyClients: the default memory_recall
// result carries every survivor's text in structuredContent, once, and the
// text content repeats none of it; the whole result stays near the block's
// size; "ids" and "full" keep what they gave before.
func TestRecallTextsReachStructuredOnlyClients(t *testing.T) {
	cs, e := connect(t, time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC))
	loadDemo(t, e)
	ctx := context.Background()
	var prompts, results int
	for _, q := range []string{"what database does memtrace use and why?", "유당불내증 음식 추천", "what am I allergic to?"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolRecall, Arguments: map[string]any{"query": q, "read_only": true}})
		if err != nil || res.IsError {
			t.Fatalf("%q: %v %s", q, err, resultText(res))
		}
		raw, out := structuredOnly(t, res)
		if len(out.Survivors) == 0 {
			t.Fatalf("%q recalled nothing: the test would say nothing", q)
		}
		// The same recall with detail full names the texts the block holds.
		full, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolRecall, Arguments: map[string]any{"query": q, "read_only": true, "detail": "full"}})
		if err != nil || full.IsError {
			t.Fatalf("%q full: %v", q, err)
		}
		_, fo := structuredOnly(t, full)
		if fo.Prompt == "" || fo.Prompt != resultText(full) || len(fo.Survivors) != len(out.Survivors) {
			t.Fatalf("%q detail full: prompt %q, %d survivors (default %d)", q, fo.Prompt, len(fo.Survivors), len(out.Survivors))
		}
		summary := resultText(res)
		for i, sv := range out.Survivors {
			m, ok := e.Memory(sv.ID)
			if !ok {
				t.Fatalf("%q: survivor %d is no memory", q, sv.ID)
			}
			want := engine.SanitizeText(m.Content)
			if sv.Text != want || !strings.Contains(fo.Prompt, "] "+want) {
				t.Errorf("%q: survivor %d text %q, want %q as in the block", q, sv.ID, sv.Text, want)
			}
			if sv.Date != m.CreatedAt.UTC().Format("2006-01-02") || fo.Survivors[i].ID != sv.ID {
				t.Errorf("%q: survivor %d date %q, full order %d", q, sv.ID, sv.Date, fo.Survivors[i].ID)
			}
			if strings.Count(raw, sv.Text) != 1 || strings.Contains(summary, sv.Text) {
				t.Errorf("%q: text of %d appears %d times in structuredContent, in summary %v", q, sv.ID, strings.Count(raw, sv.Text), strings.Contains(summary, sv.Text))
			}
		}
		if strings.Contains(raw, `"prompt":`) {
			t.Errorf("%q: the default structured result repeats the block: %s", q, raw)
		}
		// What a client can forward: structuredContent or the text content.
		// (The SDK's envelope, _meta serverInfo and resultType, reaches no
		// model.)
		whole, _ := json.Marshal(res)
		forwarded := utf8.RuneCountInString(raw) + utf8.RuneCountInString(summary)
		prompts += out.PromptChars
		results += forwarded
		// A result of a few short memories (a message split into its
		// statements) carries the fields every result has (trace_id, at,
		// prompt_chars, guaranteed, read_only: about 110 characters) and
		// each one's id and date over fewer characters: 1.35× per query;
		// over the set the whole result (with the text content) is ≤ 1.3×.
		if r := float64(utf8.RuneCountInString(raw)) / float64(out.PromptChars); r > 1.35 {
			t.Errorf("%q: structuredContent is %.2f× the block, want ≤ 1.35×", q, r)
		}
		t.Logf("%q: block %d chars; structuredContent %d (%.2f×), whole result %d (%.2f×)", q, out.PromptChars,
			utf8.RuneCountInString(raw), float64(utf8.RuneCountInString(raw))/float64(out.PromptChars),
			utf8.RuneCount(whole), float64(utf8.RuneCount(whole))/float64(out.PromptChars))
		// detail ids: the block as the text content, no texts in the structure.
		ids, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolRecall, Arguments: map[string]any{"query": q, "read_only": true, "detail": "ids"}})
		if err != nil || ids.IsError {
			t.Fatal(err)
		}
		iraw, io := structuredOnly(t, ids)
		if resultText(ids) != fo.Prompt || io.Survivors[0].Key == "" || strings.Contains(iraw, `"text":`) {
			t.Errorf("%q detail ids: content %q, structured %s", q, resultText(ids), iraw)
		}
	}
	r := float64(results) / float64(prompts)
	t.Logf("structuredContent and text content together: %.2f× the blocks", r)
	if r > 1.3 {
		t.Errorf("the default results are %.2f× their blocks, want ≤ 1.3× (issue #30)", r)
	}
}

// TestRecallTextsAreTerminalSafe: a memory holding escape sequences and
// bidi controls reaches the structured result neutralised.
func TestRecallTextsAreTerminalSafe(t *testing.T) {
	cs, e := connect(t, time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC))
	ctx := context.Background()
	hostile := "My staging database port is 5433 \x1b[2J\x1b]52;c;cHduZWQ=\a and the \u202eadmin\u202c password rotates monthly."
	if _, err := capture.Capture(ctx, e, engine.Message{Role: "user", Text: hostile, At: e.Now()}); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolRecall, Arguments: map[string]any{"query": "staging database port"}})
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, resultText(res))
	}
	_, out := structuredOnly(t, res)
	if len(out.Survivors) == 0 {
		t.Fatal("the hostile memory was not recalled: the test would say nothing")
	}
	for _, sv := range out.Survivors {
		if !safetext.Clean(sv.Text) || !strings.Contains(sv.Text, "5433") {
			t.Errorf("survivor %d text not neutralised: %q", sv.ID, sv.Text)
		}
	}
}

// TestRecallDetailOption: a server started for a client that forwards only
// the text content defaults to detail ids.
func TestRecallDetailOption(t *testing.T) {
	_, e := connect(t, time.Now())
	s := serverOf(t, e, Options{RecallDetail: DetailIDs})
	if s.detail != DetailIDs {
		t.Fatalf("detail %q", s.detail)
	}
	if _, err := ParseRecallDetail("everything"); err == nil || !strings.Contains(err.Error(), "texts, ids, full") {
		t.Fatalf("ParseRecallDetail(everything): %v", err)
	}
}
