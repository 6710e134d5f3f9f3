package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/mcpserver"
	"memtrace/store"
)

// seenWithin polls cond every millisecond for up to limit and returns how
// long it took to hold, or -1.
func seenWithin(limit time.Duration, cond func() bool) time.Duration {
	start := time.Now()
	for time.Since(start) < limit {
		if cond() {
			return time.Since(start)
		}
		time.Sleep(time.Millisecond)
	}
	return -1
}

// Two engines opened through the CLI's open path on one PostgreSQL space:
// what one captures appears in the other's caches through LISTEN/NOTIFY —
// the test never calls Refresh on the reader. The latency is logged (p50,
// p95); the figure is the scale benchmark's (speed is a benchmark, not a
// unit test), and the wait here is bounded at 2 s.
func TestTwoEnginesSeeEachOthersCaptures(t *testing.T) {
	dsn := storetest.PGDSN(t)
	ctx := context.Background()
	var engs [2]*engine.Engine
	for i := range engs {
		eng, _, closeDB, err := openEngineAt(ctx, dsn, false, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(closeDB)
		engs[i] = eng
	}
	var lat []time.Duration
	for i := range 20 {
		from, to := engs[i%2], engs[(i+1)%2]
		text := fmt.Sprintf("Our staging server number %d runs PostgreSQL on port %d, not the default.", i, 5433+i)
		if i%2 == 1 {
			text = fmt.Sprintf("우리 %d번 스테이징 서버는 기본 포트가 아니라 %d번 포트를 써요.", i, 5433+i)
		}
		res, err := capture.Capture(ctx, from, engine.Message{ID: fmt.Sprintf("msg-%d", i), Session: "s", Role: "user", Text: text, At: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != engine.OutcomeStored {
			t.Fatalf("capture %d: %+v", i, res)
		}
		d := seenWithin(2*time.Second, func() bool {
			m, ok := to.Memory(res.MemoryID)
			return ok && m.Content == text
		})
		if d < 0 {
			t.Fatalf("engine %d never saw memory %d captured by engine %d", (i+1)%2, res.MemoryID, i%2)
		}
		lat = append(lat, d)
	}
	slices.Sort(lat)
	t.Logf("capture seen by the other engine after p50 %v, p95 %v, max %v (20 captures, from the capture's return)",
		lat[len(lat)/2], lat[len(lat)*95/100], lat[len(lat)-1])

	// Both listeners lose their connection; what is written at once,
	// before they are back, reaches the other engine by the resync.
	cfg, err := pgx.ParseConfig(storetest.PGBase(t))
	if err != nil {
		t.Fatal(err)
	}
	raw := stdlib.OpenDB(*cfg)
	defer raw.Close()
	var killed int
	space := engs[0].Store().(*store.DB).Space()
	if err := raw.QueryRowContext(ctx, `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query = 'LISTEN ' || $1`,
		pgx.Identifier{store.NotifyChannel(space)}.Sanitize()).Scan(&killed); err != nil || killed != 2 {
		t.Fatalf("terminated %d listeners (%v), want 2", killed, err)
	}
	text := "Written while the other engine's listener was away: the backup bucket is memtrace-backups-eu."
	res, err := capture.Capture(ctx, engs[0], engine.Message{ID: "msg-away", Session: "s", Role: "user", Text: text, At: time.Now()})
	if err != nil || res.Outcome != engine.OutcomeStored {
		t.Fatalf("capture while away: %+v %v", res, err)
	}
	if d := seenWithin(5*time.Second, func() bool { _, ok := engs[1].Memory(res.MemoryID); return ok }); d < 0 {
		t.Fatal("after a lost connection the other engine never caught up")
	} else {
		t.Logf("caught up %v after the lost connection", d)
	}
}

// Two `memtrace mcp` servers on one PostgreSQL space, as two agents on two
// hosts would run them: what is captured through each is recalled through
// the other.
func TestTwoMCPServersShareASpace(t *testing.T) {
	dsn := storetest.PGDSN(t)
	bin := buildMemtrace(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// The space exists before either server starts.
	if _, stderr, code := runCLI(t, "ingest", "--db", dsn, "testdata/demo.jsonl"); code != 0 {
		t.Fatalf("ingest: %s", stderr)
	}
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
	texts := []string{
		"Our payments service deploys from the release-7 branch every Thursday at noon.",
		"결제 서비스는 매주 목요일 정오에 release-7 브랜치에서 배포돼요.",
	}
	queries := []string{"when does the payments service deploy?", "결제 서비스 배포 언제"}
	var lat []time.Duration
	for i, text := range texts {
		var c mcpserver.CaptureOut
		callTool(t, ctx, sessions[i], "memory_capture", map[string]any{"text": text, "session": "s9", "role": "user"}, &c)
		if c.Outcome != engine.OutcomeStored {
			t.Fatalf("capture through server %d: %+v", i, c)
		}
		other := sessions[1-i]
		d := seenWithin(5*time.Second, func() bool {
			r := recallTool(t, ctx, other, map[string]any{"query": queries[i], "read_only": true})
			return survivorIDs(r)[c.MemoryID] && strings.Contains(r.Prompt, text)
		})
		if d < 0 {
			t.Fatalf("server %d never recalled memory %d captured through server %d", 1-i, c.MemoryID, i)
		}
		lat = append(lat, d)
	}
	t.Logf("recalled through the other server after %v", lat)
}
