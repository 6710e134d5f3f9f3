package cli

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A flag that would mean nothing beside the others given — the list's --n
// on one memory's forecast, the --review judge's --model without --review,
// --binary without --one-shot, --otel-content with no span exported,
// --wording on a proposal that is not a promotion — is a
// usage error saying what to do, not silently dropped. The same flags in
// their place still run.
func TestFlagsThatWouldBeIgnoredAreRefused(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	db := demoDB(t)
	otel := filepath.Join(t.TempDir(), "spans.jsonl")
	for _, c := range []struct {
		args []string
		want string // "" : it runs (exit 0)
	}{
		{[]string{"forecast", "key:m0216", "--n", "3"}, "takes no --n"},
		{[]string{"forecast", "--n", "3"}, ""},
		{[]string{"forecast", "key:m0216"}, ""},
		{[]string{"heartbeat", "--dry-run", "--model", "qwen2.5:0.5b"}, "--model is for the judge of --review"},
		{[]string{"heartbeat", "--dry-run", "--timeout", "5s"}, "--timeout is for the judge of --review"},
		{[]string{"heartbeat", "--dry-run"}, ""},
		{[]string{"bench", "open", "--binary", "/bin/true", "--n", "10", "--opens", "1"}, "--binary goes with --one-shot"},
		{[]string{"bench", "open", "--one-shot", "--opens", "1"}, "--opens is for the synthetic databases"},
		{[]string{"recall", "충주 사과", "--otel-content"}, "--otel-content puts texts into the exported spans, and none are exported: add --otel FILE"},
		{[]string{"recall", "충주 사과", "--otel-content", "--otel", otel}, ""},
		{[]string{"compare", "충주 사과", "--otel-content"}, "none are exported"},
		{[]string{"mcp", "--otel-content"}, "add --otlp-endpoint URL"},
		{[]string{"approve", "3", "--wording", "Always answer in Korean."}, "--wording is the HOT rule of a promote proposal; proposal 3 is keep"},
		{[]string{"approve", "1", "--wording", "Return errors; do not panic."}, ""}, // a promote: last, it writes
	} {
		out, stderr, code := runCLI(t, append([]string{"--db", db}, c.args...)...)
		switch {
		case c.want == "" && code != 0:
			t.Errorf("%v: exit %d: %s", c.args, code, stderr)
		case c.want != "" && (code != 2 || !strings.Contains(stderr, c.want)):
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 and %q", c.args, code, stderr, out, c.want)
		}
	}
}

// `memtrace clock TIME` and `supersede --valid-to T` take the one time
// grammar of every --at: an offset from the database clock, a date, RFC
// 3339.
func TestClockAndValidToTakeTheTimeGrammar(t *testing.T) {
	db := demoDB(t) // pinned at 2026-07-21T09:00:00Z
	for _, c := range []struct{ arg, want string }{
		{"+1d", "pinned at 2026-07-22T09:00:00Z"},
		{"-2h", "pinned at 2026-07-22T07:00:00Z"}, // from where the clock stands (after --: see below)
		{"2026-08-01", "pinned at 2026-08-01T00:00:00Z"},
		{"2026-07-21T09:00:00Z", "pinned at 2026-07-21T09:00:00Z"},
	} {
		if out := mustRunCLI(t, "--db", db, "clock", "--", c.arg); !strings.Contains(out, c.want) {
			t.Errorf("clock %s: %q; want %q", c.arg, out, c.want)
		}
	}
	if _, stderr, code := runCLI(t, "--db", db, "clock", "-1d"); code != 2 || !strings.Contains(stderr, "memtrace clock -- -1d") {
		t.Errorf("clock -1d: exit %d, %q; want the hint to put it after --", code, stderr)
	}
	if _, stderr, code := runCLI(t, "--db", db, "clock", "tomorrow"); code != 2 || !strings.Contains(stderr, "+1d12h") {
		t.Errorf("clock tomorrow: exit %d, %q; want a usage error stating the grammar", code, stderr)
	}
	var out struct {
		Memory struct {
			ValidTo time.Time `json:"valid_to"`
		} `json:"memory"`
	}
	if err := json.Unmarshal([]byte(mustRunCLI(t, "--db", db, "supersede", "5", "6", "--valid-to", "-30d", "--json")), &out); err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 6, 21, 9, 0, 0, 0, time.UTC); !out.Memory.ValidTo.Equal(want) {
		t.Errorf("supersede --valid-to -30d: valid_to %v, want %v (30 days before the clock)", out.Memory.ValidTo, want)
	}
	if _, stderr, code := runCLI(t, "--db", db, "supersede", "7", "8", "--valid-to", "last week"); code != 2 || !strings.Contains(stderr, "--valid-to: bad time") {
		t.Errorf("--valid-to 'last week': exit %d, %q", code, stderr)
	}
}

// A dry run says it changed nothing and how to do it for real.
func TestDryRunsSayNothingChanged(t *testing.T) {
	db := demoDB(t)
	before := mustRunCLI(t, "--db", db, "list", "--limit", "0", "--json")
	pol := writePolicy(t, "forgetting:\n  half_life_episode: 7d\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"rollback", "capture-20260721T090000Z-1", "--dry-run"}, "dry run: nothing changed; `memtrace rollback capture-20260721T090000Z-1` rolls it back"},
		{[]string{"policy", "set", pol, "--dry-run"}, "dry run: nothing recorded"},
		{[]string{"erase", "key:m0001", "--dry-run"}, "dry run: nothing erased"},
	} {
		out, stderr, code := runCLI(t, append([]string{"--db", db}, c.args...)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d (%s); stdout %q lacks %q", c.args, code, stderr, out, c.want)
		}
	}
	if after := mustRunCLI(t, "--db", db, "list", "--limit", "0", "--json"); after != before {
		t.Error("a dry run changed the memories")
	}
	if b := policyBatch(t, db); b != "" {
		t.Errorf("policy set --dry-run recorded batch %s", b)
	}
}

var oneDash = regexp.MustCompile(`flag -[^-]`)

// A flag parse error names the flag as the usage lines do (--limit, not
// -limit) and says what it wants.
func TestFlagErrorsSayWhatTheFlagWants(t *testing.T) {
	db := filepath.Join(t.TempDir(), "none.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"list", "--limit", "x"}, `memtrace list: --limit "x": want a whole number`},
		{[]string{"list", "--limit"}, "memtrace list: --limit needs a value: --limit N"},
		{[]string{"list", "--json=maybe"}, `--json "maybe": want true or false`},
		{[]string{"heartbeat", "--every", "5"}, `--every "5": want a duration such as 30s, 5m or 2h`},
		{[]string{"heartbeat", "--max-share", "a lot"}, `--max-share "a lot": want a number`},
		{[]string{"list", "--nope"}, "memtrace list: unknown flag --nope"},
		{[]string{"golden", "--nope", "run", "x"}, "memtrace golden: unknown flag --nope"},
		{[]string{"--nope", "list"}, "memtrace: unknown flag --nope"},
		{[]string{"proposals", "--status", "bogus"}, `--status "bogus": "bogus" is not one of pending`},
	} {
		_, stderr, code := runCLI(t, append([]string{"--db", db}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
		if oneDash.MatchString(stderr) {
			t.Errorf("%v: the error names a flag with one dash: %q", c.args, stderr)
		}
	}
}

// An empty recall says why: memories that survived every stage but did not
// fit --budget are not "nothing relevant".
func TestEmptyRecallSaysWhy(t *testing.T) {
	db := demoDB(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"recall", "충주 사과", "--budget", "50"}, "survived, but no line of them fits the budget of 50 chars; raise --budget)"},
		{[]string{"recall", "xyzzy plugh"}, "(no memory recalled: nothing relevant survived; run with --trace to see why)"},
		{[]string{"recall", "xyzzy plugh", "--trace"}, "(no memory recalled: nothing relevant survived)\n"},
	} {
		if out := mustRunCLI(t, append([]string{"--db", db}, c.args...)...); !strings.Contains(out, c.want) {
			t.Errorf("%v: %q lacks %q", c.args, out, c.want)
		}
	}
}

// An empty review queue is named as the status asked for ("no review
// items" for --status all, not "no all review items"), with both ways a
// message gets held.
func TestEmptyReviewQueueWording(t *testing.T) {
	db := demoDB(t)
	for status, want := range map[string]string{"all": "no review items;", "held": "no held review items;", "stored": "no stored review items;"} {
		out := mustRunCLI(t, "--db", db, "review", "list", "--status", status)
		if !strings.HasPrefix(out, want) || !strings.Contains(out, "--secrets hold") {
			t.Errorf("review list --status %s: %q; want it to start %q and name --secrets hold", status, out, want)
		}
	}
}

// import md on a directory without tier files names every file it reads
// (WARM.md was missing from the list).
func TestImportMDNamesEveryTierFile(t *testing.T) {
	_, stderr, code := runCLI(t, "--db", demoDB(t), "import", "md", t.TempDir())
	for _, f := range []string{"HOT.md", "WARM.md", "corrections.md", "projects/", "domains/", "archive/"} {
		if code != 1 || !strings.Contains(stderr, f) {
			t.Errorf("import md of an empty directory: exit %d, %q lacks %s", code, stderr, f)
		}
	}
}

// `list --type` with a label capture never assigns, and no memory holds,
// says so (a typo, most likely) instead of suggesting an ingest.
func TestListUnknownTypeSaysSo(t *testing.T) {
	db := demoDB(t)
	if out := mustRunCLI(t, "--db", db, "list", "--type", "milestones"); !strings.Contains(out, `no memory has the type "milestones", which is none of the labels capture assigns (preference,`) {
		t.Errorf("list --type milestones: %q", out)
	}
	if out := mustRunCLI(t, "--db", db, "list", "--type", "gift"); !strings.Contains(out, "try fewer filters") {
		t.Errorf("list --type gift (a label no demo memory has): %q", out)
	}
}
