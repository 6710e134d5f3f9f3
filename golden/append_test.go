package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func mustSel(t *testing.T, raw string) Selector {
	t.Helper()
	s, err := ParseSelector(raw)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAppendProbe(t *testing.T) {
	at := time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC)
	body := `# the team's set: keep this comment
name: team
defaults: {at: "2026-07-21T09:00:00Z", k: 8, budget: 2000}
probes:
  # health
  - id: trace-what-medication-do-i-take
    query: "What medication do I take?"
    expect: {present: ["key:m0075"]}
`
	t.Run("OK", func(t *testing.T) {
		path := writeSet(t, body)
		id, err := AppendProbe(path, NewProbe{Query: "What medication do I take?", At: at, K: 8, Budget: 1500,
			Present: []Selector{mustSel(t, "key:m0075")}, Absent: []Selector{mustSel(t, "id:12")}})
		if err != nil {
			t.Fatal(err)
		}
		// The id derived from the query is taken: a suffix makes it unique.
		if id != "trace-what-medication-do-i-take-2" {
			t.Errorf("id %q", id)
		}
		data, _ := os.ReadFile(path)
		if !strings.HasPrefix(string(data), body) {
			t.Errorf("the existing text changed:\n%s", data)
		}
		set, err := Load(path)
		if err != nil {
			t.Fatalf("the appended set does not load: %v\n%s", err, data)
		}
		pr := set.Probes[len(set.Probes)-1]
		if pr.ID != id || pr.Query != "What medication do I take?" || !pr.At.Equal(at) || pr.AtRelative ||
			pr.K != 0 || pr.Budget != 1500 || len(pr.Expect.Present) != 1 || pr.Expect.Present[0].String() != "key:m0075" ||
			len(pr.Expect.Absent) != 1 || pr.Expect.Absent[0].String() != "id:12" {
			t.Errorf("probe read back: %+v\n%s", pr, data)
		}
		if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*.tmp")); len(matches) > 0 {
			t.Errorf("temporary files left: %v", matches)
		}
	})
	t.Run("NewFile", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "from-traces.yaml")
		id, err := AppendProbe(path, NewProbe{Query: "내 생일 언제야?", At: at, Session: "s1", Present: []Selector{mustSel(t, "key:m0032")}})
		if err != nil {
			t.Fatal(err)
		}
		if id != "trace-내-생일-언제야" {
			t.Errorf("id %q", id)
		}
		set, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if set.Name != "from-traces" || set.Fixture != "" || len(set.Probes) != 1 || set.Probes[0].Session != "s1" {
			t.Errorf("new set %+v", set)
		}
	})
	t.Run("ErrSymlink", func(t *testing.T) {
		target := writeSet(t, body)
		link := filepath.Join(t.TempDir(), "link.yaml")
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("SKIP: cannot make a symbolic link here: %v", err)
		}
		_, err := AppendProbe(link, NewProbe{Query: "q", At: at, Present: []Selector{mustSel(t, "key:a")}})
		if err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Fatalf("err %v, want a refusal of the link", err)
		}
		if data, _ := os.ReadFile(target); string(data) != body {
			t.Error("the link's target changed")
		}
	})
	t.Run("ErrProbesNotLast", func(t *testing.T) {
		path := writeSet(t, "name: x\nprobes:\n  - id: a\n    query: q\n    expect: {present: [\"key:a\"]}\ndescription: after\n")
		_, err := AppendProbe(path, NewProbe{Query: "q", At: at, Present: []Selector{mustSel(t, "key:a")}})
		if err == nil || !strings.Contains(err.Error(), "not the last key") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrFlowList", func(t *testing.T) {
		path := writeSet(t, "name: x\nprobes: [{id: a, query: q, expect: {present: [\"key:a\"]}}]\n")
		_, err := AppendProbe(path, NewProbe{Query: "q", At: at, Present: []Selector{mustSel(t, "key:a")}})
		if err == nil || !strings.Contains(err.Error(), "block list") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrNothingMarked", func(t *testing.T) {
		path := writeSet(t, body)
		if _, err := AppendProbe(path, NewProbe{Query: "q", At: at}); err == nil {
			t.Fatal("a probe that expects nothing was written")
		}
	})
	t.Run("ErrBrokenSet", func(t *testing.T) {
		path := writeSet(t, "name: x\nprobes:\n  - id: a\n")
		_, err := AppendProbe(path, NewProbe{Query: "q", At: at, Present: []Selector{mustSel(t, "key:a")}})
		if err == nil || !strings.Contains(err.Error(), "fix it first") {
			t.Fatalf("err %v", err)
		}
	})
}

func TestExpectTerms(t *testing.T) {
	two := 2
	e := Expect{Present: []Selector{mustSel(t, "key:m1"), mustSel(t, "text:무릎")}, Absent: []Selector{mustSel(t, "type:milestone")}, MaxGuaranteed: &two}
	got := strings.Join(e.Terms(), " | ")
	if want := "present key:m1, text:무릎 | absent type:milestone | max_guaranteed 2"; got != want {
		t.Errorf("terms %q, want %q", got, want)
	}
}
