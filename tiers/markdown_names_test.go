package tiers_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/tierstest"
	"memtrace/tiers"
)

// A project named with an escape sequence and a bidi override (#32): its
// tier file's name holds them %-encoded, never raw, its header escapes
// them, and the file reads back into the same scope.
func TestMarkdownFileNamesOfHostileProjectsAreEncoded(t *testing.T) {
	ctx := context.Background()
	e, _ := tierstest.Open(t)
	for _, name := range []string{"x\x1b[2Jy", "evil\u202egpj.exe", "100%real", "정원\u2066앱"} {
		tierstest.AddMemory(t, e, "", "We deploy "+name+" on Thursdays after the standup.", engine.TierWarm, "project:"+name, tierstest.Epoch)
	}
	dir := t.TempDir()
	if _, err := tiers.ExportMarkdown(ctx, e, dir); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "projects"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"x%1B[2Jy.md": true, "evil%E2%80%AEgpj.exe.md": true, "100%25real.md": true, "정원%E2%81%A6앱.md": true}
	for _, en := range entries {
		if !want[en.Name()] {
			t.Errorf("tier file %q (want one of %v)", en.Name(), want)
		}
		b, err := os.ReadFile(filepath.Join(dir, "projects", en.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(string(b), "\x1b\u202e\u2066") {
			t.Errorf("%s holds a raw control: %q", en.Name(), b)
		}
	}
	if len(entries) != len(want) {
		t.Fatalf("%d project files, want %d", len(entries), len(want))
	}
	for file, scope := range map[string]string{"projects/x%1B[2Jy.md": "project:x\x1b[2Jy", "projects/100%25real.md": "project:100%real", "projects/plain.md": "project:plain"} {
		if got := engine.FileScope(file); got != scope {
			t.Errorf("FileScope(%q) = %q, want %q", file, got, scope)
		}
	}
	res, err := tiers.ImportMarkdown(ctx, e, dir)
	if err != nil || res.Inserted+res.Updated+res.Proposed != 0 || len(res.Skipped) != 0 {
		t.Fatalf("import of the same files: %+v, %v", res, err)
	}
}
