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
	if code != 1 || !strings.Contains(errOut, "2 line(s) of standard input were not ingested") {
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
	code, out, _ = runMemtrace(t, input, "--db", db, "ingest", "-")
	if code != 1 || !strings.Contains(out, "5 offered, 0 stored, 0 reinforced, 0 dropped, 5 skipped") || !strings.Contains(out, "line 3: ") {
		t.Errorf("re-ingest: %d\n%s", code, out)
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
