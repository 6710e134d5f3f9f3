package capture_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/tiers"
)

// readTree reads every file of an export, by relative path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMarkdownExportKeepsFormerFactsInTheArchive: the export writes the
// current fact to its tier file and the superseded one to the archive of
// the month it stopped holding, with "[until DATE]" and its link in the
// trailer; importing the files back changes nothing (the former fact stays
// superseded, in its tier, active) and exports byte-identically; a fresh
// database importing them gets the former fact archived, never current.
func TestMarkdownExportKeepsFormerFactsInTheArchive(t *testing.T) {
	ctx := context.Background()
	e := openCaptureEngine(t, nil)
	old := captureAt(t, e, "home-old", "I live in Seoul, near Mapo.", onDay(0))
	up := captureAt(t, e, "home-new", "I moved to Busan in April and live near Haeundae beach.", onDay(92))
	before, _ := e.Memory(old.MemoryID)
	if before.SupersededBy != up.MemoryID {
		t.Fatalf("setup: #%d not superseded by #%d", old.MemoryID, up.MemoryID)
	}
	dir := t.TempDir()
	if _, err := tiers.ExportMarkdown(ctx, e, dir); err != nil {
		t.Fatal(err)
	}
	files := readTree(t, dir)
	archive := files["archive/2026-04.md"]
	if !strings.Contains(archive, "- [until 2026-04-03] I live in Seoul, near Mapo.") ||
		!strings.Contains(archive, `"superseded_by":2`) || !strings.Contains(archive, `"valid_to":"2026-04-03T09:00:00Z"`) ||
		!strings.Contains(archive, `"status":"active"`) {
		t.Fatalf("archive/2026-04.md does not keep the former fact with its validity:\n%s", archive)
	}
	for name, body := range files {
		if name != "archive/2026-04.md" && strings.Contains(body, "I live in Seoul") {
			t.Errorf("%s lists the former fact:\n%s", name, body)
		}
	}
	if !strings.Contains(files["WARM.md"], "I moved to Busan in April") {
		t.Errorf("WARM.md lacks the current fact:\n%s", files["WARM.md"])
	}

	res, err := tiers.ImportMarkdown(ctx, e, dir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Updated != 0 || res.Inserted != 0 || res.Proposed != 0 || len(res.Skipped) != 0 {
		t.Fatalf("import of an unchanged export changed something: %+v", res)
	}
	after, _ := e.Memory(old.MemoryID)
	if after.SupersededBy != up.MemoryID || !after.ValidTo.Equal(before.ValidTo) || after.Status != before.Status || after.Tier != before.Tier {
		t.Fatalf("after import: %+v, want it as before (superseded by #%d)", after, up.MemoryID)
	}
	dir2 := t.TempDir()
	if _, err := tiers.ExportMarkdown(ctx, e, dir2); err != nil {
		t.Fatal(err)
	}
	again := readTree(t, dir2)
	for name, body := range files {
		if again[name] != body {
			t.Errorf("%s differs after export → import → export:\n%s\n---\n%s", name, body, again[name])
		}
	}

	// Another database reads the files (ids removed, as import asks for a
	// file from another database): the former fact comes in archived (its
	// newer memory is not there to link to), the current one active.
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(regexp.MustCompile(`"id":\d+,`).ReplaceAllString(body, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fresh := openCaptureEngine(t, nil)
	res, err = tiers.ImportMarkdown(ctx, fresh, dir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Inserted != 2 {
		t.Fatalf("fresh import: %+v, want 2 inserted", res)
	}
	m, ok := fresh.MemoryByKey("home-old")
	if !ok || m.Status != engine.StatusArchived || m.Content != "I live in Seoul, near Mapo." {
		t.Fatalf("fresh import of the former fact: %+v, want archived with its text", m)
	}
	if n, ok := fresh.MemoryByKey("home-new"); !ok || n.Status != engine.StatusActive {
		t.Fatalf("fresh import of the current fact: %+v", n)
	}
}
