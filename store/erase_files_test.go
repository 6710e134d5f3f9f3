package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/ollama"
	"memtrace/store"
)

// An erasure rewrites each judge cache a run recorded: the entries that
// name an erased text by its hash and the ones whose verdict quotes it (an
// entry older than the hashes) go, the others stay, and the dropped bytes
// are not left past the file's new end. A cache recorded through a
// symbolic link is not followed: it stays listed, with what to do.
func TestEraseRewritesJudgeCaches(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		ctx := context.Background()
		db, err := store.Open(ctx, b.Fresh(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		erased := "Jun's locker combination is zebra-orchid 5521"
		m := newMemory("m1", erased)
		must(t, db.InsertMemory(ctx, m, engine.Actor{Name: "capture", Batch: "capture-1"}))
		keep := newMemory("m2", "Mina prefers green tea in the afternoon")
		must(t, db.InsertMemory(ctx, keep, engine.Actor{Name: "capture", Batch: "capture-1"}))

		dir := t.TempDir()
		path := filepath.Join(dir, "judge-cache.jsonl")
		c, err := ollama.NewFileCache(path)
		must(t, err)
		entry := func(input string, texts []string, verdict string) {
			e := ollama.CacheEntry{Key: ollama.CacheKey{Digest: "d", InputHash: input}, Kind: "capture", Model: "m",
				Verdict: json.RawMessage(verdict), At: time.Now(), Texts: texts}
			must(t, c.Put(ctx, e))
		}
		entry("a", []string{engine.ContentHash(erased)}, `{"store":true}`)
		entry("b", nil, `{"store":false,"reason":"`+erased+` is private"}`)
		entry("c", []string{engine.ContentHash(keep.Content)}, `{"store":true}`)
		must(t, c.Close())
		size := fileSize(t, path)
		link := filepath.Join(dir, "link.jsonl")
		must(t, os.Symlink(path, link))
		for _, p := range []string{path, path, link} { // the same file twice: one row
			must(t, db.RecordArtifact(ctx, engine.Artifact{Kind: engine.ArtifactJudgeCache, Path: p}))
		}

		rep, err := db.EraseMemories(ctx, engine.EraseRequest{IDs: []int64{m.ID}, Actor: "curator", Reason: "asked"})
		must(t, err)
		if rep.Scrubbed[engine.ArtifactJudgeCache] != 2 {
			t.Errorf("judge cache entries removed: %d, want 2 (%+v)", rep.Scrubbed[engine.ArtifactJudgeCache], rep)
		}
		if len(rep.Artifacts) != 1 || rep.Artifacts[0].Path != link {
			t.Errorf("artifacts left %+v, want only the link (refused)", rep.Artifacts)
		}
		data, err := os.ReadFile(path)
		must(t, err)
		if bytes.Contains(data, []byte("zebra-orchid")) || bytes.Contains(data, []byte(engine.ContentHash(erased))) {
			t.Errorf("the cache still names the erased text:\n%s", data)
		}
		if !bytes.Contains(data, []byte(engine.ContentHash(keep.Content))) || bytes.Count(data, []byte("\n")) != 1 {
			t.Errorf("the other memory's entry did not stay alone:\n%s", data)
		}
		if got := fileSize(t, path); got >= size || got != int64(len(data)) {
			t.Errorf("cache size %d after, %d before", got, size)
		}
		if c, err := ollama.NewFileCache(path); err != nil || c.Len() != 1 || c.Skipped() != 0 {
			t.Errorf("the rewritten cache does not load cleanly: %v", err)
		} else {
			c.Close()
		}
	})
}

func fileSize(t *testing.T, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	must(t, err)
	return fi.Size()
}
