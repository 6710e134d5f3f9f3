package tiers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/tierstest"
	"memtrace/tiers"
)

// seedDemoTiers stores the demo's must-keep messages as a curated DB would
// hold them: preferences in HOT, project talk in its project's WARM file,
// episodes archived, the labelled lessons as corrections.
func seedDemoTiers(t *testing.T, e *engine.Engine) {
	t.Helper()
	ctx := context.Background()
	msgs, l := tierstest.ReadDemo(t)
	keep := map[string]bool{}
	for _, id := range l.MustKeep {
		keep[id] = true
	}
	for _, m := range msgs {
		if !keep[m.ID] {
			continue
		}
		mem := &engine.Memory{Key: m.ID, Content: m.Text, Role: m.Role, Session: m.Session, Scope: engine.ProjectScope(m.Project),
			Importance: 0.6, CreatedAt: m.At, LastAccessedAt: m.At}
		switch {
		case slices.Contains(l.Preferences, m.ID):
			mem.Tier, mem.Type, mem.Scope = engine.TierHot, "preference", engine.ScopeGlobal
		case slices.Contains(l.Episodes, m.ID):
			mem.Tier, mem.Status, mem.Kind, mem.Importance = engine.TierCold, engine.StatusArchived, engine.KindEpisode, 0.3
		}
		if err := e.AddMemory(ctx, mem, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	byID := map[string]engine.Message{}
	for _, m := range msgs {
		byID[m.ID] = m
	}
	err := e.Update(ctx, func(q engine.Queries) error {
		for key, ids := range l.Corrections {
			c := &engine.Correction{LessonKey: key, Lesson: "Lesson " + key, Context: "code review \\ \"quoted\"", Correction: byID[ids[0]].Text,
				Scope: engine.ScopeGlobal, Count: len(ids), Status: l.LessonStatus[key], FirstSeen: byID[ids[0]].At, LastSeen: byID[ids[len(ids)-1]].At}
			for _, id := range ids {
				c.Occurrences = append(c.Occurrences, engine.Occurrence{MessageID: id, Session: byID[id].Session, Text: byID[id].Text, At: byID[id].At})
			}
			if err := q.SaveCorrection(ctx, c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readTierTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTierTree(t *testing.T, a, b map[string][]byte) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("file sets differ: %d vs %d files", len(a), len(b))
	}
	for p, x := range a {
		if !bytes.Equal(x, b[p]) {
			t.Fatalf("%s differs after round trip:\n--- first\n%s\n--- second\n%s", p, x, b[p])
		}
	}
}

func TestMarkdownExportImportExportIsByteIdentical(t *testing.T) {
	ctx := context.Background()
	e, clk := tierstest.Open(t)
	seedDemoTiers(t, e)
	// Text that must survive a line-based format: a line break, a
	// backslash, a tab and a terminal escape.
	tricky := tierstest.AddMemory(t, e, "tricky", "first line\nsecond \\ line\twith \x1b[2J escape <!-- mt {\"id\":1} -->", engine.TierWarm, "domain:code", tierstest.Epoch)

	dir1 := t.TempDir()
	exp, err := tiers.ExportMarkdown(ctx, e, dir1)
	if err != nil {
		t.Fatal(err)
	}
	tree1 := readTierTree(t, dir1)
	for _, want := range []string{"HOT.md", "WARM.md", "projects/memtrace.md", "projects/garden-app.md", "domains/code.md", "corrections.md"} {
		if _, ok := tree1[want]; !ok {
			t.Fatalf("export wrote %v, missing %s", exp.Files, want)
		}
	}
	hot := strings.Split(strings.TrimSuffix(string(tree1["HOT.md"]), "\n"), "\n")
	if len(hot) > engine.HotLineCap || len(hot) != 2+9 { // 9 preferences
		t.Fatalf("HOT.md has %d lines:\n%s", len(hot), tree1["HOT.md"])
	}
	if !strings.HasPrefix(hot[0], "# HOT — always loaded (11/100 lines)") {
		t.Fatalf("HOT.md title = %q", hot[0])
	}
	if bytes.ContainsRune(tree1["domains/code.md"], 0x1b) || bytes.Count(tree1["domains/code.md"], []byte("\n")) != 3 {
		t.Fatalf("domains/code.md leaks control characters or breaks lines:\n%q", tree1["domains/code.md"])
	}
	archives := 0
	for p := range tree1 {
		if strings.HasPrefix(p, "archive/2026-") {
			archives++
		}
	}
	if archives == 0 {
		t.Fatalf("no monthly archive files in %v", exp.Files)
	}
	corr := string(tree1["corrections.md"])
	for _, want := range []string{"## 2026-01-05 — Lesson no-panic-in-library", "- Count: 4/3\n- Status: candidate", "- Count: 2/3\n- Status: pending"} {
		if !strings.Contains(corr, want) {
			t.Fatalf("corrections.md lacks %q:\n%s", want, corr)
		}
	}

	res, err := tiers.ImportMarkdown(ctx, e, dir1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Updated != 0 || res.Inserted != 0 || res.Lessons != 0 || res.Unchanged != res.Lines {
		t.Fatalf("re-importing an unchanged export changed things: %+v", res)
	}
	dir2 := t.TempDir()
	if _, err := tiers.ExportMarkdown(ctx, e, dir2); err != nil {
		t.Fatal(err)
	}
	sameTierTree(t, tree1, readTierTree(t, dir2))
	if m, _ := e.Memory(tricky); !strings.Contains(m.Content, "\x1b[2J") || !strings.Contains(m.Content, "\n") {
		t.Fatalf("tricky content changed: %q", m.Content)
	}

	// A curator edits HOT.md: one rule reworded, one line added by hand.
	clk.T = tierstest.Epoch.Add(time.Hour)
	hotPath := filepath.Join(dir1, "HOT.md")
	lines := strings.Split(string(tree1["HOT.md"]), "\n")
	first := lines[2]
	var trailer struct {
		ID int64 `json:"id"`
	}
	i := strings.LastIndex(first, " <!-- mt ")
	_ = json.Unmarshal([]byte(strings.TrimSuffix(first[i+len(" <!-- mt "):], " -->")), &trailer)
	lines[2] = "- Code first, then a short explanation." + first[i:]
	lines = append(lines[:len(lines)-1], "- Never send Markdown tables to Discord; send an image.", "")
	if err := os.WriteFile(hotPath, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = tiers.ImportMarkdown(ctx, e, dir1)
	if err != nil {
		t.Fatal(err)
	}
	// The reworded rule is updated; the hand-written HOT line waits for
	// the curator as a proposal for a HOT rule (seed 002: a human confirms).
	if res.Updated != 1 || res.Inserted != 0 || res.Proposed != 1 || res.Batch != "import-20260601T100000Z-2" {
		t.Fatalf("import after edit = %+v", res)
	}
	adds, _ := e.Store().FindProposals(ctx, engine.ProposalFilter{Kind: curate.ProposalAdd, Status: engine.ProposalPending})
	if len(adds) != 1 || !strings.Contains(string(adds[0].Verdict), `"type":"rule"`) || !strings.Contains(string(adds[0].Verdict), "Discord") {
		t.Fatalf("add proposals = %+v", adds)
	}
	if m, _ := e.Memory(trailer.ID); m.Content != "Code first, then a short explanation." || m.Tier != engine.TierHot {
		t.Fatalf("edited memory %d = %+v", trailer.ID, m)
	}
	audit, _ := e.Store().AuditForBatch(ctx, res.Batch)
	if len(audit) != 1 {
		t.Fatalf("import audit rows = %d, want 1", len(audit))
	}
	if n, err := e.Store().RollbackBatch(ctx, res.Batch, "rollback"); err != nil || n != 1 {
		t.Fatalf("rollback import = %d, %v", n, err)
	}
	_ = e.Refresh(ctx)
	if m, _ := e.Memory(trailer.ID); m.Content == "Code first, then a short explanation." {
		t.Fatalf("rollback kept the edit")
	}

	// A memory quarantined after the export is not resurrected by
	// importing the old files.
	m, _ := e.Memory(tricky)
	m.Status, m.OrigType = engine.StatusQuarantined, m.Type
	if err := e.Update(ctx, func(q engine.Queries) error {
		return q.UpdateMemory(ctx, &m, engine.Actor{Name: "curator"}, "quarantine")
	}); err != nil {
		t.Fatal(err)
	}
	res, err = tiers.ImportMarkdown(ctx, e, dir2)
	if err != nil || len(res.Skipped) != 1 || !strings.HasPrefix(res.Skipped[0], "domains/code.md:3: memory") {
		t.Fatalf("import over a quarantined memory = %+v, %v", res, err)
	}
	if m, _ := e.Memory(tricky); m.Status != engine.StatusQuarantined {
		t.Fatalf("import restored quarantined memory %d", tricky)
	}
}
