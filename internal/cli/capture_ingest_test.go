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
)

// runMemtrace runs the CLI in-process and returns exit code, stdout, stderr.
func runMemtrace(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestIngestReportsBadLinesAndIngestsTheRest(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	input := strings.Join([]string{
		`{"id":"x1","session":"s1","role":"user","text":"I prefer tabs over spaces in every Go file we write together.","at":"2026-03-01T09:00:00Z"}`,
		`{"id":"x2","session":"s1","role":"assistant","text":"HEARTBEAT_OK","at":"2026-03-01T09:01:00Z"}`,
		`{"id":"x3","session":"s1","role":"user","text":"broken line`,
		`{"id":"x4","session":"s1","role":"user","at":"2026-03-01T09:03:00Z"}`,
		`{"id":"x5","session":"s1","role":"tool","text":"Error: ENOENT: no such file or directory, open 'a.txt'","at":1772355780}`,
		`{"id":"x6","session":"s1","role":"user","text":"저는 매일 아침 7시에 한강에서 5킬로미터를 달려요.","at":"2026-03-01T09:05:00Z"}`,
		`{"id":"x7","session":"s1","role":"user","text":"ok","at":"2026-03-01T09:06:00Z"}`,
	}, "\n")
	code, out, errOut := runMemtrace(t, input, "--db", db, "ingest", "-", "--json")
	// The good lines are committed; the exit status says not all went in.
	if code != 1 || !strings.Contains(errOut, "2 lines of standard input were not ingested") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var st engine.IngestStats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("not the IngestStats JSON: %v\n%s", err, out)
	}
	if st.Offered != 5 || st.Stored != 2 || st.Reinforced != 0 || st.Dropped["l1"] != 3 || st.Dropped["l2"] != 0 || st.Dropped["judge"] != 0 {
		t.Errorf("stats %+v", st)
	}
	if len(st.Errors) != 2 || st.Errors[0].Line != 3 || st.Errors[1].Line != 4 || !strings.Contains(st.Errors[1].Error, `missing "text"`) {
		t.Errorf("errors %+v", st.Errors)
	}
	var raw map[string]json.RawMessage
	json.Unmarshal([]byte(out), &raw)
	for _, k := range []string{"offered", "stored", "reinforced", "dropped", "skipped", "errors"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("--json lacks %q", k)
		}
	}

	// Re-running the same file is safe: nothing new, every message
	// skipped, the same lines reported, and the exit still 1.
	code, out, errOut = runMemtrace(t, input, "--db", db, "ingest", "-")
	if code != 1 || !strings.Contains(out, "5 offered, 0 stored, 0 reinforced, 0 dropped, 5 skipped") || !strings.Contains(errOut, "line 3: ") || strings.Contains(out, "line 3: ") {
		t.Errorf("re-ingest: %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	// and the JSON says so: offered = stored + reinforced + dropped + skipped.
	code, out, _ = runMemtrace(t, input, "--db", db, "ingest", "-", "--json")
	st = engine.IngestStats{}
	if err := json.Unmarshal([]byte(out), &st); code != 1 || err != nil || st.Offered != 5 || st.Skipped != 5 || st.Stored != 0 {
		t.Errorf("re-ingest --json: exit %d, %v, %+v", code, err, st)
	}

	code, out, _ = runMemtrace(t, "", "--db", db, "list", "--json", "--kind", "fact")
	var lo struct {
		Memories []engine.Memory `json:"memories"`
	}
	if err := json.Unmarshal([]byte(out), &lo); err != nil || code != 0 {
		t.Fatalf("list --json: %d %v\n%s", code, err, out)
	}
	keys := []string{}
	for _, m := range lo.Memories {
		keys = append(keys, m.Key+":"+m.Type)
	}
	if strings.Join(keys, ",") != "x1:preference,x6:habit" {
		t.Errorf("list: %v", keys)
	}
}

func TestAddListShow(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	code, out, errOut := runMemtrace(t, "", "--db", db, "add", "--kind", "fact", "--type", "health", "--importance", "0.9", "--key", "k1", "Allergic to peanuts \x1b]0;pwned\x07")
	if code != 0 || !strings.Contains(out, "added memory 1") {
		t.Fatalf("add: %d %s %s", code, out, errOut)
	}
	if code, _, errOut = runMemtrace(t, "", "--db", db, "add", "--key", "k1", "again"); code != 1 || !strings.Contains(errOut, "already memory 1") {
		t.Errorf("duplicate key: %d %s", code, errOut)
	}
	if code, _, _ = runMemtrace(t, "", "--db", db, "add", "--importance", "2", "x"); code != 2 {
		t.Errorf("bad importance exit %d", code)
	}
	code, out, _ = runMemtrace(t, "", "--db", db, "list", "--type", "health")
	if code != 0 || !strings.Contains(out, "k1") || strings.Contains(out, "\x1b") {
		t.Errorf("list: %q", out)
	}
	code, out, _ = runMemtrace(t, "", "--db", db, "show", "key:k1", "--json")
	var so struct {
		Memory engine.Memory       `json:"memory"`
		Audit  []engine.AuditEntry `json:"audit"`
	}
	if err := json.Unmarshal([]byte(out), &so); err != nil || code != 0 {
		t.Fatalf("show: %v %s", err, out)
	}
	if so.Memory.Importance != 0.9 || so.Memory.Type != "health" || len(so.Audit) != 1 || so.Audit[0].Actor != "curator" || so.Audit[0].Action != "create" {
		t.Errorf("show: %+v", so)
	}
	if code, _, errOut = runMemtrace(t, "", "--db", db, "show", "99"); code != 1 || !strings.Contains(errOut, "memtrace list") {
		t.Errorf("show missing: %d %s", code, errOut)
	}
}

func TestDemoNoTUI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "demo.db")
	code, out, errOut := runMemtrace(t, "", "demo", "--no-tui", "--db", db)
	if code != 0 {
		t.Fatalf("demo: %d %s", code, errOut)
	}
	if !strings.Contains(out, "demo database: "+db) || !strings.Contains(out, "492 offered") || !strings.Contains(out, "candidate") {
		t.Errorf("summary:\n%s", out)
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatal(err)
	}
	// A second run refuses to touch an existing file.
	if code, _, errOut = runMemtrace(t, "", "demo", "--no-tui", "--db", db); code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("second demo: %d %s", code, errOut)
	}
}

// TestIngestBadLineExitAndNoEmptyDatabase: one refused line makes the exit
// non-zero with the line on stderr and the good lines ingested;
// --allow-bad-lines makes it zero; a file with no good line leaves no new
// database behind, and an existing one untouched.
func TestIngestBadLineExitAndNoEmptyDatabase(t *testing.T) {
	good := `{"id":"g1","session":"s1","role":"user","text":"I keep my bike in the garage behind the bakery on Elm Street.","at":"2026-03-01T09:00:00Z"}`
	good2 := `{"id":"g2","session":"s1","role":"user","text":"제 자전거는 빵집 뒤 차고에 있어요, 매주 토요일에 타요.","at":"2026-03-01T09:01:00Z"}`
	bad := `{"id":"b1","session":"s1","role":"user","text":"cut off`
	dir := t.TempDir()

	db := filepath.Join(dir, "one-bad.db")
	code, out, errOut := runMemtrace(t, good+"\n"+bad+"\n"+good2+"\n", "--db", db, "ingest", "-")
	if code != 1 || !strings.Contains(errOut, "line 2: ") || strings.Contains(out, "line 2: ") || !strings.Contains(out, "2 offered, 2 stored") {
		t.Fatalf("one bad line: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, out, _ = runMemtrace(t, "", "--db", db, "list", "--json")
	if code != 0 || !strings.Contains(out, "Elm Street") || !strings.Contains(out, "빵집") {
		t.Errorf("the good lines are not in the database: %d\n%s", code, out)
	}

	db2 := filepath.Join(dir, "allowed.db")
	code, _, errOut = runMemtrace(t, good+"\n"+bad+"\n", "--db", db2, "ingest", "-", "--allow-bad-lines")
	if code != 0 || !strings.Contains(errOut, "line 2: ") || !strings.Contains(errOut, "1 line of standard input was not ingested") {
		t.Errorf("--allow-bad-lines: exit %d\n%s", code, errOut)
	}

	empty := filepath.Join(dir, "never.db")
	code, _, errOut = runMemtrace(t, bad+"\nnot json\n", "--db", empty, "ingest", "-")
	if code != 1 || !strings.Contains(errOut, "not kept") {
		t.Errorf("every line bad: exit %d\n%s", code, errOut)
	}
	for _, p := range []string{empty, empty + "-wal", empty + "-shm"} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("ingest of nothing left %s behind", p)
		}
	}
	// An existing database is never removed, even when nothing went in.
	code, _, _ = runMemtrace(t, bad+"\n", "--db", db, "ingest", "-")
	if _, err := os.Stat(db); code != 1 || err != nil {
		t.Errorf("every line bad on an existing database: exit %d, %v", code, err)
	}
}
