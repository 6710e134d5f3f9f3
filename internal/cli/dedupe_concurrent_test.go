package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/mcpserver"
)

// concurrentStatement is the statement every writer of these tests captures.
const concurrentStatement = "I always deploy the garden app with the blue-green script on Fridays."

// createDB creates db (a file or a space) holding one unrelated memory.
func createDB(t *testing.T, db string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "seed.jsonl")
	line := `{"id":"seed","session":"s","role":"user","text":"My sister's birthday is on the third of March every year.","at":"2026-01-01T00:00:00Z"}` + "\n"
	if err := os.WriteFile(file, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "--db", db, "ingest", file); code != 0 {
		t.Fatalf("create %s: %s", db, stderr)
	}
}

// activeCopies opens db afresh and returns the active memories holding
// text and the access count of each.
func activeCopies(t *testing.T, db, text string) map[int64]int {
	t.Helper()
	eng, _, closeDB, err := openEngineAt(context.Background(), db, true, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	out := map[int64]int{}
	v := eng.View()
	defer v.Close()
	for _, id := range v.IDs() {
		if m := v.Memory(id); m.Status == engine.StatusActive && m.Content == text {
			out[id] = m.AccessCount
		}
	}
	return out
}

// concurrentIngests runs writers `memtrace ingest` processes at once, each
// of one message of text with an id of its own, into db.
func concurrentIngests(t *testing.T, bin, db, dir, text string, try, writers int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, writers)
	outs := make([][]byte, writers)
	for i := range writers {
		file := filepath.Join(dir, fmt.Sprintf("try%d-%d.jsonl", try, i))
		line := fmt.Sprintf(`{"id":"try%d-writer%d","session":"s%d","role":"user","text":%q,"at":"2026-01-01T00:00:00Z"}`+"\n", try, i, i, text)
		if err := os.WriteFile(file, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			cmd := exec.Command(bin, "--db", db, "ingest", file)
			cmd.Env = append(os.Environ(), "MEMTRACE_DB=")
			outs[i], errs[i] = cmd.CombinedOutput()
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("try %d: ingest %d: %v\n%s", try, i, err, outs[i])
		}
	}
}

// Issue 32: four `memtrace ingest` processes of one statement (different
// message ids) leave one active memory and three reinforcements, every
// time: the dedupe decides against the committed state under the write
// lock, not against the cache each process opened with.
func TestConcurrentIngestsOfOneStatementLeaveOneMemory(t *testing.T) {
	bin := buildMemtrace(t)
	const tries, writers = 10, 4
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			for try := range tries {
				db := filepath.Join(t.TempDir(), "memtrace.db")
				if backend == "postgres" {
					db = storetest.PGDSN(t)
				}
				// The database exists before the writers start (four
				// processes creating one file race on its creation, not on
				// the dedupe).
				createDB(t, db)
				concurrentIngests(t, bin, db, t.TempDir(), concurrentStatement, try, writers)
				got := activeCopies(t, db, concurrentStatement)
				if len(got) != 1 {
					t.Fatalf("try %d: %d active copies of the statement after %d concurrent ingests, want 1: %v", try+1, len(got), writers, got)
				}
				for id, n := range got {
					if n != writers-1 {
						t.Fatalf("try %d: memory %d reinforced %d times, want %d", try+1, id, n, writers-1)
					}
				}
			}
			t.Logf("%s: %d tries of %d concurrent ingests: 1 active memory, %d reinforcements each time", backend, tries, writers, writers-1)
		})
	}
}

// Two `memtrace mcp` servers on one PostgreSQL space capturing one
// statement at the same moment: one answers stored, the other reinforced.
func TestTwoMCPServersCapturingOneStatement(t *testing.T) {
	dsn := storetest.PGDSN(t)
	bin := buildMemtrace(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	createDB(t, dsn)
	var sessions [2]*mcp.ClientSession
	for i := range sessions {
		client := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("agent-%d", i), Version: "1"}, nil)
		cmd := exec.Command(bin, "mcp", "--db", dsn)
		cmd.Env = append(os.Environ(), "MEMTRACE_DB=")
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("server %d: %v", i, err)
		}
		t.Cleanup(func() { cs.Close() })
		sessions[i] = cs
	}
	for round := range 5 {
		text := fmt.Sprintf("Our payments service number %d deploys from the release-%d branch every Thursday at noon.", round, round+7)
		var outs [2]mcpserver.CaptureOut
		var wg sync.WaitGroup
		for i := range sessions {
			wg.Go(func() {
				callTool(t, ctx, sessions[i], "memory_capture", map[string]any{"text": text, "session": fmt.Sprintf("s%d", i), "role": "user"}, &outs[i])
			})
		}
		wg.Wait()
		stored, reinforced := 0, 0
		for _, o := range outs {
			switch o.Outcome {
			case engine.OutcomeStored:
				stored++
			case engine.OutcomeReinforced:
				reinforced++
			}
		}
		if stored != 1 || reinforced != 1 || outs[0].MemoryID != outs[1].MemoryID {
			t.Fatalf("round %d: the two servers answered %+v and %+v, want one stored and one reinforced of one memory", round, outs[0], outs[1])
		}
		if got := activeCopies(t, dsn, text); len(got) != 1 {
			t.Fatalf("round %d: %d active copies, want 1", round, len(got))
		}
	}
}
