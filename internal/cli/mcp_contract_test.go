package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPContractGoldens records what an MCP client reads from memtrace:
// the tool list with every input and output schema, and memory_recall's
// result with each detail (DESIGN.md, "Machine-readable contracts": MCP
// tool schemas are extended, never renamed). Each call runs in its own
// session so the trace ids do not depend on the order calls finish in.
func TestMCPContractGoldens(t *testing.T) {
	db := filepath.Join(t.TempDir(), "mcp-contracts.db")
	for _, args := range [][]string{{"ingest", "-", "--json"}, {"clock", contractClock},
		{"ingest", filepath.Join(contractDir, "fixture_conversation.jsonl"), "--json"}} {
		if _, stderr, code := runCLI(t, append([]string{"--db", db}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"contracts","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	var all bytes.Buffer
	for _, call := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_recall","arguments":{"query":"땅콩 들어간 음식 추천해도 돼?","read_only":true}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_recall","arguments":{"query":"땅콩 들어간 음식 추천해도 돼?","read_only":true,"detail":"ids"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_recall","arguments":{"query":"where do I live now?","read_only":true,"detail":"full"}}}`,
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"--db", db, "mcp"}, strings.NewReader(initialize+call+"\n"), &out, &errb); code != 0 {
			t.Fatalf("mcp: exit %d: %s", code, errb.String())
		}
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("not JSON: %q", line)
			}
			if string(m.ID) == "0" {
				continue // initialize: the version differs between builds
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, []byte(line), "", "  "); err != nil {
				t.Fatal(err)
			}
			all.Write(pretty.Bytes())
			all.WriteByte('\n')
		}
	}
	checkContractGolden(t, "mcp_session.json", []string{"mcp"}, all.Bytes())
}
