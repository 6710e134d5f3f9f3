package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/mcpserver"
	"memtrace/store"
)

// Issue 32: a space restored from a backup moves its seq back; the next
// write takes a seq a running server has already applied, which a refresh
// from that seq would never ask for. The server notices (engine.Diverged on
// the notification) and rebuilds its caches: it recalls the write made
// after the restore within 1 s, and no longer recalls what the restore
// took away.
func TestRunningMCPServerPicksUpARestoreWithinASecond(t *testing.T) {
	dsn := storetest.PGDSN(t)
	bin := buildMemtrace(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	createDB(t, dsn)
	dir := t.TempDir()
	backup := filepath.Join(dir, "backup.db")
	if _, stderr, code := runCLI(t, "copy", "--from", dsn, "--to", backup); code != 0 {
		t.Fatalf("backup: %s", stderr)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	cmd := exec.Command(bin, "mcp", "--db", dsn)
	cmd.Env = append(os.Environ(), "MEMTRACE_DB=")
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	// Written after the backup: the restore takes these away.
	lost := []string{
		"The nightly report job moved to the analytics cluster in May.",
		"Our on-call rotation now changes every Monday at nine.",
	}
	var lostIDs []int64
	for _, text := range lost {
		var c mcpserver.CaptureOut
		callTool(t, ctx, cs, "memory_capture", map[string]any{"text": text, "session": "s1", "role": "user"}, &c)
		if c.Outcome != engine.OutcomeStored {
			t.Fatalf("capture: %+v", c)
		}
		lostIDs = append(lostIDs, c.MemoryID)
	}
	// The restore: the space dropped and copied back from the backup, its
	// seq counter with it.
	storetest.DropSpace(t, storetest.PGBase(t), spaceOf(t, dsn))
	if _, stderr, code := runCLI(t, "copy", "--from", backup, "--to", dsn); code != 0 {
		t.Fatalf("restore: %s", stderr)
	}
	// Another process writes after the restore: its seq is one the server
	// has applied already.
	text := "The garden app's staging database was restored on Tuesday and runs again."
	file := filepath.Join(dir, "after.jsonl")
	writeFile(t, file, `{"id":"after-restore","session":"s2","role":"user","text":"`+text+`","at":"2026-07-02T10:00:00Z"}`+"\n")
	if _, stderr, code := runCLI(t, "--db", dsn, "ingest", file); code != 0 {
		t.Fatalf("ingest after the restore: %s", stderr)
	}
	d := seenWithin(time.Second, func() bool {
		r := recallTool(t, ctx, cs, map[string]any{"query": "garden app staging database restored", "read_only": true})
		return strings.Contains(r.Prompt, text)
	})
	if d < 0 {
		t.Fatal("the running server did not recall the write made after the restore within 1 s")
	}
	t.Logf("the running server recalled the write made after the restore %v after the ingest returned", d)
	r := recallTool(t, ctx, cs, map[string]any{"query": "nightly report job analytics cluster on-call rotation Monday", "read_only": true})
	for _, l := range lost {
		if strings.Contains(r.Prompt, l) {
			t.Errorf("the server still recalls %q, which the restore took away", l)
		}
	}
}

// spaceOf is the space a DSN names.
func spaceOf(t *testing.T, dsn string) string {
	t.Helper()
	for _, s := range []string{"search_path="} {
		if i := strings.Index(dsn, s); i >= 0 {
			v := dsn[i+len(s):]
			if j := strings.IndexByte(v, '&'); j >= 0 {
				v = v[:j]
			}
			return v
		}
	}
	t.Fatalf("no space in %s", store.RedactDSN(dsn))
	return ""
}
