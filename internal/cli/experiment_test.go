package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/golden"
	"memtrace/policy"
)

func experimentJSON(t *testing.T, args ...string) golden.Experiment {
	t.Helper()
	var x golden.Experiment
	out := mustRunCLI(t, append([]string{"experiment", demoSet, "--json"}, args...)...)
	if err := json.Unmarshal([]byte(out), &x); err != nil {
		t.Fatalf("not an experiment: %v\n%.400s", err, out)
	}
	return x
}

// The default policy against itself, both spelt out as files: nothing
// differs, and the figures are the demo set's.
func TestExperimentDefaultAgainstItself(t *testing.T) {
	d := writePolicy(t, string(policy.Encode(engine.DefaultConfig())))
	for _, args := range [][]string{{"--policy", d, "--policy", d}, {"--policy", d}} {
		x := experimentJSON(t, args...)
		if x.Differences != 0 || x.Flipped != 0 || len(x.Probes) != 0 || x.Regressed {
			t.Fatalf("%v: %d differences, %d flipped: %+v", args, x.Differences, x.Flipped, x.Probes)
		}
		if x.A != x.B || x.A.Probes == 0 || x.A.MeanSurvivors == 0 {
			t.Fatalf("figures: %+v %+v", x.A, x.B)
		}
	}
}

// A shorter episode half-life flips a forgetting probe of the demo set,
// and names a memory the temporal stage drops as forgotten only under it,
// with both traces to show it.
func TestExperimentShorterEpisodeHalfLife(t *testing.T) {
	short := writePolicy(t, "# 에피소드 반감기 3일\nforgetting:\n  half_life_episode: 3d\n")
	x := experimentJSON(t, "--policy", short, "--at", "+30d")
	if !x.Regressed || x.B.Passed >= x.A.Passed || x.PolicyA != "defaults" {
		t.Fatalf("figures: A %+v B %+v regressed %v", x.A, x.B, x.Regressed)
	}
	forgettingFlipped, forgottenOnlyB := false, ""
	for _, d := range x.Probes {
		if d.Traces[0] == nil || d.Traces[1] == nil {
			t.Fatalf("%s: a difference without both traces", d.ID)
		}
		if !d.Flipped() {
			continue
		}
		forgettingFlipped = forgettingFlipped || strings.HasPrefix(d.ID, "forget-") && d.PassA && !d.PassB
		for _, m := range d.Drops {
			if m.Under == "B" && m.Kind == engine.DropForgotten && m.OtherKind == "" {
				if kindIn(d.Traces[1], m.Memory) != engine.DropForgotten || kindIn(d.Traces[0], m.Memory) != "" {
					t.Fatalf("%s: %s is not forgotten under B only in the traces", d.ID, m.Memory)
				}
				forgottenOnlyB = d.ID + " " + m.Memory
			}
		}
	}
	if !forgettingFlipped || forgottenOnlyB == "" {
		t.Fatalf("forgetting probe flipped: %v; forgotten only under the short half-life: %q", forgettingFlipped, forgottenOnlyB)
	}
	text := mustRunCLI(t, "experiment", demoSet, "--policy", short, "--at", "+30d")
	if !strings.Contains(text, "dropped under B: forgotten at temporal (under the other: not dropped)") || !strings.Contains(text, "pass → fail") {
		t.Fatalf("text form:\n%s", text)
	}
	if _, _, code := runCLI(t, "experiment", demoSet, "--policy", short, "--at", "+30d", "--fail-on-regression"); code == 0 {
		t.Fatal("--fail-on-regression passed a regression")
	}
}

// kindIn is the drop kind of memory (key:K) in t, "" when no stage dropped it.
func kindIn(t *engine.Trace, memory string) engine.DropKind {
	for _, st := range t.Stages {
		for _, it := range st.Items {
			if "key:"+it.Key == memory && it.DropKind != "" {
				return it.DropKind
			}
		}
	}
	return ""
}

// golden run --policy runs the set under the file's policy.
func TestGoldenRunUnderPolicy(t *testing.T) {
	short := writePolicy(t, "forgetting:\n  half_life_episode: 3d\n")
	out, _, code := runCLI(t, "golden", "run", demoSet, "--policy", short, "--json", "--fail-on-regression")
	if code == 0 {
		t.Fatalf("the short half-life fails no probe:\n%.300s", out)
	}
	var r goldenRunJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Summary.Failed == 0 {
		t.Fatalf("%v %+v", err, r.Summary)
	}
	bad := writePolicy(t, "forgetting:\n  halflife: 3d\n")
	if _, stderr, code := runCLI(t, "golden", "run", demoSet, "--policy", bad); code == 0 || !strings.Contains(stderr, "line 2") {
		t.Fatalf("a bad policy: exit %d %s", code, stderr)
	}
}

// --sweep: the default's own value differs from nothing; the plot has a
// row per value; a bad key or value says what is valid.
func TestExperimentSweep(t *testing.T) {
	out := mustRunCLI(t, "experiment", demoSet, "--json", "--sweep", "forgetting.half_life_episode=3d,14d")
	var sw golden.Sweep
	if err := json.Unmarshal([]byte(out), &sw); err != nil || len(sw.Points) != 2 {
		t.Fatalf("%v\n%.300s", err, out)
	}
	if p := sw.Points[1]; p.Value != "14d" || p.Differences != 0 || p.Figures.Passed != p.Figures.Probes {
		t.Fatalf("the default value: %+v", p)
	}
	if p := sw.Points[0]; p.Flipped == 0 || p.Figures.MeanSurvivors >= sw.Points[1].Figures.MeanSurvivors {
		t.Fatalf("3d: %+v", p)
	}
	text := mustRunCLI(t, "experiment", demoSet, "--sweep", "forgetting.half_life_episode=3d,14d")
	if !strings.Contains(text, "pass rate") || !strings.Contains(text, "█") || !strings.Contains(text, "14d") {
		t.Fatalf("plot:\n%s", text)
	}
	for _, bad := range []string{"forgetting.halflife=3d", "forgetting.half_life_episode=soon", "recall.k"} {
		if _, stderr, code := runCLI(t, "experiment", demoSet, "--sweep", bad); code != 2 || stderr == "" {
			t.Errorf("--sweep %s: exit %d %s", bad, code, stderr)
		}
	}
}
