package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
	"memtrace/mcpserver"
)

// The acceptance path of a knowledge update: memory_capture of an update
// through the real MCP server says what it superseded; recall drops the
// old fact; `rollback` of the capture's batch restores it as current (the
// link gone, the audit showing both the link and its undoing); the curator
// command links and unlinks by hand.
func TestMCPCaptureUpdateThenRollback(t *testing.T) {
	bin := buildMemtrace(t)
	db := filepath.Join(t.TempDir(), "agent.db")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "memtrace-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--db", db)}, nil)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	var old, upd mcpserver.CaptureOut
	callTool(t, ctx, cs, "memory_capture", map[string]any{"text": "내 핸드폰은 갤럭시 S21이야, 산 지 3년 됐고 배터리가 약해.", "at": "2026-01-10T09:00:00Z"}, &old)
	callTool(t, ctx, cs, "memory_capture", map[string]any{"text": "아이폰 15로 바꿨어, 카메라가 훨씬 좋고 배터리도 오래가.", "at": "2026-04-03T09:00:00Z"}, &upd)
	if old.Outcome != engine.OutcomeStored || upd.Outcome != engine.OutcomeStored {
		t.Fatalf("captures: %+v / %+v", old, upd)
	}
	if len(upd.Supersedes) != 1 || upd.Supersedes[0].ID != old.MemoryID || upd.Supersedes[0].Subject != "phone" || upd.Supersedes[0].Marker != "바꿨어" {
		t.Fatalf("memory_capture does not say what it superseded: %+v (trail %+v)", upd.Supersedes, upd.Trail)
	}
	rc := recallTool(t, ctx, cs, map[string]any{"query": "내 핸드폰 갤럭시 아이폰", "read_only": true})
	if survivorIDs(rc)[old.MemoryID] || !survivorIDs(rc)[upd.MemoryID] {
		t.Fatalf("recall after the update: %+v", rc.Survivors)
	}
	cs.Close()

	// show --json carries the link from both sides.
	var shown struct {
		Memory struct {
			SupersededBy int64     `json:"superseded_by"`
			ValidTo      time.Time `json:"valid_to"`
		} `json:"memory"`
		Audit []*engine.AuditEntry `json:"audit"`
	}
	showJSON := func(id int64) string {
		out, errOut, code := runCLI(t, "show", strconv.FormatInt(id, 10), "--db", db, "--json")
		if code != 0 {
			t.Fatalf("show %d: %s", id, errOut)
		}
		return out
	}
	if err := json.Unmarshal([]byte(showJSON(old.MemoryID)), &shown); err != nil {
		t.Fatal(err)
	}
	if shown.Memory.SupersededBy != upd.MemoryID || shown.Memory.ValidTo.Format("2006-01-02") != "2026-04-03" {
		t.Fatalf("show old: %+v", shown.Memory)
	}
	if out := showJSON(upd.MemoryID); !strings.Contains(out, `"supersedes": [`+"\n") && !strings.Contains(out, `"supersedes":[`) && !strings.Contains(out, `"supersedes": [`) {
		t.Fatalf("show new lacks supersedes:\n%s", out)
	}
	var batch string
	for _, a := range shown.Audit {
		if a.Action == "supersede" {
			batch = a.Batch
		}
	}
	if !strings.HasPrefix(batch, engine.BatchCapture) {
		t.Fatalf("the link is not audited in a capture batch: %+v", shown.Audit)
	}

	out, errOut, code := runCLI(t, "rollback", batch, "--db", db, "--yes")
	if code != 0 || !strings.Contains(out, "current again") {
		t.Fatalf("rollback %s: exit %d\n%s%s", batch, code, out, errOut)
	}
	// An unlinked memory has no superseded_by or valid_to key at all.
	shown.Memory.SupersededBy, shown.Memory.ValidTo, shown.Audit = 0, time.Time{}, nil
	if err := json.Unmarshal([]byte(showJSON(old.MemoryID)), &shown); err != nil {
		t.Fatal(err)
	}
	actions := map[string]int{}
	for _, a := range shown.Audit {
		actions[a.Action]++
	}
	if shown.Memory.SupersededBy != 0 || !shown.Memory.ValidTo.IsZero() || actions["supersede"] != 1 || actions["rollback"] != 1 {
		t.Fatalf("after rollback: %+v, audit actions %v", shown.Memory, actions)
	}
	out, _, _ = runCLI(t, "recall", "내 핸드폰 갤럭시 아이폰", "--db", db, "--at", "2026-05-01T00:00:00Z", "--json")
	if !strings.Contains(out, "갤럭시 S21") || strings.Contains(out, `"drop_kind": "superseded"`) {
		t.Fatalf("after rollback the old fact is not current:\n%s", out)
	}

	// By hand: link, then unlink, each its own curator batch.
	ids := []string{strconv.FormatInt(old.MemoryID, 10), strconv.FormatInt(upd.MemoryID, 10)}
	if out, errOut, code := runCLI(t, "supersede", ids[0], ids[1], "--db", db, "--valid-to", "2026-04-01"); code != 0 || !strings.Contains(out, "superseded by #"+ids[1]) {
		t.Fatalf("supersede: %d %s%s", code, out, errOut)
	}
	if _, errOut, code := runCLI(t, "supersede", ids[0], ids[1], "--db", db); code == 0 || !strings.Contains(errOut, "--unlink") {
		t.Fatalf("second link: exit %d %s", code, errOut)
	}
	if out, errOut, code := runCLI(t, "supersede", ids[0], "--unlink", "--db", db); code != 0 || !strings.Contains(out, "current again") {
		t.Fatalf("unlink: %d %s%s", code, out, errOut)
	}
}

// `memtrace help updates` documents the rule in both languages, its guards
// and the recall side.
func TestHelpUpdatesDocumentsTheRule(t *testing.T) {
	out, _, code := runCLI(t, "help", "updates")
	for _, want := range []string{"switched to", "바꿨어", "did you switch to Rust?", "same subject", "drop_kind superseded", "[until 2026-04-03]", "--include-superseded", "--unlink"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("help updates (exit %d) lacks %q", code, want)
		}
	}
}

// supersede names memories the way show and erase do: an id or key:K (a
// memory made from a message has the message's id as its key).
func TestSupersedeTakesKeys(t *testing.T) {
	dir := t.TempDir()
	db, msgs := filepath.Join(dir, "k.db"), filepath.Join(dir, "m.jsonl")
	lines := `{"id":"fav-1","session":"s1","role":"user","text":"My favourite editor is Vim, I have used it for ten years.","at":"2026-01-05T09:00:00Z"}
{"id":"fav-2","session":"s2","role":"user","text":"요즘은 Helix 에디터를 제일 좋아해, 설정이 거의 필요 없어서 편해.","at":"2026-03-05T09:00:00Z"}
`
	if err := os.WriteFile(msgs, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "--db", db, "ingest", msgs); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	out, errOut, code := runCLI(t, "--db", db, "supersede", "key:fav-1", "key:fav-2", "--json")
	var res supersedeOutput
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Memory.Key != "fav-1" || res.Memory.SupersededBy == 0 || !res.Linked {
		t.Fatalf("supersede key:fav-1 key:fav-2: exit %d %s%s", code, out, errOut)
	}
	// list names it as the TUI does, and --status superseded finds it.
	if out, errOut, code := runCLI(t, "--db", db, "list", "--status", "superseded"); code != 0 || !strings.Contains(out, "fav-1  superseded") || strings.Contains(out, "fav-2") {
		t.Fatalf("list --status superseded: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := runCLI(t, "--db", db, "supersede", "key:nothing", "key:fav-2"); code == 0 || !strings.Contains(errOut, "no memory key:nothing") {
		t.Fatalf("an unknown key: exit %d %s", code, errOut)
	}
	if _, errOut, code := runCLI(t, "--db", db, "supersede", "fav-1", "--unlink"); code != 2 || !strings.Contains(errOut, "key:K") {
		t.Fatalf("a bare key: exit %d %s; want a usage error naming key:K", code, errOut)
	}
	if out, errOut, code := runCLI(t, "--db", db, "supersede", "key:fav-1", "--unlink"); code != 0 || !strings.Contains(out, "current again") {
		t.Fatalf("unlink by key: exit %d %s%s", code, out, errOut)
	}
}
