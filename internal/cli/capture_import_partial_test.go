package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func decodeImport(t *testing.T, out string) ImportStats {
	t.Helper()
	var s ImportStats
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("not the import JSON: %v\n%s", err, out)
	}
	return s
}

// A claude-code directory with a file that cannot be imported (here a
// symbolic link, which is not followed, and a file with no message) imports
// every other file, prints its counts and exits non-zero naming the files.
func TestImportClaudeCodeReportsABadFileAndImportsTheRest(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "projects")
	if err := os.MkdirAll(filepath.Join(tree, "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile("testdata/claude-code/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a/one.jsonl", "b/two.jsonl"} {
		os.MkdirAll(filepath.Dir(filepath.Join(tree, p)), 0o755)
		// The same transcript twice would be skipped as already captured:
		// give the second its own session.
		body := strings.ReplaceAll(string(good), "7f3c2a9e", strings.Repeat(p[:1], 8))
		body = strings.ReplaceAll(body, "3b6e0000", strings.Repeat(p[:1], 8))
		if err := os.WriteFile(filepath.Join(tree, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(dir, "secret.jsonl")
	os.WriteFile(secret, good, 0o600)
	if err := os.Symlink(secret, filepath.Join(tree, "a", "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(tree, "b", "junk.jsonl"), []byte("not json\n{\"also\": \"not a line\"\n"), 0o644)

	db := filepath.Join(dir, "m.db")
	code, out, errOut := runMemtrace(t, "", "--db", db, "import", "claude-code", tree, "--json")
	if code == 0 {
		t.Fatalf("an import with failed files exited 0: %s", errOut)
	}
	s := decodeImport(t, out)
	if s.Files != 4 || s.FailedFiles != 2 || s.Offered == 0 || s.Stored == 0 || s.Batch == "" {
		t.Fatalf("stats = %+v", s)
	}
	var single ImportStats
	{
		code, out, _ := runMemtrace(t, "", "--db", filepath.Join(dir, "one.db"), "import", "claude-code", filepath.Join(tree, "a", "one.jsonl"), "--json")
		if code != 0 {
			t.Fatalf("one file: %d", code)
		}
		single = decodeImport(t, out)
	}
	if s.Offered != 2*single.Offered {
		t.Errorf("offered %d from two good files, one alone offers %d: a file was skipped", s.Offered, single.Offered)
	}
	msgs := map[string]string{}
	for _, e := range s.Errors {
		if e.Line == 0 {
			msgs[filepath.Base(e.File)] = e.Error
		}
	}
	if !strings.Contains(msgs["link.jsonl"], "symbolic link") || !strings.Contains(msgs["junk.jsonl"], "no message could be read") {
		t.Fatalf("file problems = %+v", s.Errors)
	}
	if !strings.Contains(errOut, "2 of 4 file(s) could not be imported") || !strings.Contains(errOut, "committed in batch "+s.Batch) {
		t.Errorf("stderr = %q", errOut)
	}
	for _, e := range s.Errors {
		if strings.Contains(e.Error, "engine.") || strings.Contains(e.Error, "Go value") {
			t.Errorf("a message names a Go type: %s", e.Error)
		}
	}
	// The text output prints its counts too.
	code, out, _ = runMemtrace(t, "", "--db", filepath.Join(dir, "text.db"), "import", "claude-code", tree)
	if code == 0 || !strings.Contains(out, "offered") || !strings.Contains(out, "link.jsonl: is a symbolic link") {
		t.Errorf("text import = %d\n%s", code, out)
	}
}

// A JSONL file whose every line is bad exits non-zero; a byte order mark
// is accepted; the messages name JSON kinds, never Go types.
func TestImportJSONLAllBadBOMAndMessages(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("\"just a string\"\n[1,2]\n{\"session\": 3}\n"), 0o644)
	code, out, _ := runMemtrace(t, "", "--db", filepath.Join(dir, "m.db"), "import", "jsonl", bad, "--json")
	s := decodeImport(t, out)
	if code == 0 || s.FailedFiles != 1 || len(s.Errors) != 4 {
		t.Fatalf("all-bad file = %d %+v", code, s)
	}
	for _, e := range s.Errors {
		if strings.Contains(e.Error, "engine.") || strings.Contains(e.Error, "rawMessage") || strings.Contains(e.Error, "Go ") {
			t.Errorf("message names a Go type: %q", e.Error)
		}
	}
	if !strings.Contains(s.Errors[0].Error, "the line is a JSON string, not an object") {
		t.Errorf("line 1: %q", s.Errors[0].Error)
	}

	bom := filepath.Join(dir, "bom.jsonl")
	os.WriteFile(bom, append([]byte("\xef\xbb\xbf"), []byte(storable("bom", 2))...), 0o644)
	code, out, errOut := runMemtrace(t, "", "--db", filepath.Join(dir, "m.db"), "import", "jsonl", bom, "--json")
	s = decodeImport(t, out)
	if code != 0 || s.Offered != 2 || len(s.Errors) != 0 {
		t.Fatalf("BOM file = %d %+v %s", code, s, errOut)
	}
}

// A LoCoMo file with one bad turn imports every other turn and says which
// turn it skipped, with its counts.
func TestImportLoCoMoSkipsABadTurn(t *testing.T) {
	dir := t.TempDir()
	in := `[{"sample_id":"c1","conversation":{"speaker_a":"A","speaker_b":"B",
		"session_1_date_time":"1:56 pm on 8 May, 2023",
		"session_1":[{"speaker":"A","dia_id":"D1:1","text":"I adopted a beagle puppy named Toast last weekend from the shelter."},
			{"speaker":"B","text":"a turn without its dia_id"},
			{"speaker":"A","dia_id":"D1:3","text":"My sister is moving to Lisbon in the spring for her new design job."}],
		"session_2_date_time":"2:00 pm on 9 May, 2023",
		"session_2":[{"speaker":"B","dia_id":"D2:1","text":"We finally booked the cabin in Gangneung for the August family trip."}]}}]`
	f := filepath.Join(dir, "locomo.json")
	os.WriteFile(f, []byte(in), 0o644)
	code, out, errOut := runMemtrace(t, "", "--db", filepath.Join(dir, "m.db"), "import", "locomo", f, "--json")
	s := decodeImport(t, out)
	if code != 0 || s.Offered != 3 || len(s.Errors) != 1 || !strings.Contains(s.Errors[0].Error, "c1 session_1 turn 2 has no dia_id") {
		t.Fatalf("locomo = %d %+v %s", code, s, errOut)
	}
}

// ingest too: a file with no good line exits non-zero, with its counts.
func TestIngestAllBadLinesExitsNonZero(t *testing.T) {
	code, out, errOut := runMemtrace(t, "\"x\"\n[1]\n", "--db", filepath.Join(t.TempDir(), "m.db"), "ingest", "-", "--json")
	if code == 0 || !strings.Contains(errOut, "no message of standard input could be read") || !strings.Contains(out, `"offered": 0`) {
		t.Fatalf("ingest of bad lines = %d %q %q", code, out, errOut)
	}
}
