package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/store"
)

func runTiers(t *testing.T, db string, args ...string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"--db", db}, args...), strings.NewReader(""), &out, &errb)
	return out.String() + errb.String(), code
}

func TestTiersCommandsEndToEnd(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memtrace.db")
	db, err := store.Open(ctx, path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.Open(ctx, engine.Options{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().UTC().Add(-40 * 24 * time.Hour)
	for _, m := range []*engine.Memory{
		{Key: "pref", Content: "I prefer code first and the explanation after.", Tier: engine.TierHot, CreatedAt: old},
		{Key: "noise", Content: "HEARTBEAT_OK"},
	} {
		if err := eng.AddMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	out, code := runTiers(t, path, "heartbeat", "--json")
	var hb struct {
		Proposals []struct {
			Kind     string `json:"kind"`
			MemoryID int64  `json:"memory_id"`
			Reason   string `json:"reason"`
		} `json:"proposals"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &hb) != nil || len(hb.Proposals) != 1 || hb.Proposals[0].Kind != "demote" || hb.Proposals[0].MemoryID != 1 {
		t.Fatalf("heartbeat --json = %d %s", code, out)
	}
	if out, _ := runTiers(t, path, "heartbeat", "--json"); !strings.Contains(out, `"proposals": []`) {
		t.Fatalf("second heartbeat = %s", out)
	}
	out, code = runTiers(t, path, "cleanup", "--dry-run")
	if code != 0 || !strings.Contains(out, "heartbeat_ok") || !strings.Contains(out, "dry run") {
		t.Fatalf("cleanup --dry-run = %d %s", code, out)
	}
	if out, code = runTiers(t, path, "cleanup"); code != 0 || !strings.Contains(out, "wrote 1 quarantine proposals") {
		t.Fatalf("cleanup = %d %s", code, out)
	}
	if out, code = runTiers(t, path, "proposals"); code != 0 || !strings.Contains(out, "demote") || !strings.Contains(out, "quarantine") {
		t.Fatalf("proposals = %d %s", code, out)
	}
	out, code = runTiers(t, path, "approve", "--all-pending", "--json")
	var ap struct {
		Batch   string `json:"batch"`
		Applied int    `json:"applied"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &ap) != nil || ap.Applied != 2 || !strings.HasPrefix(ap.Batch, "approve-") {
		t.Fatalf("approve = %d %s", code, out)
	}
	if out, code = runTiers(t, path, "approve", "1"); code != 1 || !strings.Contains(out, "not pending") {
		t.Fatalf("approve applied again = %d %s", code, out)
	}
	if _, code = runTiers(t, path, "approve"); code != 2 {
		t.Fatalf("approve without ids exit = %d, want 2", code)
	}

	dir := filepath.Join(t.TempDir(), "md")
	if out, code = runTiers(t, path, "export", "md", dir); code != 0 || !strings.Contains(out, "HOT.md") {
		t.Fatalf("export = %d %s", code, out)
	}
	warm, err := os.ReadFile(filepath.Join(dir, "WARM.md"))
	if err != nil || !strings.Contains(string(warm), "I prefer code first") {
		t.Fatalf("WARM.md = %s, %v", warm, err)
	}
	if out, code = runTiers(t, path, "import", "md", dir); code != 0 || !strings.Contains(out, "0 updated, 0 inserted, 1 unchanged") {
		t.Fatalf("import md = %d %s", code, out)
	}
	if out, code = runTiers(t, path, "import", "md", dir, "--json"); code != 0 || !strings.Contains(out, `"unchanged": 1`) {
		t.Fatalf("import md DIR --json = %d %s", code, out)
	}
	if _, code = runTiers(t, path, "import", "md"); code != 2 {
		t.Fatalf("import md without a directory: exit %d, want 2", code)
	}
	if out, code = runTiers(t, path, "reflect", "--intended", "one pass", "--actual", "two passes", "--lesson", "read the test first"); code != 0 || !strings.Contains(out, "count 1/3") {
		t.Fatalf("reflect = %d %s", code, out)
	}
	// The generic rollback undoes an approval batch.
	if out, code = runTiers(t, path, "rollback", ap.Batch, "--yes"); code != 0 {
		t.Fatalf("rollback %s = %d %s", ap.Batch, code, out)
	}
	if out, _ = runTiers(t, path, "proposals", "--status", "rolled_back", "--json"); !strings.Contains(out, `"kind": "demote"`) {
		t.Fatalf("proposals after rollback = %s", out)
	}
	if out, _ = runTiers(t, path, "export", "md", dir); !strings.Contains(out, "HOT.md") {
		t.Fatalf("export after rollback = %s", out)
	}
	if hot, _ := os.ReadFile(filepath.Join(dir, "HOT.md")); !strings.Contains(string(hot), "I prefer code first") {
		t.Fatalf("HOT.md after rollback lacks the restored rule:\n%s", hot)
	}
}
