package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
)

// One bad field cannot block an ingest (#32): a middle line whose project
// cannot be a scope or a file name is reported by its number, the lines
// around it are ingested, the exit status is 1, and a re-run ingests
// nothing new and reports the same line — for every kind of bad name.
func TestIngestRefusesABadProjectLineAndIngestsTheRest(t *testing.T) {
	for _, bad := range []string{"a/b", "..", `a\b`, "x:y", "/abs", strings.Repeat("p", 300), "x\x1b[2Jy", "tab\there"} {
		t.Run(fmt.Sprintf("%q", bad), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "m.db")
			project, _ := json.Marshal(bad)
			input := strings.Join([]string{
				`{"id":"p1","session":"s1","role":"user","text":"My sister Minji lives in Busan and works as a nurse.","at":"2026-03-01T09:00:00Z"}`,
				`{"id":"p2","session":"s1","role":"user","text":"We deploy the payments service every Thursday afternoon.","project":` + string(project) + `,"at":"2026-03-01T09:01:00Z"}`,
				`{"id":"p3","session":"s1","role":"user","text":"저는 매주 토요일 아침에 한강에서 10킬로미터를 달려요.","at":"2026-03-01T09:02:00Z"}`,
			}, "\n")
			for run := 1; run <= 2; run++ {
				code, out, errOut := runMemtrace(t, input, "--db", db, "ingest", "-", "--json")
				var st engine.IngestStats
				if err := json.Unmarshal([]byte(out), &st); err != nil {
					t.Fatalf("run %d: not the IngestStats JSON: %v\n%s", run, err, out)
				}
				if code != 1 || !strings.Contains(errOut, "1 line of standard input was not ingested") {
					t.Fatalf("run %d: exit %d: %s", run, code, errOut)
				}
				if len(st.Errors) != 1 || st.Errors[0].Line != 2 || !strings.Contains(st.Errors[0].Error, "is not a project name") {
					t.Fatalf("run %d: errors %+v", run, st.Errors)
				}
				if strings.ContainsRune(st.Errors[0].Error, 0x1b) || strings.ContainsRune(errOut, 0x1b) {
					t.Fatalf("run %d: the report carries a raw escape: %q", run, st.Errors[0].Error)
				}
				wantStored, wantSkipped := 2, 0
				if run == 2 {
					wantStored, wantSkipped = 0, 2
				}
				if st.Offered != 2 || st.Stored != wantStored || st.Skipped != wantSkipped {
					t.Fatalf("run %d: %+v", run, st)
				}
			}
		})
	}
}
