package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/capture"
	"memtrace/curate"
	"memtrace/engine"
	"memtrace/importer"
)

// Every source format imports the same population as it is, and the audit
// reports the noise families, the label prefixes, the duplicates and the
// would-not-store share the population was built with; importing again
// changes nothing.
func TestImportMemoriesEverySourceThenAudit(t *testing.T) {
	pop := sourcePopulation()
	if len(pop) < 200 {
		t.Fatalf("the fixture has %d memories; the acceptance asks for at least 200", len(pop))
	}
	cases := []struct {
		name, kind string
		write      func(dir string) (string, error)
		extra      int // active memories beyond the population
		quarantine int // deleted in the source
	}{
		{"jsonl", "jsonl", func(dir string) (string, error) {
			p := filepath.Join(dir, "memories.jsonl")
			return p, writeSourceJSONL(p)
		}, 0, 0},
		{"chroma", "chroma", func(dir string) (string, error) {
			p := filepath.Join(dir, "chroma")
			return p, writeSourceChroma(p)
		}, 0, 0},
		{"mem0", "mem0", func(dir string) (string, error) {
			p := filepath.Join(dir, "history.db")
			return p, writeSourceMem0(p)
		}, 0, sourceDeleted},
		{"memory files", "memory-files", func(dir string) (string, error) {
			p := filepath.Join(dir, "workspace")
			return p, writeSourceMemoryFiles(p)
		}, sourceExtraFileEntries, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src, err := tc.write(dir)
			if err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(dir, "audit.db") // a new path: the import creates it
			out, errOut, code := runCLI(t, "--db", db, "import", "memories", src, "--json")
			if code != 0 {
				t.Fatalf("import: exit %d: %s\n%s", code, errOut, out)
			}
			var rep capture.MemoryImportReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			want := len(pop) + tc.extra + tc.quarantine
			if rep.Source != tc.kind || rep.Stored != want || rep.Quarantined != tc.quarantine || rep.Errors != 0 || rep.Batch == "" {
				t.Fatalf("import report %+v; want source %s, %d stored, %d quarantined, no errors, a batch", rep, tc.kind, want, tc.quarantine)
			}

			audit := runAudit(t, db)
			if audit.Scanned != len(pop)+tc.extra {
				t.Fatalf("audit scanned %d active memories, want %d", audit.Scanned, len(pop)+tc.extra)
			}
			got := map[string]int{}
			for _, p := range audit.Noise.Patterns {
				got[p.Pattern] = p.Count
			}
			noise := 0
			for fam, n := range sourceNoiseCounts {
				noise += n
				if got[fam] != n {
					t.Errorf("noise family %s: audit counts %d, the fixture holds %d (all: %v)", fam, got[fam], n, got)
				}
			}
			if audit.Noise.Count != noise {
				t.Errorf("noise total %d, want %d: %+v", audit.Noise.Count, noise, audit.Noise.Patterns)
			}
			labels := map[string]int{}
			for _, l := range audit.LabelPrefixes {
				labels[l.Name] = l.Count
			}
			for l, n := range sourceLabelCounts {
				if labels[l] != n {
					t.Errorf("label prefix %q: audit counts %d, want %d (all: %v)", l, labels[l], n, labels)
				}
			}
			if audit.Duplicates.Exact != sourceExactDuplicates {
				t.Errorf("exact duplicates %d, want %d", audit.Duplicates.Exact, sourceExactDuplicates)
			}
			// Every noise memory would have been dropped at the door today,
			// and nothing else.
			if want := noise; audit.WouldNotStore.Count != want {
				t.Errorf("would not store %d, want %d: %+v", audit.WouldNotStore.Count, want, audit.WouldNotStore.ByReason)
			}

			// Importing again changes nothing.
			before, _, _ := runCLI(t, "--db", db, "list", "--json", "--status", "")
			out, errOut, code = runCLI(t, "--db", db, "import", "memories", src, "--json")
			if code != 0 {
				t.Fatalf("re-import: exit %d: %s\n%s", code, errOut, out)
			}
			var again capture.MemoryImportReport
			if err := json.Unmarshal([]byte(out), &again); err != nil {
				t.Fatal(err)
			}
			if again.Stored != 0 || again.AlreadyImported != want || again.Batch != "" {
				t.Fatalf("re-import report %+v; want nothing stored, %d already imported, no batch", again, want)
			}
			after, _, _ := runCLI(t, "--db", db, "list", "--json", "--status", "")
			if before != after {
				t.Fatal("re-import changed the memories")
			}
		})
	}
}

func runAudit(t *testing.T, db string) curate.StoreAudit {
	t.Helper()
	out, errOut, code := runCLI(t, "--db", db, "audit", "--json")
	if code != 0 {
		t.Fatalf("audit: exit %d: %s\n%s", code, errOut, out)
	}
	var a curate.StoreAudit
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return a
}

// A memory keeps its source's id as its key, its text with the label prefix,
// and where it came from; mem0's deleted memory is quarantined, not dropped.
func TestImportMemoriesKeepsWhatTheSourceSaid(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "history.db")
	if err := writeSourceMem0(src); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "m.db")
	if _, errOut, code := runCLI(t, "--db", db, "import", "memories", src); code != 0 {
		t.Fatal(errOut)
	}
	var shown struct {
		Memory engine.Memory       `json:"memory"`
		Source engine.MemorySource `json:"source"`
	}
	out, errOut, code := runCLI(t, "--db", db, "show", "key:gone-00", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		t.Fatal(err)
	}
	// The user asked mem0 to forget it (it may be a password): quarantined,
	// its text withheld, its hash and events kept.
	if shown.Memory.Status != engine.StatusQuarantined || shown.Source.Source != "mem0" || shown.Source.SourceID != "gone-00" ||
		shown.Memory.Content != importer.Mem0DeletedText || strings.Contains(string(shown.Source.Metadata), "flowerpot") ||
		!strings.Contains(string(shown.Source.Metadata), "DELETE") || !strings.Contains(string(shown.Source.Metadata), "deleted_text_sha256") {
		t.Fatalf("deleted mem0 memory imported as %+v from %+v", shown.Memory, shown.Source)
	}
	var pop sourceMemory
	for _, m := range sourcePopulation() {
		if m.Label == "MILESTONE:love" {
			pop = m
			break
		}
	}
	out, _, _ = runCLI(t, "--db", db, "show", "key:"+pop.ID, "--json")
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		t.Fatal(err)
	}
	if shown.Memory.Content != pop.Text || shown.Memory.Type != "milestone" || !shown.Memory.CreatedAt.Equal(pop.At) {
		t.Fatalf("labelled memory imported as %+v, want text %q type milestone created %s", shown.Memory, pop.Text, pop.At)
	}
}

// Bad records are reported by position while the rest imports; a file with
// no good record fails; symbolic links are refused.
func TestImportMemoriesBadInput(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "m.jsonl")
	body := "\ufeff" + `{"id":"a","text":"I keep my passport in the blue folder."}` + "\n" +
		"{oops\n" +
		`{"id":"b"}` + "\n" +
		`{"id":"c","text":"Second good memory about the garden.","importance":7}` + "\n" +
		`{"id":"a","text":"a repeat of a"}` + "\n" +
		`{"id":"d","text":"Third good memory about the bike.","created_at":"yesterday"}` + "\n" +
		`{"id":"e","text":"Fourth good memory: the cat is called Momo."}` + "\n"
	if err := os.WriteFile(src, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "m.db")
	out, errOut, code := runCLI(t, "--db", db, "import", "memories", src, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep capture.MemoryImportReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Stored != 2 || rep.Errors != 5 || rep.Offered != 7 {
		t.Fatalf("report %+v; want 2 stored (a, e), 5 errors", rep)
	}
	for _, want := range []string{"line 2", "line 3", "line 4", "line 5", "line 6"} {
		found := false
		for _, p := range rep.Problems {
			found = found || p.Position == want
		}
		if !found {
			t.Errorf("no problem reported at %s: %+v", want, rep.Problems)
		}
	}
	allBad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(allBad, []byte("{oops\n[]\n"), 0o644)
	if _, errOut, code := runCLI(t, "--db", db, "import", "memories", allBad); code == 0 || !strings.Contains(errOut, "no memory") {
		t.Fatalf("a file with no good record: exit %d, %s", code, errOut)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(src, link); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "--db", db, "import", "memories", link); code == 0 || !strings.Contains(errOut, "symbolic link") {
		t.Fatalf("a symlinked source: exit %d, %s", code, errOut)
	}
}
