package outfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestPermFollowsTheDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	for _, mode := range []os.FileMode{0o600, 0o640, 0o644} {
		if err := os.WriteFile(db, nil, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(db, mode); err != nil {
			t.Fatal(err)
		}
		if got := Perm(db); got != mode {
			t.Errorf("Perm of a %o database = %o", mode, got)
		}
		out := filepath.Join(dir, "out")
		if err := WriteFile(out, []byte("x"), Perm(db)); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(out); fi.Mode().Perm() != mode {
			t.Errorf("output of a %o database has mode %o", mode, fi.Mode().Perm())
		}
	}
	if Perm(filepath.Join(dir, "missing.db")) != Private || Perm("") != Private {
		t.Error("a database without a file must give Private")
	}
	if DirPerm(0o600) != 0o700 || DirPerm(0o644) != 0o755 || DirPerm(0o640) != 0o750 {
		t.Errorf("DirPerm: %o %o %o", DirPerm(0o600), DirPerm(0o644), DirPerm(0o640))
	}
}

func TestLinksAreRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	var le *LinkError
	for name, err := range map[string]error{
		"WriteFile":  WriteFile(link, []byte("overwritten"), 0o600),
		"Append":     func() error { _, err := Append(link, 0o600); return err }(),
		"CreateTemp": func() error { _, err := CreateTemp(link, 0o600); return err }(),
	} {
		if !errors.As(err, &le) {
			t.Errorf("%s through a link: err = %v", name, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("the link's target was written: %q", b)
	}
	dirLink := filepath.Join(dir, "dirlink")
	if err := os.Symlink(t.TempDir(), dirLink); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAll(dirLink, 0o600); !errors.As(err, &le) {
		t.Errorf("MkdirAll of a linked directory: err = %v", err)
	}
	if _, err := CreateTemp(filepath.Join(dirLink, "f"), 0o600); !errors.As(err, &le) {
		t.Errorf("CreateTemp in a linked directory: err = %v", err)
	}
}
