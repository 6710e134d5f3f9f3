package importer

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
)

func readFixture(t *testing.T) []engine.Message {
	t.Helper()
	f, err := os.Open("../testdata/claude-code/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ms []engine.Message
	bad, err := ReadClaudeCode(f, func(line int, m engine.Message) error {
		ms = append(ms, m)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 0 {
		t.Fatalf("fixture has malformed lines: %+v", bad)
	}
	return ms
}

func TestReadClaudeCodeFixture(t *testing.T) {
	ms := readFixture(t)
	byID := map[string]engine.Message{}
	roles := map[string]int{}
	for _, m := range ms {
		if _, dup := byID[m.ID]; dup {
			t.Fatalf("duplicate message id %q", m.ID)
		}
		byID[m.ID] = m
		roles[m.Role]++
		if m.Session != "7f3c2a9e-5b1d-4c8e-9a6f-2d4b8e1c3f05" {
			t.Errorf("%s: session %q", m.ID, m.Session)
		}
		if m.Project != "shopapi" {
			t.Errorf("%s: project %q, want the base name of cwd", m.ID, m.Project)
		}
		if m.At.IsZero() || m.At.Location() != time.UTC {
			t.Errorf("%s: at %v", m.ID, m.At)
		}
		if strings.Contains(m.Text, "Caveat: The messages below") {
			t.Errorf("meta line %s was imported", m.ID)
		}
		if strings.Contains(m.Text, "Look at the handler and the repository first") {
			t.Errorf("thinking block leaked into %s", m.ID)
		}
		if strings.Contains(m.Text, "Order API pagination") || strings.Contains(m.Text, "Conversation compacted") {
			t.Errorf("summary/system line imported as %s", m.ID)
		}
	}
	if roles["user"] < 8 || roles["assistant"] < 8 || roles[RoleTool] < 15 {
		t.Fatalf("roles %v: want user, assistant and tool messages", roles)
	}

	// A user string message: id is the line's uuid, text verbatim.
	correction := byID["3b6e0000-0000-4000-8000-0000000c000c"]
	if correction.Role != "user" || !strings.HasPrefix(correction.Text, "Good. And in this codebase never use panic in HTTP handlers") {
		t.Fatalf("correction line: %+v", correction)
	}
	if want := time.Date(2025, 9, 18, 1, 13, 15, 211e6, time.UTC); !correction.At.Equal(want) {
		t.Fatalf("correction at %v, want %v", correction.At, want)
	}
	// A Korean preference survives intact.
	var ko bool
	for _, m := range ms {
		if m.Role == "user" && strings.HasPrefix(m.Text, "테스트는 항상 테이블 기반 테스트로") {
			ko = true
		}
	}
	if !ko {
		t.Fatal("Korean preference missing")
	}
	// An assistant line with a thinking block and a text block: the text
	// under the line's uuid.
	first := byID["3b6e0000-0000-4000-8000-000000040004"]
	if first.Role != "assistant" || first.Text != "I'll look at the orders handler and the repository layer first." {
		t.Fatalf("assistant text: %+v", first)
	}
	// tool_use and tool_result blocks: role tool, id uuid#index.
	use := byID["3b6e0000-0000-4000-8000-000000050005#0"]
	if use.Role != RoleTool || !strings.HasPrefix(use.Text, `tool_use Read {"file_path":"/home/jiwoo/src/shopapi/internal/orders/handler.go"}`) {
		t.Fatalf("tool_use: %+v", use)
	}
	res := byID["3b6e0000-0000-4000-8000-000000080008#0"]
	if res.Role != RoleTool || !strings.HasPrefix(res.Text, "tool error: ls: cannot access") {
		t.Fatalf("tool_result error: %+v", res)
	}
	// Slash-command markup is tool noise, not user text.
	cmd := byID["3b6e0000-0000-4000-8000-000000010001"]
	if cmd.Role != RoleTool {
		t.Fatalf("command markup role %q", cmd.Role)
	}
}

func TestReadClaudeCodeLineErrors(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"user","uuid":"u1","sessionId":"s","timestamp":"2025-01-02T03:04:05Z","cwd":"C:\\Users\\min\\proj","message":{"role":"user","content":"첫 번째 메시지입니다"}}`,
		`{not json`,
		`{"type":"user","uuid":"u2","sessionId":"s","timestamp":"yesterday","message":{"role":"user","content":"x"}}`,
		`{"uuid":"u3"}`,
		``,
		`{"type":"assistant","uuid":"u4","sessionId":"s","timestamp":"2025-01-02T03:04:06Z","message":{"role":"assistant","content":[{"type":"text","text":"one"},{"type":"tool_result","content":[{"type":"text","text":"out"},{"type":"image","source":{}}]},{"type":"text","text":"two"}]}}`,
	}, "\n")
	var ms []engine.Message
	var lines []int
	bad, err := ReadClaudeCode(strings.NewReader(in), func(line int, m engine.Message) error {
		ms = append(ms, m)
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 3 || bad[0].Line != 2 || bad[1].Line != 3 || bad[2].Line != 4 {
		t.Fatalf("line errors %+v, want lines 2, 3, 4", bad)
	}
	if len(ms) != 3 {
		t.Fatalf("messages %+v", ms)
	}
	if ms[0].Project != "proj" || ms[0].Text != "첫 번째 메시지입니다" || lines[0] != 1 {
		t.Fatalf("first %+v line %d", ms[0], lines[0])
	}
	if ms[1].ID != "u4" || ms[1].Text != "one\n\ntwo" || lines[1] != 6 {
		t.Fatalf("joined text blocks %+v", ms[1])
	}
	if ms[2].ID != "u4#1" || ms[2].Role != RoleTool || ms[2].Text != "out\n[image]" {
		t.Fatalf("tool result %+v", ms[2])
	}

	stop := errors.New("stop")
	_, err = ReadClaudeCode(strings.NewReader(in), func(int, engine.Message) error { return stop })
	if !errors.Is(err, stop) {
		t.Fatalf("callback error not returned: %v", err)
	}
}

func TestClipLongToolOutput(t *testing.T) {
	long := strings.Repeat("가", MaxToolText+10)
	got := clip(long)
	if !strings.HasPrefix(got, strings.Repeat("가", MaxToolText)+" [truncated: 10 characters") {
		t.Fatalf("clip: %q", got[len(got)-80:])
	}
	if clip("short") != "short" {
		t.Fatal("short text changed")
	}
}
