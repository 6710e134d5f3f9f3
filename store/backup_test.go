package store_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/internal/version"
)

func TestBackup(t *testing.T) {
	clock := &testClock{t: time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)}
	db := storetest.MustOpenClock(t, clock.Now)
	ms := seedMemories(t, db, 3)
	ms[1].Content = "백업에 들어가야 할 기억"
	must(t, db.UpdateMemory(t.Context(), ms[1], engine.Actor{Name: "curator"}, "edit"))
	dir := filepath.Join(t.TempDir(), "backups")

	info, err := db.Backup(t.Context(), dir)
	must(t, err)
	if info.Memories != 3 || filepath.Dir(info.DB) != dir || filepath.Ext(info.DB) != ".db" || filepath.Ext(info.Dump) != ".json" {
		t.Fatalf("backup info: %+v", info)
	}
	for path, sum := range map[string]string{info.DB: info.DBSHA256, info.Dump: info.DumpSHA256} {
		body, err := os.ReadFile(path)
		must(t, err)
		h := sha256.Sum256(body)
		if hex.EncodeToString(h[:]) != sum {
			t.Fatalf("%s: reported sha256 %s, file hashes to %x", path, sum, h)
		}
		line, err := os.ReadFile(path + ".sha256")
		must(t, err)
		if want := sum + "  " + filepath.Base(path) + "\n"; string(line) != want {
			t.Fatalf("%s.sha256 = %q, want %q", path, line, want)
		}
	}

	// The backup is one self-contained file in rollback-journal mode
	// (header bytes 18 and 19 are 1, not WAL's 2).
	head := make([]byte, 20)
	f, err := os.Open(info.DB)
	must(t, err)
	_, err = io.ReadFull(f, head)
	f.Close()
	must(t, err)
	if head[18] != 1 || head[19] != 1 {
		t.Fatalf("backup header journal bytes = %d,%d, want 1,1", head[18], head[19])
	}

	// The dump is the memories, exactly as DumpMemories renders them.
	dump, err := os.ReadFile(info.Dump)
	must(t, err)
	live, err := db.DumpMemories(t.Context())
	must(t, err)
	if string(dump) != string(live) {
		t.Fatalf("dump differs from the live database:\n%s\n%s", dump, live)
	}
	var parsed struct {
		Memtrace version.Info    `json:"memtrace"`
		Memories []engine.Memory `json:"memories"`
	}
	must(t, json.Unmarshal(dump, &parsed))
	if len(parsed.Memories) != 3 || parsed.Memories[1].Content != "백업에 들어가야 할 기억" {
		t.Fatalf("dump memories: %+v", parsed.Memories)
	}
	// The backup says which memtrace wrote it, in the description and the dump.
	if info.MemtraceVersion == "" || info.MemtraceVersion != version.String() || parsed.Memtrace.Version != info.MemtraceVersion {
		t.Fatalf("backup version: info %q, dump %+v, binary %q", info.MemtraceVersion, parsed.Memtrace, version.String())
	}

	// The backup is a complete database: it opens and holds every memory
	// with its vector and its audit history.
	restored := storetest.MustOpenPath(t, info.DB, nil)
	for _, m := range ms {
		got, err := restored.GetMemory(t.Context(), m.ID)
		must(t, err)
		if !reflect.DeepEqual(got, m) {
			t.Fatalf("memory %d in backup:\n got %+v\nwant %+v", m.ID, got, m)
		}
	}
	audit, err := restored.AuditForMemory(t.Context(), ms[1].ID)
	must(t, err)
	if len(audit) != 2 {
		t.Fatalf("backup audit rows for memory %d = %d, want 2", ms[1].ID, len(audit))
	}

	// A second backup in the same second (the clock moves 1ms a reading) gets its own files.
	info2, err := db.Backup(t.Context(), dir)
	must(t, err)
	if info2.DB == info.DB || info2.Dump == info.Dump {
		t.Fatalf("second backup overwrote the first: %s", info2.DB)
	}
}
