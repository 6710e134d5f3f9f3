package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/policy"
)

const demoSetPath = "../testdata/golden/demo.yaml"

func writePolicyFile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "short.yaml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// runExperiment opens the experiment prompt with X, types spec and waits
// for both arms.
func (g *goldenHarness) runExperiment(spec string) {
	g.t.Helper()
	g.keys("X")
	if !g.p.input.Focused() || g.p.inputFor != inputPolicy {
		g.t.Fatal("X did not ask for policy B")
	}
	g.typeText(spec)
	g.keys("enter")
	if !g.p.exp.running || !g.p.Busy() || !strings.Contains(g.view(), "running the set under A and B") {
		g.t.Fatalf("enter did not start the experiment off the UI goroutine with a busy line:\n%s", g.view())
	}
	g.until("the experiment", func(p goldenPane) bool { return !p.exp.running })
	if g.p.exp.x == nil {
		g.t.Fatalf("no experiment: %q", g.p.err)
	}
}

// memoryID is the id of the memory key:K in t's items, 0 when absent.
func memoryID(t *engine.Trace, memory string) int64 {
	for _, st := range t.Stages {
		for _, it := range st.Items {
			if "key:"+it.Key == memory {
				return it.ID
			}
		}
	}
	return 0
}

func dropKindOf(t *engine.Trace, memory string) engine.DropKind {
	for _, st := range t.Stages {
		for _, it := range st.Items {
			if "key:"+it.Key == memory && it.DropKind != "" {
				return it.DropKind
			}
		}
	}
	return ""
}

// The acceptance test of issue #35 in the TUI: on the demo set, a policy
// with a shorter episode half-life (at +30d) flips at least one forgetting
// probe, and enter on it opens the Trace split with A left and B right,
// whose text names the memory B's recall drops as forgotten — on the B
// side only (A keeps it).
func TestGoldenExperimentShorterHalfLifeSplit(t *testing.T) {
	short := writePolicyFile(t, "# 에피소드 반감기 3일\nforgetting:\n  half_life_episode: 3d\n")
	g := newGoldenHarness(t, demoSetPath, 120, 40)
	g.loaded()
	g.runExperiment(short + " @ +30d")
	x := g.p.exp.x
	if x.PolicyA != "defaults" || !x.Regressed || x.B.Passed >= x.A.Passed {
		t.Fatalf("A %q %+v, B %+v, regressed %v", x.PolicyA, x.A, x.B, x.Regressed)
	}
	v := g.view()
	for _, want := range []string{"Experiment · demo · at +30d", "A = defaults · B = " + displayPath(short), "pass rate",
		"probes differ", "fail"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the view lacks %q:\n%s", want, v)
		}
	}
	// The flipped probes come first; a forgetting probe flips, and a
	// flipped probe's memory is forgotten by B's temporal stage, A keeping
	// it (as TestExperimentShorterEpisodeHalfLife asks of the CLI).
	at, memory, forgetFlipped := -1, "", false
	var ids []string
	for i, d := range x.Probes {
		ids = append(ids, d.ID)
		if i > 0 && d.Flipped() && !x.Probes[i-1].Flipped() {
			t.Fatalf("probe %s flipped after one that did not", d.ID)
		}
		if !d.Flipped() {
			continue
		}
		forgetFlipped = forgetFlipped || strings.HasPrefix(d.ID, "forget-") && d.PassA && !d.PassB
		for _, m := range d.Drops {
			if at < 0 && m.Under == "B" && m.Kind == engine.DropForgotten && m.OtherKind == "" {
				at, memory = i, m.Memory
			}
		}
	}
	if at < 0 || !forgetFlipped {
		t.Fatalf("forgetting probe flipped: %v; a memory forgotten under B only: %v; differing: %v", forgetFlipped, at >= 0, ids)
	}
	d := x.Probes[at]
	for range at {
		g.keys("j")
	}
	if !strings.Contains(g.view(), "dropped under B: forgotten at temporal (under the other: not dropped) "+memory) {
		t.Fatalf("the selected probe's detail does not name %s:\n%s", memory, g.view())
	}
	g.keys("enter")
	g.until("the split request", func(goldenPane) bool { return len(g.traces) == 1 })
	msg := g.traces[0]
	if msg.Policies == nil || msg.Trace != d.Traces[1] || msg.Fixture != g.p.exp.arms[1] {
		t.Fatalf("enter did not open B's trace on B's fixture with both policies: %+v", msg)
	}
	tp := openFromGolden(t, newTestTrace(g.p.c.deps.Engine, g.p.c.deps.Store, 120, 40), msg)
	if !tp.split || tp.pol == nil {
		t.Fatal("the Trace tab did not open the split")
	}
	id := memoryID(d.Traces[1], memory)
	if id == 0 || dropKindOf(d.Traces[0], memory) != "" || dropKindOf(d.Traces[1], memory) != engine.DropForgotten {
		t.Fatalf("%s (id %d) is not forgotten under B only in the traces", memory, id)
	}
	// At 120 columns the split stacks: A's column, then B's.
	split := ansi.Strip(strings.Join(tp.splitView(), "\n"))
	cut := strings.Index(split, "\nB · "+displayPath(short))
	if cut < 0 || !strings.HasPrefix(split, "A · defaults · ") {
		t.Fatalf("the split is not A then B:\n%s", split)
	}
	sideA, sideB := split[:cut], split[cut:]
	end := strings.Index(sideB, "\nforgotten under B")
	if end < 0 {
		t.Fatalf("no forgotten-under-B section:\n%s", split)
	}
	sideB, below := sideB[:end], sideB[end:]
	rowA, rowB := rowOf(sideA, id), rowOf(sideB, id)
	if rowA == "" || strings.Contains(rowA, "✗ forgotten") || !strings.Contains(rowA, "kept · B ✗") {
		t.Fatalf("A's side of %d: %q\n%s", id, rowA, split)
	}
	if !strings.Contains(rowB, "✗ forgotten") {
		t.Fatalf("B's side does not name %d forgotten: %q\n%s", id, rowB, split)
	}
	if r := rowOf(below, id); !strings.Contains(r, "temporal") {
		t.Fatalf("the forgotten-under-B list lacks %d with why: %q\n%s", id, r, split)
	}
}

// rowOf is the first line of text whose ID column is id.
func rowOf(text string, id int64) string {
	want := " " + itoa(int(id)) + " "
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, want) {
			return l
		}
	}
	return ""
}

// W writes B as the database's policy after a confirmation, as one policy
// batch the history lists; rolling it back restores the policy recorded
// before exactly.
func TestGoldenExperimentWriteAndRollback(t *testing.T) {
	g := newGoldenHarness(t, demoSetPath, 120, 40)
	ctx := context.Background()
	st := g.p.c.deps.Store
	before := writePolicyFile(t, "recall:\n  k: 6\n")
	cfg0, err := policy.ReadFile(before)
	if err != nil {
		t.Fatal(err)
	}
	batch0, err := curate.SetPolicy(ctx, st, string(policy.Encode(cfg0)), engine.ActorCurator, g.p.c.now())
	if err != nil {
		t.Fatal(err)
	}
	text0, _ := st.GetSetting(ctx, curate.SettingPolicy)
	g.loaded()
	short := writePolicyFile(t, "forgetting:\n  half_life_episode: 3d\n")
	g.runExperiment(short)
	if want := "the DB's policy (" + batch0 + ")"; g.p.exp.a.Name != want || g.p.exp.a.Config != cfg0 {
		t.Fatalf("A is %q %+v, want %q", g.p.exp.a.Name, g.p.exp.a.Config, want)
	}
	g.keys("W")
	if !g.p.exp.confirm || !strings.Contains(g.view(), "forgetting.half_life_episode 14d → 3d") || !strings.Contains(g.view(), "recall.k 6 → 8") {
		t.Fatalf("W did not ask with what it changes:\n%s", g.view())
	}
	g.keys("n")
	if got, _ := st.GetSetting(ctx, curate.SettingPolicy); got != text0 || g.p.exp.confirm {
		t.Fatal("n wrote the policy")
	}
	g.keys("W", "y")
	g.until("the write", func(p goldenPane) bool { return !p.exp.writing })
	batch, err := curate.PolicyBatch(ctx, st)
	if err != nil || batch == batch0 || !strings.Contains(g.p.status, "batch "+batch) {
		t.Fatalf("batch %q (before %q), status %q, err %q", batch, batch0, g.p.status, g.p.err)
	}
	if got, _ := st.GetSetting(ctx, curate.SettingPolicy); got != string(policy.Encode(g.p.exp.b.Config)) {
		t.Fatalf("the database's policy is not B:\n%s", got)
	}
	hist, err := curate.BatchHistory(ctx, st, 0)
	if err != nil || len(hist) < 2 || hist[0].Batch != batch || hist[0].Kind != curate.BatchPolicy || !hist[0].CanRollback ||
		strings.Join(hist[0].Policy, "; ") != "recall.k: 6 → 8; forgetting.half_life_episode: 14d → 3d" && strings.Join(hist[0].Policy, "; ") != "forgetting.half_life_episode: 14d → 3d; recall.k: 6 → 8" {
		t.Fatalf("history: %v %+v", err, hist)
	}
	if _, err := curate.Rollback(ctx, st, curate.RollbackOptions{Batch: batch}); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.GetSetting(ctx, curate.SettingPolicy); got != text0 {
		t.Fatalf("after the rollback: %q, want exactly %q", got, text0)
	}
	if b, _ := curate.PolicyBatch(ctx, st); b != batch0 {
		t.Fatalf("the current policy batch is %q, want %q", b, batch0)
	}
}

// The prompt's "FILE [@ T]": the last @ starts the time (a path may hold
// one); a bad time says what is wrong.
func TestExperimentSpec(t *testing.T) {
	sp, err := parseExperimentSpec(" pol@icy.yaml @ +30d ")
	if err != nil || sp.File != "pol@icy.yaml" || sp.At != "+30d" || sp.When == nil {
		t.Fatalf("%+v %v", sp, err)
	}
	if sp, err := parseExperimentSpec("p.yaml"); err != nil || sp.File != "p.yaml" || sp.When != nil {
		t.Fatalf("%+v %v", sp, err)
	}
	if _, err := parseExperimentSpec("p.yaml @ 언젠가"); err == nil || !strings.Contains(engine.ErrorMessage(err), "the time after @") {
		t.Fatalf("a bad time: %v", err)
	}
}

// An empty B compares the defaults with the database's policy; a database
// that records none is told to give a file, and nothing runs; esc leaves
// the view.
func TestGoldenExperimentEmptyBWithoutPolicy(t *testing.T) {
	g := newGoldenHarness(t, demoSetPath, 80, 24)
	g.loaded()
	g.keys("X", "enter")
	g.until("the refusal", func(p goldenPane) bool { return !p.exp.running })
	if g.p.exp.x != nil || !strings.Contains(g.p.err, "records no policy") || !strings.Contains(g.p.err, "give B a policy file") {
		t.Fatalf("x %v, err %q", g.p.exp.x != nil, g.p.err)
	}
	if !strings.Contains(g.view(), "records no policy") {
		t.Fatalf("the view does not say why:\n%s", g.view())
	}
	g.keys("esc")
	if g.p.exp.shown || !strings.Contains(g.view(), "Golden · demo") {
		t.Fatalf("esc did not leave the experiment view:\n%s", g.view())
	}
}

// The split pairs memories by id: two traces whose ids name different
// memories are told apart.
func TestSameNumbering(t *testing.T) {
	tr := func(id int64, key string) *engine.Trace {
		return &engine.Trace{Stages: []engine.StageTrace{{Name: "candidates", Items: []engine.TraceItem{{ID: id, Key: key}}}}}
	}
	if _, ok := sameNumbering(tr(3, "m0436"), tr(3, "m0436")); !ok {
		t.Fatal("the same numbering refused")
	}
	if id, ok := sameNumbering(tr(3, "m0436"), tr(3, "m0222")); ok || id != 3 {
		t.Fatalf("id 3 names two memories: %d %v", id, ok)
	}
}
