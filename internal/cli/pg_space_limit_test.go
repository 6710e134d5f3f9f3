package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// Issue 32: a space name at PostgreSQL's identifier limit (63 bytes) is
// fully writable — its notification channel would pass the limit as
// memtrace_<space>, so it is hashed (store.NotifyChannel) — by ingest, by
// `copy --to`, and by a second engine that hears the first one's writes;
// a 64-byte name is refused at creation with a message that says the
// maximum. Two long names with a common prefix keep channels of their own.
func TestPGSpaceNameAtTheLimitIsWritable(t *testing.T) {
	base := storetest.PGBase(t)
	ctx := context.Background()
	prefix := "t_" + strings.Repeat("x", 45) // shared by both names: past the 40 bytes a hashed channel keeps
	var spaces []string
	for _, tail := range []string{"a", "b"} {
		s := prefix + strings.Repeat(tail, 63-len(prefix))
		if len(s) != 63 {
			t.Fatalf("space name of %d bytes", len(s))
		}
		spaces = append(spaces, s)
		t.Cleanup(func() { storetest.DropSpace(t, base, s) })
	}
	for _, s := range spaces {
		if ch := store.NotifyChannel(s); len(ch) > 63 {
			t.Fatalf("channel %q of space %q has %d bytes, over PostgreSQL's 63", ch, s, len(ch))
		}
	}
	if store.NotifyChannel(spaces[0]) == store.NotifyChannel(spaces[1]) {
		t.Fatalf("two spaces share the channel %q", store.NotifyChannel(spaces[0]))
	}
	if got := store.NotifyChannel("agent_1"); got != "memtrace_agent_1" {
		t.Fatalf("a short space's channel changed: %q", got)
	}
	src := store.SpaceDSN(base, spaces[0])
	file := filepath.Join(t.TempDir(), "in.jsonl")
	writeFile(t, file, storable("p", 3))
	if _, stderr, code := runCLI(t, "--db", src, "ingest", file); code != 0 {
		t.Fatalf("ingest into a 63-byte space: %s", stderr)
	}
	// Two engines on the space: a capture through one reaches the other
	// through the (hashed) channel, without a Refresh.
	var engs [2]*engine.Engine
	for i := range engs {
		eng, _, closeDB, err := openEngineAt(ctx, src, true, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(closeDB)
		engs[i] = eng
	}
	res, err := capture.Capture(ctx, engs[0], engine.Message{ID: "limit-1", Session: "s", Role: "user",
		Text: "The build farm in the long-named space runs twelve runners on Fridays.", At: time.Now()})
	if err != nil || res.Outcome != engine.OutcomeStored {
		t.Fatalf("capture into a 63-byte space: %v %+v", err, res)
	}
	if d := seenWithin(2*time.Second, func() bool { _, ok := engs[1].Memory(res.MemoryID); return ok }); d < 0 {
		t.Fatalf("the other engine never heard of memory %d on channel %s", res.MemoryID, store.NotifyChannel(spaces[0]))
	}
	// copy --to another 63-byte space, then write into the copy.
	dst := store.SpaceDSN(base, spaces[1])
	if _, stderr, code := runCLI(t, "copy", "--from", src, "--to", dst); code != 0 {
		t.Fatalf("copy --to a 63-byte space: %s", stderr)
	}
	writeFile(t, file, storable("q", 2))
	if out, stderr, code := runCLI(t, "--db", dst, "ingest", file); code != 0 {
		t.Fatalf("ingest into the copy: %s%s", out, stderr)
	}
	if out, stderr, code := runCLI(t, "--db", dst, "add", "복사한 공간에도 바로 쓸 수 있어요 — the copy is writable."); code != 0 {
		t.Fatalf("add into the copy: %s%s", out, stderr)
	}
	// One byte more is refused before anything is created, saying the limit.
	long := spaces[0] + "z"
	_, stderr, code := runCLI(t, "--db", store.SpaceDSN(base, long), "ingest", file)
	if code == 0 || !strings.Contains(stderr, "at most 63 characters") || !strings.Contains(stderr, fmt.Sprintf("this one has %d", len(long))) {
		t.Fatalf("a 64-byte space = %d %q, want a refusal that says the maximum", code, stderr)
	}
	if ok, err := store.SpaceExists(ctx, store.SpaceDSN(base, spaces[0])); err != nil || !ok {
		t.Fatalf("space exists: %v %v", ok, err)
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}
