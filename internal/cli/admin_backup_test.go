package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/internal/version"
)

func TestCmdBackup(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		dir := t.TempDir()
		dbPath := filepath.Join(dir, "memtrace.db")
		db := storetest.MustOpenPath(t, dbPath, time.Now)
		m := &engine.Memory{Key: "m1", Content: "충주 사과가 맛있었다", Kind: engine.KindEpisode, Status: engine.StatusActive}
		if err := db.InsertMemory(t.Context(), m, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "backups")
		var stdout, stderr bytes.Buffer
		if code := run(t.Context(), []string{"--db", dbPath, "backup", out, "--json"}, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		var info engine.BackupInfo
		if err := json.Unmarshal(stdout.Bytes(), &info); err != nil {
			t.Fatalf("--json output %q: %v", stdout.String(), err)
		}
		if info.Memories != 1 || filepath.Dir(info.DB) != out || info.MemtraceVersion != version.String() {
			t.Fatalf("backup info %+v", info)
		}
		for path, sum := range map[string]string{info.DB: info.DBSHA256, info.Dump: info.DumpSHA256} {
			body, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.Sum256(body)
			line, err := os.ReadFile(path + ".sha256")
			if err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(h[:]); got != sum || string(line) != got+"  "+filepath.Base(path)+"\n" {
				t.Fatalf("%s: hash %s, reported %s, .sha256 %q", path, got, sum, line)
			}
		}
		dump, err := os.ReadFile(info.Dump)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(dump), `"content": "충주 사과가 맛있었다"`) {
			t.Fatalf("dump lacks the memory:\n%s", dump)
		}

		stdout.Reset()
		if code := run(t.Context(), []string{"--db", dbPath, "backup", out}, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		if !strings.Contains(stdout.String(), "(1 memory)") || !strings.Contains(stdout.String(), "sha256 ") ||
			!strings.Contains(stdout.String(), "written by memtrace "+version.String()) {
			t.Fatalf("text output:\n%s", stdout.String())
		}
	})
	t.Run("ErrNoDatabase", func(t *testing.T) {
		dir := t.TempDir()
		dbPath := filepath.Join(dir, "missing.db")
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), []string{"--db", dbPath, "backup", filepath.Join(dir, "out")}, nil, &stdout, &stderr)
		want := "memtrace backup: " + engine.ErrorMessage(missingDatabase(dbPath)) + "\n"
		if code != 1 || stderr.String() != want {
			t.Fatalf("exit %d, stderr %q; want 1, %q", code, stderr.String(), want)
		}
		if _, err := os.Stat(dbPath); !os.IsNotExist(err) {
			t.Fatal("backup created the database it was asked to back up")
		}
	})
	t.Run("ErrUsage", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := run(t.Context(), []string{"--db", filepath.Join(t.TempDir(), "x.db"), "backup"}, nil, &stdout, &stderr); code != 2 {
			t.Fatalf("exit %d, want 2", code)
		}
		if !strings.Contains(stderr.String(), "usage: memtrace backup DIR [--json]") {
			t.Fatalf("stderr %q", stderr.String())
		}
	})
}
