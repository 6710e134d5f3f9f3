package tiers_test

import (
	"context"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/tierstest"
	"memtrace/tiers"
)

// The demo conversation as captured, exported, read into a database that
// never held it and exported again: the same files byte for byte — ids,
// keys, episode dates, archive months, former facts and their links, and
// the lessons' order (#32).
func TestMarkdownIntoNewDatabaseRoundTrip(t *testing.T) {
	ctx := context.Background()
	a, _ := ingestTierDemo(t)
	dir1 := t.TempDir()
	if _, err := tiers.ExportMarkdown(ctx, a, dir1); err != nil {
		t.Fatal(err)
	}
	tree1 := readTierTree(t, dir1)
	if !strings.Contains(string(tree1["corrections.md"]), "## ") || !hasArchive(tree1) {
		t.Fatalf("the demo export should hold lessons and archive files: %v", keys(tree1))
	}

	b, clk := tierstest.Open(t)
	clk.T = a.Now()
	res, err := tiers.ImportMarkdown(ctx, b, dir1)
	if err != nil {
		t.Fatalf("import into a new database: %v", err)
	}
	if res.Renumbered != 0 || len(res.Skipped) != 0 || res.Inserted != res.Lines {
		t.Fatalf("import into a new database: %+v", res)
	}
	dir2 := t.TempDir()
	if _, err := tiers.ExportMarkdown(ctx, b, dir2); err != nil {
		t.Fatal(err)
	}
	sameTierTree(t, tree1, readTierTree(t, dir2))

	// The links came back: a former fact is superseded in the new
	// database as it was in the old one.
	linked := 0
	b.EachMemory(func(m *engine.Memory) bool {
		if m.SupersededBy != 0 {
			linked++
			if old, err := a.Store().GetMemory(ctx, m.ID); err != nil || old.SupersededBy != m.SupersededBy || old.Key != m.Key {
				t.Errorf("memory %d: superseded by %d here, %+v there", m.ID, m.SupersededBy, old)
			}
		}
		return true
	})
	if linked == 0 {
		t.Fatal("no former fact was linked to its newer memory")
	}

	// Reading it again changes nothing.
	again, err := tiers.ImportMarkdown(ctx, b, dir2)
	if err != nil || again.Inserted+again.Updated+again.Proposed != 0 {
		t.Fatalf("second import: %+v, %v", again, err)
	}
}

// Files from another database read into one whose ids are taken by other
// memories: nothing is refused or overwritten; the lines whose id is taken
// get new ids and the import says how many.
func TestMarkdownIntoOtherDatabaseRenumbers(t *testing.T) {
	ctx := context.Background()
	a, _ := ingestTierDemo(t)
	dir := t.TempDir()
	if _, err := tiers.ExportMarkdown(ctx, a, dir); err != nil {
		t.Fatal(err)
	}
	b, clk := tierstest.Open(t)
	clk.T = a.Now()
	mine := map[int64]string{}
	for _, text := range []string{"My own first memory, nothing to do with the demo.", "A second memory of this database.", "내 데이터베이스의 세 번째 기억이야."} {
		id := tierstest.AddMemory(t, b, "", text, engine.TierWarm, engine.ScopeGlobal, clk.T)
		mine[id] = text
	}
	res, err := tiers.ImportMarkdown(ctx, b, dir)
	if err != nil {
		t.Fatalf("import into a database with other memories: %v", err)
	}
	if res.Renumbered == 0 || res.Renumbered > len(mine) || res.Inserted != res.Lines {
		t.Fatalf("import: %+v (expected up to %d renumbered lines)", res, len(mine))
	}
	for id, text := range mine {
		m, err := b.Store().GetMemory(ctx, id)
		if err != nil || m.Content != text {
			t.Fatalf("memory %d of this database was changed: %+v, %v", id, m, err)
		}
	}
}

func hasArchive(tree map[string][]byte) bool {
	for p := range tree {
		if strings.HasPrefix(p, "archive/") {
			return true
		}
	}
	return false
}

func keys(tree map[string][]byte) []string {
	var out []string
	for p := range tree {
		out = append(out, p)
	}
	return out
}
