package cli

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/mcpserver"
	"memtrace/store"
)

// buildMemtrace compiles the command into a temporary directory.
func buildMemtrace(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "memtrace")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// callTool calls a tool and decodes its structured result into out; it
// fails the test on a protocol error or a tool error.
func callTool(t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s returned a tool error: %s", name, toolText(res))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: decode %s: %v", name, raw, err)
	}
}

// recallTool calls memory_recall with the default detail and returns its
// structured result, as a client that forwards only structuredContent sees
// it, with Prompt set to the survivors' texts one per line (the default
// result carries each text once, in the structure, and the text content is
// a summary that repeats none of them).
func recallTool(t *testing.T, ctx context.Context, cs *mcp.ClientSession, args map[string]any) mcpserver.RecallOut {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_recall", Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("memory_recall: %v %s", err, toolText(res))
	}
	var out mcpserver.RecallOut
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("memory_recall returned %d content blocks, want the summary alone", len(res.Content))
	}
	if out.Prompt != "" {
		t.Fatalf("structured result repeats the block: %q", out.Prompt)
	}
	summary := toolText(res)
	var texts []string
	for _, s := range out.Survivors {
		if s.Text == "" || strings.Contains(summary, s.Text) {
			t.Fatalf("survivor %d: text %q, summary %q", s.ID, s.Text, summary)
		}
		texts = append(texts, s.Text)
	}
	out.Prompt = strings.Join(texts, "\n")
	return out
}

func toolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func survivorIDs(out mcpserver.RecallOut) map[int64]bool {
	ids := map[int64]bool{}
	for _, s := range out.Survivors {
		ids[s.ID] = true
	}
	return ids
}

// TestMCPServerSubprocess starts `memtrace mcp` as an agent would and
// speaks MCP to it over stdin/stdout with the SDK's client.
func TestMCPServerSubprocess(t *testing.T) {
	bin := buildMemtrace(t)
	dbPath := filepath.Join(t.TempDir(), "agent.db")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	client := mcp.NewClient(&mcp.Implementation{Name: "memtrace-test", Version: "1"}, nil)
	cmd := exec.Command(bin, "mcp", "--db", dbPath, "--keep-traces", "2")
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ServerInfo.Name; got != "memtrace" {
		t.Fatalf("server name %q", got)
	}
	if !strings.Contains(cs.InitializeResult().Instructions, "memory_recall") {
		t.Fatalf("instructions do not tell the model how to use the tools: %q", cs.InitializeResult().Instructions)
	}

	// tools/list: exactly the five tools, with their hints.
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tl := range lt.Tools {
		tools[tl.Name] = tl
	}
	if len(tools) != 5 {
		t.Fatalf("tools %v, want the five memory tools", tools)
	}
	for name, destructive := range map[string]bool{"memory_capture": false, "memory_recall": false, "memory_correct": false,
		"memory_reflect": false, "memory_forget": true} {
		tl := tools[name]
		if tl == nil {
			t.Fatalf("tool %s missing", name)
		}
		a := tl.Annotations
		if a == nil || a.DestructiveHint == nil || *a.DestructiveHint != destructive || a.ReadOnlyHint {
			t.Errorf("%s annotations %+v: want destructive=%v, not read-only", name, a, destructive)
		}
		if len(tl.Description) < 80 {
			t.Errorf("%s description too thin for an agent: %q", name, tl.Description)
		}
	}
	if !tools["memory_forget"].Annotations.IdempotentHint {
		t.Error("memory_forget should be idempotent")
	}

	// Capture a Korean and an English message.
	const ko = "우리 딸 서연이는 땅콩 알레르기가 있어서 땅콩이 들어간 음식은 절대 먹으면 안 돼요."
	const en = "Our staging database runs PostgreSQL 16 on port 5433, not the default 5432."
	var kc, ec mcpserver.CaptureOut
	callTool(t, ctx, cs, "memory_capture", map[string]any{"text": ko, "session": "s1", "project": "family"}, &kc)
	callTool(t, ctx, cs, "memory_capture", map[string]any{"text": en, "role": "user", "session": "s1", "at": "2026-03-01T09:30:00Z"}, &ec)
	for _, c := range []mcpserver.CaptureOut{kc, ec} {
		if c.Outcome != engine.OutcomeStored || c.MemoryID == 0 || len(c.Trail) == 0 {
			t.Fatalf("capture: %+v", c)
		}
	}
	// Noise is dropped and says why.
	var noise mcpserver.CaptureOut
	callTool(t, ctx, cs, "memory_capture", map[string]any{"text": "HEARTBEAT_OK"}, &noise)
	if noise.Outcome != engine.OutcomeDropped || noise.DroppedBy == "" || noise.Reason == "" {
		t.Fatalf("noise capture: %+v", noise)
	}

	// Recall both, in each language.
	rk := recallTool(t, ctx, cs, map[string]any{"query": "서연이 땅콩 알레르기", "project": "family"})
	if !strings.Contains(rk.Prompt, ko) || !survivorIDs(rk)[kc.MemoryID] || rk.TraceID == 0 {
		t.Fatalf("Korean recall: %+v", rk)
	}
	re := recallTool(t, ctx, cs, map[string]any{"query": "which port does the staging PostgreSQL database use?", "read_only": true})
	if !strings.Contains(re.Prompt, en) || !survivorIDs(re)[ec.MemoryID] || !re.ReadOnly {
		t.Fatalf("English recall: %+v", re)
	}

	// Correct.
	var cc mcpserver.CaptureOut
	callTool(t, ctx, cs, "memory_correct", map[string]any{
		"text":    "Don't use panic in HTTP handlers; always return the error through writeError.",
		"context": "the agent wrote panic(err) in the orders handler",
	}, &cc)
	if cc.Lesson == nil || cc.Lesson.Count != 1 || cc.Lesson.Status != engine.CorrectionPending {
		t.Fatalf("correction: %+v", cc)
	}

	// Reflect twice on one lesson, worded differently the second time, in
	// Korean and English; a reflection without its outcome is refused.
	var r1, r2 mcpserver.LessonOut
	callTool(t, ctx, cs, "memory_reflect", map[string]any{
		"intended": "배포 전에 마이그레이션을 확인하려고 했다",
		"actual":   "migration skipped; staging broke",
		"lesson":   "run migrations before deploy",
		"session":  "s2", "project": "family",
	}, &r1)
	if !strings.HasPrefix(r1.Key, capture.ReflectionPrefix) || r1.Count != 1 || r1.Status != engine.CorrectionPending ||
		r1.Lesson != "run migrations before deploy" {
		t.Fatalf("reflection: %+v", r1)
	}
	callTool(t, ctx, cs, "memory_reflect", map[string]any{
		"intended": "ship the release", "actual": "deploy failed again", "lesson": "before deploy, run migrations",
	}, &r2)
	if r2.Key != r1.Key || r2.Count != 2 {
		t.Fatalf("the reworded lesson did not count toward %s: %+v", r1.Key, r2)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_reflect", Arguments: map[string]any{"intended": "x"}})
	if err != nil || !res.IsError || !strings.Contains(toolText(res), "actual") {
		t.Fatalf("reflect without actual: %v %q", err, toolText(res))
	}

	// Forget the English memory by key.
	var fo mcpserver.ForgetOut
	callTool(t, ctx, cs, "memory_forget", map[string]any{"id": ec.MemoryID, "reason": "the staging database moved"}, &fo)
	if !fo.Changed || fo.ID != ec.MemoryID || fo.Status != "quarantined" || fo.Batch == "" {
		t.Fatalf("forget: %+v", fo)
	}
	var again mcpserver.ForgetOut
	callTool(t, ctx, cs, "memory_forget", map[string]any{"id": ec.MemoryID, "reason": "twice"}, &again)
	if again.Changed {
		t.Fatalf("forgetting twice changed something: %+v", again)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_forget", Arguments: map[string]any{"reason": "no target"}})
	if err != nil || !res.IsError || !strings.Contains(toolText(res), "id or by key") {
		t.Fatalf("forget without a target: %v %+v", err, res)
	}

	// It is no longer recalled.
	after := recallTool(t, ctx, cs, map[string]any{"query": "which port does the staging PostgreSQL database use?"})
	if survivorIDs(after)[ec.MemoryID] || strings.Contains(after.Prompt, en) {
		t.Fatalf("forgotten memory recalled: %+v", after)
	}

	// The database, read by another process while the server runs.
	db, err := store.Open(ctx, dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m, err := db.GetMemory(ctx, ec.MemoryID)
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != engine.StatusQuarantined || m.Content != en || m.OrigType == "" {
		t.Fatalf("forgotten memory in the DB: %+v", m)
	}
	audit, err := db.AuditForMemory(ctx, ec.MemoryID)
	if err != nil {
		t.Fatal(err)
	}
	var quarantined *engine.AuditEntry
	for _, a := range audit {
		if a.Action == mcpserver.ActionQuarantine {
			quarantined = a
		}
	}
	if quarantined == nil || quarantined.Actor != "mcp" || quarantined.Batch != fo.Batch ||
		quarantined.Before.Status != engine.StatusActive || quarantined.After.Status != engine.StatusQuarantined {
		t.Fatalf("audit rows %+v", audit)
	}
	ps, err := db.FindProposals(ctx, engine.ProposalFilter{MemoryID: ec.MemoryID})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].Reason != "the staging database moved" || ps[0].Status != engine.ProposalApplied {
		t.Fatalf("forget reason not recorded: %+v", ps)
	}
	k, err := db.GetMemory(ctx, kc.MemoryID)
	if err != nil || k.Status != engine.StatusActive || k.Scope != "project:family" {
		t.Fatalf("Korean memory: %+v %v", k, err)
	}
	cs2, err := db.GetCorrection(ctx, cc.Lesson.Key)
	if err != nil || cs2.Context != "the agent wrote panic(err) in the orders handler" || cs2.Count != 1 {
		t.Fatalf("correction in the DB: %+v %v", cs2, err)
	}
	// The reflection is a correction row under its "reflection:" key.
	rc, err := db.GetCorrection(ctx, r1.Key)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rc.LessonKey, "reflection:") || rc.Count != 2 || len(rc.Occurrences) != 2 ||
		rc.Occurrences[0].Session != "s2" || rc.Scope != "project:family" || rc.Lesson != "run migrations before deploy" ||
		!strings.Contains(rc.Occurrences[0].Text, "intended: 배포 전에 마이그레이션을 확인하려고 했다") ||
		rc.Status != engine.CorrectionPending {
		t.Fatalf("reflection in the DB: %+v", rc)
	}
	// Traces: source mcp, bounded by --keep-traces 2 (three recalls made).
	trs, err := db.FindTraces(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(trs) != 2 {
		t.Fatalf("%d stored traces, want the newest 2", len(trs))
	}
	byID := map[int64]*engine.StoredTrace{}
	for _, st := range trs {
		byID[st.ID] = st
	}
	st := byID[after.TraceID]
	if st == nil || st.Source != "mcp" || st.Query != "which port does the staging PostgreSQL database use?" {
		t.Fatalf("stored trace %d: %+v", after.TraceID, st)
	}
	var tr engine.Trace
	if err := json.Unmarshal(st.Trace, &tr); err != nil || len(tr.Stages) != len(engine.StageNames) {
		t.Fatalf("stored trace is not a full trace: %v", err)
	}
	if byID[rk.TraceID] != nil {
		t.Fatalf("oldest trace %d should have been dropped", rk.TraceID)
	}
	// The live Korean recall counted as a use; the read-only one did not.
	if k.AccessCount < 1 {
		t.Fatalf("live recall did not commit access: %+v", k)
	}
	if m.AccessCount != 0 {
		t.Fatalf("read-only recall committed access: %+v", m)
	}
}
