package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/store"
)

// TestImportClaudeCodeStoresNoHarness imports the Claude Code fixture in
// the on-disk format (testdata/claude-code/harness, see the importer's
// tests for its lines) and checks by line uuid that every genuine user
// statement became a memory, with the harness's markup removed, and that
// nothing Claude Code wrote itself — markup, interrupts, subagent traffic,
// the compaction summary — became one.
func TestImportClaudeCodeStoresNoHarness(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"garden-app/.git", "garden-app/web/src", "transcripts"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(root, "transcripts")
	for _, name := range []string{"session.jsonl", "agent-5f2a9c1e.jsonl"} {
		b, err := os.ReadFile(filepath.Join("testdata/claude-code/harness", name+".tmpl"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.ReplaceAll(string(b), "@ROOT@", root)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dbPath := filepath.Join(t.TempDir(), "cc.db")
	st := importJSON(t, "import", "claude-code", dir, "--db", dbPath)
	if st.Files != 2 || len(st.Errors) != 0 {
		t.Fatalf("import: %+v", st)
	}
	uuid := func(n string) string { return "c1a00000-0000-4000-8000-" + strings.Repeat("0", 12-len(n)) + n }

	ctx := context.Background()
	db, err := store.Open(ctx, dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ms, _, err := db.FindMemories(ctx, engine.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]*engine.Memory{}
	for _, m := range ms {
		byKey[m.Key] = m
		for _, mark := range []string{"<system-reminder", "<ide_", "<bash-", "<task-notification", "<command-", "<user-prompt-submit-hook",
			"[Request interrupted", "This session is being continued", "I prefer a short list", "reminder queue"} {
			if strings.Contains(m.Content, mark) {
				t.Errorf("memory %d (key %s) holds harness or sidechain text %q: %q", m.ID, m.Key, mark, m.Content)
			}
		}
		if m.Scope != "project:garden-app" && m.Scope != "global" {
			t.Errorf("memory %d scope %s: the session is one project, garden-app", m.ID, m.Scope)
		}
	}
	for _, n := range []string{"1", "2", "9", "10", "11", "13", "15", "18", "19", "23", "50", "51", "52", "53"} {
		if m, ok := byKey[uuid(n)]; ok {
			t.Errorf("line %s (harness, meta, sidechain or compact summary) became memory %d: %q", n, m.ID, m.Content)
		}
	}
	for n, want := range map[string]string{
		"3":  "We're building garden-app",
		"6":  "The web client lives in web/",
		"7":  "Always use pnpm for the web client, never npm.",
		"16": "The watering reminders must go out at 7 am",
		"24": "물 주기 알림은 사용자의 현지 시간 기준으로",
		"25": "Never store reminder times in local time",
		"26": "the title shows the plant's Korean name first",
		"27": "Our staging server is staging.garden.example",
	} {
		m, ok := byKey[uuid(n)]
		if !ok {
			cs, _, _ := db.FindCaptures(ctx, engine.CaptureFilter{Text: want})
			for _, c := range cs {
				t.Logf("capture of line %s: %s %s %s", n, c.Outcome, c.DroppedBy, c.Reason)
			}
			t.Errorf("genuine statement on line %s was not kept as a memory", n)
			continue
		}
		if !strings.Contains(m.Content, want) {
			t.Errorf("line %s: memory %q, want it to hold %q", n, m.Content, want)
		}
	}
	// The branch is kept on the capture.
	cs, _, err := db.FindCaptures(ctx, engine.CaptureFilter{Text: "물 주기 알림"})
	if err != nil || len(cs) != 1 || cs[0].Branch != "feature/reminders" {
		t.Fatalf("capture of line 24: %+v %v, want branch feature/reminders", cs, err)
	}
	// The pnpm rule was counted as a lesson.
	if c, err := db.GetCorrection(ctx, "concept:pnpm"); err != nil || c.Count != 1 {
		cands, _ := db.FindCorrections(ctx, engine.CorrectionPending)
		for _, c := range cands {
			t.Logf("lesson %s: %q", c.LessonKey, c.Lesson)
		}
		t.Errorf("pnpm lesson: %+v %v", c, err)
	}
}
