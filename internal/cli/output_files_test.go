package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Outputs take the database file's mode and are never written through a
// link (#32): a 0600 database gets a 0600 backup, dump, Markdown export and
// --otel file; an export or backup directory that is a symbolic link, and
// an --otel FILE that is one, are refused and their targets left as they
// were.
func TestOutputsKeepTheDatabaseModeAndRefuseLinks(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	if _, errOut, code := runCLI(t, "--db", db, "add", "My sister Minji lives in Busan and works as a nurse."); code != 0 {
		t.Fatalf("add: %s", errOut)
	}
	for _, p := range []string{db, db + "-wal", db + "-shm"} {
		os.Chmod(p, 0o600)
	}
	backups, md, otel := filepath.Join(dir, "backups"), filepath.Join(dir, "md"), filepath.Join(dir, "spans.json")
	for _, args := range [][]string{
		{"--db", db, "backup", backups},
		{"--db", db, "export", "md", md},
		{"--db", db, "recall", "where does Minji work?", "--otel", otel},
	} {
		if _, errOut, code := runCLI(t, args...); code != 0 {
			t.Fatalf("memtrace %s: exit %d: %s", strings.Join(args, " "), code, errOut)
		}
	}
	checked := 0
	for _, root := range []string{backups, md, otel} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				t.Fatal(err)
			}
			fi, _ := d.Info()
			if !d.IsDir() {
				checked++
				if fi.Mode().Perm() != 0o600 {
					t.Errorf("%s has mode %o, the database 0600", p, fi.Mode().Perm())
				}
			} else if fi.Mode().Perm()&0o077 != 0 && p != root {
				t.Errorf("directory %s has mode %o: others may list a 0600 database's outputs", p, fi.Mode().Perm())
			}
			return nil
		})
	}
	if checked < 4 {
		t.Fatalf("only %d output files checked", checked)
	}

	elsewhere := t.TempDir()
	victim := filepath.Join(elsewhere, "victim.json")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	dirLink, fileLink := filepath.Join(dir, "linked-dir"), filepath.Join(dir, "linked-file.json")
	if err := os.Symlink(elsewhere, dirLink); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, fileLink); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--db", db, "backup", dirLink},
		{"--db", db, "export", "md", dirLink},
		{"--db", db, "recall", "where does Minji work?", "--otel", fileLink},
	} {
		_, errOut, code := runCLI(t, args...)
		if code == 0 || !strings.Contains(errOut, "symbolic link") {
			t.Errorf("memtrace %s: exit %d, %q — want a refusal naming the link", strings.Join(args, " "), code, errOut)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("a link's target was written: %q", b)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 1 {
		t.Fatalf("the linked directory's target got %d entries", len(entries))
	}
}
