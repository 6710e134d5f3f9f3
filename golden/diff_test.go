package golden

import (
	"strings"
	"testing"
)

func run(probes ...ProbeResult) *RunResult {
	r := &RunResult{Set: "demo", Probes: probes}
	r.Summary = summarize(probes)
	return r
}

func probe(id string, pass bool, metrics map[string]float64, survivors ...SurvivorRef) ProbeResult {
	p := ProbeResult{ID: id, Pass: pass, Survivors: survivors, Metrics: metrics, Failures: []string{}}
	if !pass {
		p.Failures = []string{`present "key:m0012": not among the 1 survivors; never a candidate`}
	}
	return p
}

func TestDiff(t *testing.T) {
	apple := SurvivorRef{ID: 12, Key: "m0012", Text: "충주 사과가 맛있었다"}
	peanut := SurvivorRef{ID: 40, Key: "m0040", Text: "allergic to peanuts"}
	noKey := SurvivorRef{ID: 77, Text: "a memory \x1b[31mwith no key"}
	base := run(
		probe("apple", true, map[string]float64{"guaranteed": 0, "prompt_chars": 120}, apple),
		probe("health", true, map[string]float64{"guaranteed": 1}, peanut),
		probe("dropped-probe", true, nil),
		probe("known-bad", false, nil),
	)

	t.Run("NoChange", func(t *testing.T) {
		d := Diff(base, base)
		if d.Regressed() || len(d.Probes) != 0 || len(d.Summary) != 0 {
			t.Fatalf("diff of a run with itself: %+v", d)
		}
		if !strings.Contains(d.Text(), "3/4 → 3/4 passed") || !strings.Contains(d.Text(), "no regression") {
			t.Fatalf("text:\n%s", d.Text())
		}
	})

	t.Run("FlipEnteredLeftMissing", func(t *testing.T) {
		cur := run(
			probe("apple", false, map[string]float64{"guaranteed": 1, "prompt_chars": 150}, peanut, noKey),
			probe("health", true, map[string]float64{"guaranteed": 1}, peanut),
			probe("known-bad", true, nil),
			probe("brand-new", true, nil),
		)
		d := Diff(base, cur)
		if !d.Regressed() {
			t.Fatal("a pass→fail flip and a missing probe must regress")
		}
		if len(d.Probes) != 4 {
			t.Fatalf("probes %+v", d.Probes)
		}
		a := d.Probes[0]
		if a.ID != "apple" || a.Change != ChangeBroke || len(a.Entered) != 2 || a.Entered[0].Key != "m0040" || a.Entered[1].ID != 77 ||
			len(a.Left) != 1 || a.Left[0].Key != "m0012" {
			t.Fatalf("apple %+v", a)
		}
		if len(a.Metrics) != 2 || a.Metrics[0].Name != "guaranteed" || a.Metrics[0].Delta() != 1 || a.Metrics[1].Name != "prompt_chars" || a.Metrics[1].Delta() != 30 {
			t.Fatalf("apple metrics %+v", a.Metrics)
		}
		if m := d.Probes[1]; m.ID != "dropped-probe" || m.Change != ChangeMissing || m.Pass {
			t.Fatalf("missing %+v", m)
		}
		if f := d.Probes[2]; f.ID != "known-bad" || f.Change != ChangeFixed {
			t.Fatalf("fixed %+v", f)
		}
		if n := d.Probes[3]; n.ID != "brand-new" || n.Change != ChangeNew || !n.Pass {
			t.Fatalf("new %+v", n)
		}
		text := d.Text()
		for _, want := range []string{
			"3/4 → 3/4 passed",
			"REGRESSED",
			"broke 1, fixed 1, missing 1, new 1, changed 0",
			"BROKE   apple: pass → fail",
			`    ✗ present "key:m0012": not among the 1 survivors; never a candidate`,
			`    + entered key:m0040 "allergic to peanuts"`,
			`    + entered id:77 "a memory  [31mwith no key"`,
			`    - left    key:m0012 "충주 사과가 맛있었다"`,
			"    guaranteed: 0 → 1 (+1)",
			"    prompt_chars: 120 → 150 (+30)",
			"MISSING dropped-probe: in the baseline but not in this run (counts as a failure)",
			"FIXED   known-bad: fail → pass",
			"NEW     brand-new: pass (not in the baseline)",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("diff text lacks %q:\n%s", want, text)
			}
		}
		if strings.Contains(text, "\x1b") {
			t.Error("escape sequence from memory text reached the diff")
		}
	})

	t.Run("OnlyMissingRegresses", func(t *testing.T) {
		cur := run(base.Probes[0], base.Probes[1], base.Probes[3])
		d := Diff(base, cur)
		if !d.Regressed() || d.Count(ChangeMissing) != 1 {
			t.Fatalf("a probe missing from the run is a failure: %+v", d.Probes)
		}
	})

	t.Run("NewFailingProbeRegresses", func(t *testing.T) {
		cur := run(append(append([]ProbeResult{}, base.Probes...), probe("new-bad", false, nil))...)
		if d := Diff(base, cur); !d.Regressed() {
			t.Fatal("a new failing probe must not slip through the gate")
		}
	})

	t.Run("MetricOnlyChangeIsNotRegression", func(t *testing.T) {
		cur := run(
			probe("apple", true, map[string]float64{"guaranteed": 0, "prompt_chars": 90}, apple),
			base.Probes[1], base.Probes[2], base.Probes[3],
		)
		d := Diff(base, cur)
		if d.Regressed() || len(d.Probes) != 1 || d.Probes[0].Change != ChangeSame {
			t.Fatalf("diff %+v", d.Probes)
		}
		if !strings.Contains(d.Text(), "CHANGED apple: still pass") || !strings.Contains(d.Text(), "mean_prompt_chars") {
			t.Fatalf("text:\n%s", d.Text())
		}
	})
}

func TestRunFileRoundTrip(t *testing.T) {
	r := run(probe("apple", true, map[string]float64{"guaranteed": 0}, SurvivorRef{ID: 12, Key: "m0012", Text: "사과"}), probe("b", false, nil))
	path := t.TempDir() + "/base.json"
	if err := r.Save(path, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := LoadRun(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(r, back); len(d.Probes) != 0 || d.Regressed() {
		t.Fatalf("a saved run differs from itself: %s", d.Text())
	}
	if back.Summary.Probes != 2 || back.Summary.Passed != 1 || back.Summary.PassRate != 0.5 {
		t.Fatalf("summary %+v", back.Summary)
	}
}
