package sidefile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRenameRemoveAndStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "db-columns")
	tmp := path + ".tmp-1"
	if err := os.WriteFile(tmp, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("an erasure came")
	if err := Rename(tmp, path, func() error { return refused }); !errors.Is(err, refused) {
		t.Fatalf("a failing check: got %v, want it returned", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a failing check still renamed the file")
	}
	if err := Rename(tmp, path, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Fatalf("renamed file holds %q", b)
	}

	old, fresh := path+".tmp-old", path+".tmp-fresh"
	for _, f := range []string{old, fresh} {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	RemoveStale(path)
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Error("a temporary file two hours old survived RemoveStale")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("RemoveStale removed a writer's fresh temporary file")
	}

	if err := Remove(path); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path, fresh} {
		if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s survived Remove", filepath.Base(f))
		}
	}
	if err := Remove(path); err != nil {
		t.Errorf("Remove of a missing file: %v", err)
	}
}

func TestGlobEscapeKeepsMetacharactersLiteral(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a[b]*?")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "db-lexicon")
	if err := os.WriteFile(path+".tmp-9", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".tmp-9"); !errors.Is(err, os.ErrNotExist) {
		t.Error("a directory name with glob metacharacters hid the temporary file from Remove")
	}
}
