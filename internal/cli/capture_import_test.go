package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/store"
)

// runCLI runs memtrace in-process and returns its stdout; it fails the test
// on a non-zero exit.
func mustRunCLI(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("memtrace %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

func importJSON(t *testing.T, args ...string) ImportStats {
	t.Helper()
	var s ImportStats
	// A run with bad lines exits 1 after printing its counts: the counts
	// are what these tests read.
	out, stderr, code := runCLI(t, append(args, "--json")...)
	if code != 0 && (code != 1 || !strings.Contains(stderr, "bad line(s) were not imported")) {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("import --json: %v\n%s", err, out)
	}
	return s
}

// dbSnapshot is everything an import writes: memories, captures and
// corrections, as JSON.
func dbSnapshot(t *testing.T, path string) string {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ms, _, err := db.FindMemories(ctx, engine.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	cs, n, err := db.FindCaptures(ctx, engine.CaptureFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var corr []*engine.Correction
	for _, st := range []string{engine.CorrectionPending, engine.CorrectionCandidate, engine.CorrectionPromoted, engine.CorrectionRejected} {
		c, err := db.FindCorrections(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		corr = append(corr, c...)
	}
	b, err := json.MarshalIndent(map[string]any{"memories": ms, "captures": cs, "captures_total": n, "corrections": corr}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestImportClaudeCodeTwiceIsIdempotent(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "cc.db")
	fixture := filepath.Join("testdata", "claude-code", "session.jsonl")

	first := importJSON(t, "--db", dbPath, "import", "claude-code", fixture)
	if first.Files != 1 || first.Skipped != 0 || len(first.Errors) != 0 {
		t.Fatalf("first import: %+v", first)
	}
	dropped := 0
	for _, n := range first.Dropped {
		dropped += n
	}
	if first.Offered != first.Stored+first.Reinforced+dropped || first.Stored == 0 || dropped == 0 {
		t.Fatalf("first import counts do not add up: %+v", first)
	}
	once := dbSnapshot(t, dbPath)

	second := importJSON(t, "--db", dbPath, "import", "claude-code", fixture)
	if second.Offered != 0 || second.Stored != 0 || second.Reinforced != 0 || second.Skipped != first.Offered {
		t.Fatalf("second import: %+v, want everything skipped (%d)", second, first.Offered)
	}
	if twice := dbSnapshot(t, dbPath); twice != once {
		t.Fatalf("the second import changed the database")
	}

	// What the fixture teaches is kept; the tool noise is not.
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
	var port, prefKO bool
	for _, m := range ms {
		if m.Role == "tool" {
			t.Errorf("tool output stored as memory %d: %q", m.ID, m.Content)
		}
		if strings.Contains(m.Content, "5433") && m.Role == "user" {
			port = true
		}
		if strings.HasPrefix(m.Content, "테스트는 항상 테이블 기반 테스트로") {
			prefKO = true
		}
		if m.Scope != "project:shopapi" {
			t.Errorf("memory %d scope %q, want the transcript's project", m.ID, m.Scope)
		}
	}
	if !port || !prefKO {
		t.Fatalf("facts from the transcript missing (port %v, Korean preference %v)", port, prefKO)
	}
}

func TestImportJSONLWithoutIDsTwice(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "j.db")
	in := filepath.Join(dir, "m.jsonl")
	lines := `{"session":"a","role":"user","text":"My sister Minji lives in Busan and works as a nurse at the city hospital.","at":"2026-01-05T10:00:00Z"}
{"session":"a","role":"user","text":"저는 매주 토요일 아침에 한강에서 10킬로미터를 달려요.","at":"2026-01-05T10:01:00Z"}
not json
{"session":"a","role":"user","text":"My sister Minji lives in Busan and works as a nurse at the city hospital.","at":"2026-01-05T10:00:00Z"}
`
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	first := importJSON(t, "--db", dbPath, "import", "jsonl", in)
	if first.Offered != 2 || first.Skipped != 1 || len(first.Errors) != 1 || first.Errors[0].Line != 3 {
		t.Fatalf("first: %+v", first)
	}
	once := dbSnapshot(t, dbPath)
	second := importJSON(t, "--db", dbPath, "import", "jsonl", in)
	if second.Offered != 0 || second.Skipped != 3 {
		t.Fatalf("second: %+v", second)
	}
	// It wrote nothing, so it names no batch to roll back (the first does).
	if first.Batch == "" || second.Batch != "" {
		t.Fatalf("batches: first %q, second %q (a run that wrote nothing has none)", first.Batch, second.Batch)
	}
	if dbSnapshot(t, dbPath) != once {
		t.Fatal("second import changed the database")
	}
}

func TestImportLoCoMo(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "l.db")
	in := filepath.Join(dir, "locomo.json")
	sample := `[{"sample_id":"conv-t","conversation":{"speaker_a":"Caroline","speaker_b":"Melanie",
 "session_1_date_time":"1:56 pm on 8 May, 2023",
 "session_1":[{"speaker":"Caroline","dia_id":"D1:1","text":"I went to a LGBTQ support group yesterday and it was so powerful."},
              {"speaker":"Melanie","dia_id":"D1:2","text":"I painted a sunrise over the lake last week, it was my first landscape painting."}]}}]`
	if err := os.WriteFile(in, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	s := importJSON(t, "--db", dbPath, "import", "locomo", in)
	if s.Offered != 2 || s.Skipped != 0 {
		t.Fatalf("import: %+v", s)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, id := range []string{"conv-t:D1:1", "conv-t:D1:2"} {
		if ok, err := db.CaptureExists(ctx, id); err != nil || !ok {
			t.Fatalf("capture %s not recorded: %v", id, err)
		}
	}
	again := importJSON(t, "--db", dbPath, "import", "locomo", in)
	if again.Offered != 0 || again.Skipped != 2 {
		t.Fatalf("second import: %+v", again)
	}
}

func TestImportUsage(t *testing.T) {
	var out, errb bytes.Buffer
	for _, args := range [][]string{
		{"import"},
		{"import", "csv", "x"},
		{"import", "jsonl"},
		{"import", "locomo", "-"},
	} {
		out.Reset()
		errb.Reset()
		if code := run(context.Background(), append([]string{"--db", filepath.Join(t.TempDir(), "u.db")}, args...), strings.NewReader(""), &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)\n%s", args, code, errb.String())
		}
	}
	code := run(context.Background(), []string{"--db", filepath.Join(t.TempDir(), "u.db"), "import", "claude-code", filepath.Join(t.TempDir(), "missing")}, strings.NewReader(""), &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "cannot read") {
		t.Fatalf("missing path: exit %d %s", code, errb.String())
	}
}
