package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
)

func writeSet(t *testing.T, body string, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "set.yaml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoad(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		path := writeSet(t, `name: demo
fixture: data/demo.jsonl
defaults: {at: 2026-06-01T09:00:00Z, k: 8, budget: 2000, session: s1, project: memtrace}
probes:
  - id: greeting-carries-no-milestone
    query: "안녕"
    expect: {absent: ["type:milestone"], max_guaranteed: 0}
  - id: apple-association
    query: "충주 시에 충주 사과가 맛있었지?"
    at: "+30d"
    k: 5
    expect:
      present: ["text:충주 사과"]
      relevant: {"key:m0012": 3, "key:m0040": 1}
      min_recall_at_k: 0.5
      min_mrr: 0.5
      min_ndcg: 0.4
  - id: absolute-time
    query: "what do I eat"
    at: 2027-01-02T03:04:05+09:00
    session: other
    budget: 500
    expect: {present: ["kind:fact", "tier:hot", "id:12"], min_survivors: 1, max_prompt_chars: 400}
`, "data/demo.jsonl")
		set, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if set.Name != "demo" || set.Fixture != filepath.Join(filepath.Dir(path), "data/demo.jsonl") {
			t.Fatalf("name %q fixture %q", set.Name, set.Fixture)
		}
		at := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
		if !set.Defaults.At.Equal(at) || set.Defaults.K != 8 || set.Defaults.Budget != 2000 || set.Defaults.Session != "s1" || set.Defaults.Project != "memtrace" {
			t.Fatalf("defaults %+v", set.Defaults)
		}
		if len(set.Probes) != 3 {
			t.Fatalf("%d probes", len(set.Probes))
		}
		p0, p1, p2 := set.Probes[0], set.Probes[1], set.Probes[2]
		if p0.ID != "greeting-carries-no-milestone" || p0.Line != 5 || p0.Query != "안녕" || len(p0.Expect.Absent) != 1 ||
			p0.Expect.Absent[0].String() != "type:milestone" || p0.Expect.MaxGuaranteed == nil || *p0.Expect.MaxGuaranteed != 0 {
			t.Fatalf("probe 0: %+v", p0)
		}
		if got := p1.Time(set.Defaults, time.Time{}); !got.Equal(at.Add(30 * 24 * time.Hour)) {
			t.Fatalf("+30d resolved to %v", got)
		}
		if len(p1.Expect.Relevant) != 2 || p1.Expect.Relevant[0].Selector.String() != "key:m0012" || p1.Expect.Relevant[0].Grade != 3 ||
			p1.Expect.Relevant[1].Grade != 1 || *p1.Expect.MinRecallAtK != 0.5 || *p1.Expect.MinNDCG != 0.4 || p1.K != 5 {
			t.Fatalf("probe 1 expect: %+v", p1.Expect)
		}
		want2 := time.Date(2027, 1, 1, 18, 4, 5, 0, time.UTC)
		if got := p2.Time(set.Defaults, time.Time{}); !got.Equal(want2) {
			t.Fatalf("absolute at resolved to %v, want %v", got, want2)
		}
		q := set.Query(p2, time.Time{}, engineDefaults())
		if q.Session != "other" || q.Project != "memtrace" || q.K != 8 || q.Budget != 500 || !q.ReadOnly || q.Text != "what do I eat" {
			t.Fatalf("query %+v", q)
		}
		if *p2.Expect.MinSurvivors != 1 || *p2.Expect.MaxPromptChars != 400 || len(p2.Expect.Present) != 3 {
			t.Fatalf("probe 2 expect %+v", p2.Expect)
		}
	})

	bad := []struct {
		name, body string
		want       []string
	}{
		{"DuplicateID", `name: x
probes:
  - id: a
    query: q
    expect: {present: ["key:k"]}
  - id: b
    query: q
    expect: {present: ["key:k"]}
  - id: a
    query: q2
    expect: {present: ["key:k"]}
`, []string{"line 9: duplicate probe id a (first at line 3)"}},
		{"UnknownKeys", `name: x
colour: blue
probes:
  - id: a
    query: q
    expct: {}
    expect: {present: ["key:k"], maximum: 3}
`, []string{`line 2: golden set: unknown key "colour"`, `line 6: probe: unknown key "expct"`, `line 7: expect: unknown key "maximum"`}},
		{"BadSelector", `name: x
probes:
  - id: a
    query: q
    expect:
      present: ["colour:red", "nokind"]
      absent: ["tier:lukewarm", "id:abc"]
`, []string{`line 6: present: selector "colour:red": unknown kind "colour"`, `line 6: present: selector "nokind" has no kind`,
			`line 7: absent: selector "tier:lukewarm": tier must be hot, warm or cold`, `line 7: absent: selector "id:abc": id must be a positive integer`}},
		{"MissingFixture", `name: x
fixture: fixtures/none.jsonl
probes:
  - id: a
    query: q
    expect: {present: ["key:k"]}
`, []string{`line 2: fixture "fixtures/none.jsonl" not found at `, filepath.Join("fixtures", "none.jsonl")}},
		{"BadTimes", `name: x
defaults: {at: tomorrow}
probes:
  - id: a
    query: q
    at: "+30x"
    expect: {present: ["key:k"]}
`, []string{`line 2: defaults.at: bad time "tomorrow"`, `line 6: at: bad time offset "+30x"`}},
		{"RankingWithoutRelevant", `name: x
probes:
  - id: a
    query: q
    expect: {min_mrr: 0.5, min_ndcg: 2}
`, []string{`line 5: probe a: min_mrr needs relevant`, `line 5: min_ndcg must be a number from 0 to 1`}},
		{"MissingFields", `name: x
probes:
  - query: q
    expect: {}
  - id: b
`, []string{`line 3: probe: id is required`, `line 5: probe b: query is required`, `line 5: probe b: expect is required`}},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			path := writeSet(t, tc.body)
			_, err := Load(path)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error does not name the file %s:\n%v", path, err)
			}
		})
	}
}

func TestProbeTimeWithoutDefaults(t *testing.T) {
	// Relative to the clock when the set has no defaults.at.
	p := Probe{AtRelative: true, AtOffset: -24 * time.Hour}
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	if got := p.Time(Defaults{}, now); !got.Equal(now.Add(-24 * time.Hour)) {
		t.Fatalf("got %v", got)
	}
	if got := (Probe{}).Time(Defaults{}, now); !got.Equal(now) {
		t.Fatalf("no at: got %v", got)
	}
}

func TestSelectorText(t *testing.T) {
	s, err := ParseSelector("text:ΣΟΦΙΑ likes Apples")
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]bool{
		"σοφια LIKES apples a lot": true,
		"ΣΟΦΙΑ likes apples":       true,
		"Sofia likes apples":       false,
		"충주 사과":                    false,
	} {
		if got := s.matches(item{Text: text}); got != want {
			t.Errorf("%q matches %q = %v", s, text, got)
		}
	}
	ko, _ := ParseSelector("text:충주 사과")
	if !ko.matches(item{Text: "작년에 먹은 충주 사과가 맛있었다"}) || ko.matches(item{Text: "충주사과"}) {
		t.Error("Korean substring")
	}
	ty, _ := ParseSelector("type:Milestone")
	if !ty.matches(item{Type: "milestone"}) {
		t.Error("type is case-insensitive")
	}
}

// key:K names a message: the memory keyed K and the statements capture
// split out of it (K#2 …), nothing else; key:K#2 names that statement only.
func TestSelectorKeyNamesTheMessage(t *testing.T) {
	msg, _ := ParseSelector("key:m0071")
	for key, want := range map[string]bool{
		"m0071":    true,
		"m0071#2":  true,
		"m0071#12": true,
		"m00711":   false,
		"m0071#":   false,
		"m0071#0":  false,
		"m0071#2a": false,
		"m0071-2":  false,
		"m007":     false,
		"x:m0071":  false,
	} {
		if got := msg.matches(item{Key: key}); got != want {
			t.Errorf("%s matches key %q = %v, want %v", msg, key, got, want)
		}
	}
	stmt, _ := ParseSelector("key:m0071#2")
	if !stmt.matches(item{Key: "m0071#2"}) || stmt.matches(item{Key: "m0071"}) || stmt.matches(item{Key: "m0071#3"}) {
		t.Error("key:m0071#2 must pick that statement only")
	}
}

func engineDefaults() engine.Config { return engine.DefaultConfig() }

// The golden YAML's time fields read the one time grammar: a probe's at
// counts from defaults.at, defaults.at written as an offset from the
// runner's clock; a rejected time is the same message as everywhere else.
func TestSetTimesTimeGrammar(t *testing.T) {
	examples, exErr := engine.TimeExamples()
	if exErr != nil {
		t.Fatal(exErr)
	}
	for _, c := range examples {
		probe := fmt.Sprintf("name: x\ndefaults: {at: %q}\nprobes:\n  - id: a\n    query: q\n    at: %q\n    expect: {present: [\"key:k\"]}\n",
			engine.TimeExamplesNow.Format(time.RFC3339), c.Input)
		base := fmt.Sprintf("name: x\ndefaults: {at: %q}\nprobes:\n  - id: a\n    query: q\n    expect: {present: [\"key:k\"]}\n", c.Input)
		for what, yaml := range map[string]string{"probe at": probe, "defaults.at": base} {
			set, err := Parse([]byte(yaml), "x.yaml")
			if c.Error != "" {
				if err == nil || !strings.Contains(err.Error(), c.Error) {
					t.Errorf("%s %q: error %v, want one saying %q", what, c.Input, err, c.Error)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %q: %v", what, c.Input, err)
				continue
			}
			// The runner's clock is TimeNow: defaults.at = now for the probe case.
			if got := set.Probes[0].Time(set.Defaults, engine.TimeExamplesNow); !got.Equal(c.Want) {
				t.Errorf("%s %q: probe time %v, want %v", what, c.Input, got, c.Want)
			}
		}
	}
}
