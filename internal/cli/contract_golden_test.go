package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// contractDir holds the byte-exact goldens of the --json contracts and the
// fixture they are recorded on (the tests run from the module root).
const contractDir = "internal/cli/testdata/contracts"

// contractClock is the clock the golden database is pinned to before its
// first capture, so batch ids, audit times and every "now" are fixed.
const contractClock = "2026-06-12T09:00:00Z"

// contractTiming matches the value of a timing field (*_ms, duration,
// elapsed, took), the only output that differs between two runs.
var contractTiming = regexp.MustCompile(`("(?:[A-Za-z0-9_]*_ms|[A-Za-z0-9_]*duration|[A-Za-z0-9_]*elapsed|took)"\s*:\s*)(?:-?[0-9][0-9.eE+-]*|"[^"]*")`)

// normaliseTimings sets every timing value to 0 and leaves every other byte.
func normaliseTimings(b []byte) []byte {
	return contractTiming.ReplaceAll(b, []byte("${1}0"))
}

// contractStep is one command of the golden session; golden "" runs it for
// its effect only (it must still exit 0).
type contractStep struct {
	golden string
	args   []string
}

// contractSteps is a session a script would run: build the database
// through the CLI, pin its clock, capture a bilingual conversation (a
// correction, a moved home and a changed car, which supersede), then read
// it back through every cheap --json command. The steps share one database
// and run in order.
func contractSteps(db string) []contractStep {
	fx := func(name string) string { return filepath.Join(contractDir, name) }
	c := func(args ...string) []string { return append([]string{"--db", db}, args...) }
	return []contractStep{
		{"", c("ingest", "-", "--json")}, // creates the empty database, so its clock can be pinned first
		{"", c("clock", contractClock)},
		{"ingest.json", c("ingest", fx("fixture_conversation.jsonl"), "--json")},
		{"ingest_again.json", c("ingest", fx("fixture_conversation.jsonl"), "--json")},
		{"ingest_errors_reinforced.json", c("ingest", fx("fixture_more.jsonl"), "--json")},
		{"list.json", c("list", "--json")},
		{"list_corrections.json", c("list", "--type", "correction", "--json")},
		{"recall_en_home.json", c("recall", "where do I live now?", "--json")},
		{"recall_ko_peanut.json", c("recall", "땅콩 들어간 음식 추천해도 돼?", "--json")},
		{"recall_last_week.json", c("recall", "what did I say last week?", "--json")},
		{"recall_at_plus30d.json", c("recall", "충주 사과", "--at", "+30d", "--json")},
		{"recall_at_date_superseded.json", c("recall", "Avante car", "--at", "2026-06-05", "--include-superseded", "--json")},
		{"recall_project_k3.json", c("recall", "YAML tabs gofmt", "--project", "memtrace", "--k", "3", "--budget", "300", "--json")},
		{"show_superseded.json", c("show", "key:c14", "--json")},
		{"forecast.json", c("forecast", "--json")},
		{"forecast_one.json", c("forecast", "key:c08", "--json")},
		{"compare.json", c("compare", "충주 사과", "--at-b", "+60d", "--json")},
		{"audit.json", c("audit", "--json")},
		{"review_list.json", c("review", "list", "--json")},
		{"cleanup_dry_run.json", c("cleanup", "--dry-run", "--json")},
		{"heartbeat_dry_run.json", c("heartbeat", "--dry-run", "--json")},
		{"heartbeat_at_plus120d.json", c("heartbeat", "--at", "+120d", "--json")},
		{"proposals.json", c("proposals", "--json")},
		{"approve_all.json", c("approve", "--all-pending", "--json")},
		{"list_archived.json", c("list", "--status", "archived", "--json")},
		{"batches.json", c("batches", "--json")},
		{"rollback.json", c("rollback", "approve-20260612T090000Z-4", "--yes", "--json")},
		{"proposals_after_rollback.json", c("proposals", "--json")},
		{"golden_run.json", []string{"golden", "run", fx("fixture_set.yaml"), "--json"}},
		// A policy batch and its rollback, listed like every other batch.
		{"", c("policy", "set", fx("fixture_policy.yaml"))},
		{"batches_policy.json", c("batches", "--limit", "2", "--json")},
		{"", c("rollback", "policy-20260612T090000Z-5", "--yes")},
		{"batches_policy_rollback.json", c("batches", "--limit", "3", "--json")},
	}
}

// contractExit is the exit status of the steps that do not end with 0: an
// ingest with bad lines prints its counts and exits 1.
var contractExit = map[string]int{"ingest_errors_reinforced.json": 1}

// The recorded --json contracts, byte for byte but for timings: a
// refactoring (issue 28 splits engine/) must leave every one identical.
// After a deliberate change of a contract, rerecord and read the diff:
//
//	go test ./internal/cli -run TestContractGoldens -update-contracts
func TestContractGoldens(t *testing.T) {
	db := filepath.Join(t.TempDir(), "contracts.db")
	for _, s := range contractSteps(db) {
		out, stderr, code := runCLI(t, s.args...)
		if want := contractExit[s.golden]; code != want {
			t.Fatalf("%s: exit %d (want %d): %s", strings.Join(s.args, " "), code, want, stderr)
		}
		if s.golden != "" {
			checkContractGolden(t, s.golden, s.args, []byte(out))
		}
	}
}

// checkContractGolden compares out (timings normalised) with the golden
// file name, or rewrites it under -update-contracts.
func checkContractGolden(t *testing.T, name string, args []string, out []byte) {
	t.Helper()
	got := normaliseTimings(out)
	path := filepath.Join(contractDir, name)
	if *updateContracts {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (record it with go test ./internal/cli -run TestContractGoldens -update-contracts)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("memtrace %s: output differs from %s at %s", strings.Join(args, " "), path, firstDifference(want, got))
	}
}

// firstDifference says where got first departs from want: the line, and
// both versions of it.
func firstDifference(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g || i >= len(wl) || i >= len(gl) {
			return fmt.Sprintf("line %d:\n  want %s\n  got  %s", i+1, strings.TrimSpace(w), strings.TrimSpace(g))
		}
	}
	return "the end (lengths differ)"
}
