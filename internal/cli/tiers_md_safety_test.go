package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/tiers"
)

// mdDB is a database with a HOT rule, two WARM memories of a project, an
// episode and a lesson seen twice.
func mdDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "m.db")
	for _, args := range [][]string{
		{"add", "--kind", "fact", "--type", "rule", "--tier", "hot", "--importance", "0.9", "--key", "hot-1", "Run gofmt before every commit \u202eno exceptions\u202c."},
		{"add", "--kind", "fact", "--type", "preference", "--scope", "project:shop", "--key", "w-1", "The shop API paginates with cursors, never offsets."},
		{"add", "--kind", "fact", "--type", "preference", "--scope", "project:shop", "--key", "w-2", "Retries in the shop client back off exponentially up to 30 seconds."},
		{"add", "--kind", "episode", "--type", "note", "--key", "ep-1", "We shipped the checkout redesign on a Friday and rolled it back."},
	} {
		if code, _, errOut := runMemtrace(t, "", append([]string{"--db", db}, args...)...); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	return db
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Export never writes through a symbolic link: a linked HOT.md, a linked
// projects/ directory and a dangling link are refused before anything is
// written, and the targets stay as they were.
func TestExportMarkdownRefusesSymlinks(t *testing.T) {
	db := mdDB(t)
	for _, tc := range []struct{ name, link, target string }{
		{"file", "HOT.md", "victim.txt"},
		{"dir", "projects", "elsewhere"},
		{"dangling", "WARM.md", "nowhere.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "tiers")
			os.MkdirAll(dir, 0o755)
			target := filepath.Join(root, tc.target)
			switch tc.name {
			case "file":
				os.WriteFile(target, []byte("do not touch\n"), 0o644)
			case "dir":
				os.MkdirAll(target, 0o755)
			}
			if err := os.Symlink(target, filepath.Join(dir, tc.link)); err != nil {
				t.Fatal(err)
			}
			code, _, errOut := runMemtrace(t, "", "--db", db, "export", "md", dir)
			if code == 0 || !strings.Contains(errOut, "is a symbolic link") {
				t.Fatalf("export through a %s link = %d %q", tc.name, code, errOut)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("the refused export wrote %d entries into %s", len(entries)-1, dir)
			}
			switch tc.name {
			case "file":
				if readFile(t, target) != "do not touch\n" {
					t.Error("the victim file was overwritten")
				}
			case "dir":
				if es, _ := os.ReadDir(target); len(es) != 0 {
					t.Errorf("the export wrote %d files outside its directory", len(es))
				}
			case "dangling":
				if _, err := os.Stat(target); err == nil {
					t.Error("the export created the dangling link's target")
				}
			}
		})
	}
	code, _, errOut := runMemtrace(t, "", "--db", db, "export", "md", "/proc/memtrace-nope/x")
	if code == 0 || strings.Contains(errOut, "mkdir") || !strings.Contains(errOut, "cannot create directory") {
		t.Errorf("export to /proc = %d %q", code, errOut)
	}
}

// Import does not follow a linked tier file out of its directory.
func TestImportMarkdownRefusesSymlinks(t *testing.T) {
	db := mdDB(t)
	root := t.TempDir()
	dir := filepath.Join(root, "tiers")
	if code, _, errOut := runMemtrace(t, "", "--db", db, "export", "md", dir); code != 0 {
		t.Fatal(errOut)
	}
	outside := filepath.Join(root, "outside.md")
	os.WriteFile(outside, []byte("# WARM — global\n\n- A line from outside the tier directory that must not be imported.\n"), 0o644)
	os.Remove(filepath.Join(dir, "WARM.md"))
	os.Symlink(outside, filepath.Join(dir, "WARM.md"))
	code, _, errOut := runMemtrace(t, "", "--db", db, "import", "md", dir)
	if code == 0 || !strings.Contains(errOut, "is a symbolic link") {
		t.Fatalf("import through a link = %d %q", code, errOut)
	}
	_, out, _ := runMemtrace(t, "", "--db", db, "list", "--text", "outside the tier")
	if strings.Contains(out, "outside the tier") {
		t.Fatal("the linked file was imported")
	}
}

func importMD(t *testing.T, db, dir string) tiers.MarkdownImport {
	t.Helper()
	code, out, errOut := runMemtrace(t, "", "--db", db, "import", "md", dir, "--json")
	if code != 0 {
		t.Fatalf("import md = %d %s", code, errOut)
	}
	var r tiers.MarkdownImport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// The round trip is curated: hand-added lines import once, a deleted line,
// a tier move and a count edit become proposals, a new HOT line a proposal
// for a HOT rule, bad lines are reported by file:line, episodes carry their
// date, controls are escaped, and a new path gets a database.
func TestImportMarkdownIsCuratedAndIdempotent(t *testing.T) {
	db := mdDB(t)
	dir := filepath.Join(t.TempDir(), "tiers")
	if code, _, errOut := runMemtrace(t, "", "--db", db, "export", "md", dir); code != 0 {
		t.Fatal(errOut)
	}
	hot := readFile(t, filepath.Join(dir, "HOT.md"))
	if strings.ContainsRune(hot, '\u202e') || !strings.Contains(hot, `\u202e`) {
		t.Errorf("HOT.md carries the raw bidi override:\n%s", hot)
	}
	if warm := readFile(t, filepath.Join(dir, "WARM.md")); !strings.Contains(warm, "- ["+strings.Split(warm, "- [")[1][:10]+"] We shipped") {
		t.Errorf("the episode line has no date:\n%s", warm)
	}

	// A new database restores the tiers.
	fresh := filepath.Join(t.TempDir(), "new.db")
	if r := importMD(t, fresh, dir); r.Inserted != 3 || r.Proposed != 1 {
		t.Errorf("import into a new path = %+v (HOT's rule waits as a proposal)", r)
	}

	proj := filepath.Join(dir, "projects", "shop.md")
	lines := strings.Split(readFile(t, proj), "\n")
	var w1, w2 string
	for _, l := range lines {
		if strings.Contains(l, "cursors") {
			w1 = l
		}
		if strings.Contains(l, "Retries") {
			w2 = l
		}
	}
	// Edit: delete w2, move w1 to HOT, add a hand line to the project and
	// one to HOT, give the project a bad importance and a bad scope line.
	var kept []string
	for _, l := range lines {
		if l != w1 && l != w2 {
			kept = append(kept, l)
		}
	}
	kept = append(kept[:len(kept)-1],
		"- Deploys of the shop go out on Tuesdays only.",
		`- Bad importance line <!-- mt {"kind":"fact","type":"note","imp":-7} -->`,
		`- Huge importance line <!-- mt {"kind":"fact","type":"note","imp":1e308} -->`,
		`- Odd scope line <!-- mt {"kind":"fact","type":"note","imp":0.5,"scope":"team:x"} -->`, "")
	os.WriteFile(proj, []byte(strings.Join(kept, "\n")), 0o644)
	os.WriteFile(filepath.Join(dir, "HOT.md"), []byte(hot+w1+"\n- Never force-push to main.\n"), 0o644)

	var first tiers.MarkdownImport
	for i := range 3 {
		r := importMD(t, db, dir)
		if i == 0 {
			first = r
		} else if r.Inserted != 0 || r.Proposed != 0 || r.Updated != 0 {
			t.Errorf("import %d changed something again: %+v", i+1, r)
		}
	}
	if first.Inserted != 1 || first.Proposed != 3 {
		t.Errorf("first import = %+v, want 1 inserted (the hand project line) and 3 proposals (delete, move, HOT line)", first)
	}
	bad := strings.Join(first.Skipped, "\n")
	for _, want := range []string{"projects/shop.md:", "importance -7", "importance 1e+308", `scope "team:x"`} {
		if !strings.Contains(bad, want) {
			t.Errorf("skipped lines %q lack %q", bad, want)
		}
	}
	code, out, _ := runMemtrace(t, "", "--db", db, "list", "--text", "Tuesdays", "--json")
	if code != 0 || strings.Count(out, "Tuesdays") != 1 {
		t.Errorf("the hand-added line is not there exactly once: %s", out)
	}
	code, out, _ = runMemtrace(t, "", "--db", db, "proposals", "--json")
	var ps struct{ Proposals []engine.Proposal }
	if code != 0 || json.Unmarshal([]byte(out), &ps) != nil {
		t.Fatal(out)
	}
	kinds := map[string]int{}
	var move int64
	for _, p := range ps.Proposals {
		kinds[p.Kind]++
		if p.Kind == curate.ProposalMove {
			move = p.ID
		}
		var v struct{ Type, Tier string }
		json.Unmarshal(p.Verdict, &v)
		if p.Kind == curate.ProposalAdd && (v.Type != "rule" || v.Tier != "hot") {
			t.Errorf("the HOT line's proposal is not a rule: %s", p.Verdict)
		}
	}
	if kinds[engine.ProposalQuarantine] != 1 || kinds[curate.ProposalMove] != 1 || kinds[curate.ProposalAdd] != 1 {
		t.Fatalf("proposals by kind = %v", kinds)
	}
	// Nothing moved or was quarantined by the import itself.
	_, out, _ = runMemtrace(t, "", "--db", db, "show", "key:w-1", "--json")
	if !strings.Contains(out, `"tier": "warm"`) {
		t.Errorf("the moved line changed the memory before approval: %s", out)
	}
	_, out, _ = runMemtrace(t, "", "--db", db, "show", "key:w-2", "--json")
	if !strings.Contains(out, `"status": "active"`) {
		t.Errorf("the deleted line quarantined the memory before approval: %s", out)
	}
	// The curator approves the move; rollback takes it back.
	code, out, errOut := runMemtrace(t, "", "--db", db, "approve", "--json", fmt.Sprint(move))
	var ap struct{ Batch string }
	if code != 0 || json.Unmarshal([]byte(out), &ap) != nil {
		t.Fatalf("approve move = %d %s %s", code, out, errOut)
	}
	_, out, _ = runMemtrace(t, "", "--db", db, "show", "key:w-1", "--json")
	if !strings.Contains(out, `"tier": "hot"`) {
		t.Errorf("after approval the memory is not HOT: %s", out)
	}
	if code, _, errOut := runMemtrace(t, "", "--db", db, "rollback", ap.Batch, "--yes"); code != 0 {
		t.Fatalf("rollback move: %s", errOut)
	}
	_, out, _ = runMemtrace(t, "", "--db", db, "show", "key:w-1", "--json")
	if !strings.Contains(out, `"tier": "warm"`) {
		t.Errorf("after rollback the memory is not WARM again: %s", out)
	}
}

// A Count edited in corrections.md is not written: raised to the threshold
// it becomes a promotion proposal, otherwise it is reported.
func TestImportMarkdownCountEditIsAProposal(t *testing.T) {
	db := mdDB(t)
	for range 2 {
		if code, _, errOut := runMemtrace(t, "", "--db", db, "reflect", "--intended", "one pass", "--actual", "two passes", "--lesson", "read the failing test before editing code"); code != 0 {
			t.Fatalf("reflect: %s", errOut)
		}
	}
	dir := filepath.Join(t.TempDir(), "tiers")
	if code, _, errOut := runMemtrace(t, "", "--db", db, "export", "md", dir); code != 0 {
		t.Fatal(errOut)
	}
	corr := filepath.Join(dir, "corrections.md")
	body := readFile(t, corr)
	if !strings.Contains(body, "- Count: 2/3") {
		t.Fatalf("corrections.md:\n%s", body)
	}
	os.WriteFile(corr, []byte(strings.Replace(body, "- Count: 2/3", "- Count: 3/3", 1)), 0o644)
	if r := importMD(t, db, dir); r.Proposed != 1 {
		t.Fatalf("count edit to 3/3 = %+v, want one proposal", r)
	}
	_, out, _ := runMemtrace(t, "", "--db", db, "proposals", "--kind", "promote", "--json")
	if !strings.Contains(out, "edited 2→3") {
		t.Errorf("no promotion proposal for the count edit: %s", out)
	}
	if r := importMD(t, db, dir); r.Proposed != 0 {
		t.Errorf("a second import proposed again: %+v", r)
	}
	os.WriteFile(corr, []byte(strings.Replace(body, "- Count: 2/3", "- Count: 1/3", 1)), 0o644)
	r := importMD(t, db, dir)
	if r.Proposed != 0 || !strings.Contains(strings.Join(r.Skipped, " "), "Count edited 2→1") {
		t.Errorf("count edit down = %+v", r)
	}
	if code, _, _ := runMemtrace(t, "", "--db", db, "export", "md", dir); code != 0 || !strings.Contains(readFile(t, corr), "- Count: 2/3") {
		t.Errorf("the count was written:\n%s", readFile(t, corr))
	}
}
