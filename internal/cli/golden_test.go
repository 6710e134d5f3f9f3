package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/golden"
	"memtrace/recall"
)

const demoSet = "testdata/golden/demo.yaml"
const demoBaseline = "testdata/golden/demo.baseline.json"

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// The CI gate: the project's own set passes against its reviewed baseline.
func TestGoldenDemoPassesAgainstBaseline(t *testing.T) {
	out, errOut, code := runCLI(t, "golden", "run", demoSet, "--baseline", demoBaseline, "--fail-on-regression", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	var got struct {
		Summary   golden.Summary        `json:"summary"`
		Probes    []struct{ ID string } `json:"probes"`
		Regressed bool                  `json:"regressed"`
		Diff      *golden.RunDiff       `json:"diff"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Summary.Probes < 26 || got.Summary.Passed != got.Summary.Probes || got.Regressed || got.Diff == nil {
		t.Fatalf("summary %+v regressed %v", got.Summary, got.Regressed)
	}
	if got.Probes[0].ID != "greeting-annyeong" {
		t.Errorf("first probe %q", got.Probes[0].ID)
	}
}

// dropFirst is a deliberately broken pipeline: it loses the best survivor.
type dropFirst struct{ golden.Recaller }

func (d dropFirst) Recall(ctx context.Context, q engine.Query) (*engine.Trace, error) {
	t, err := d.Recaller.Recall(ctx, q)
	if err == nil && len(t.Survivors) > 0 {
		t.Survivors = t.Survivors[1:]
	}
	return t, err
}

func TestGoldenBrokenPipelineFailsWithReadableDiff(t *testing.T) {
	ctx := context.Background()
	set, err := loadSet(demoSet)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "fixture.db")
	if err := buildFixture(ctx, set, path); err != nil {
		t.Fatal(err)
	}
	eng, _, closeDB, err := openEngineAt(ctx, path, true, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	base, err := golden.LoadRun(demoBaseline)
	if err != nil {
		t.Fatal(err)
	}
	out, err := runAgainst(ctx, set, dropFirst{recall.Over(eng)}, runnerOf(eng), base)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	err = report(&buf, out, reportOptions{baseline: demoBaseline, failOnRegression: true})
	if err == nil {
		t.Fatalf("a pipeline that drops the first survivor passed the gate:\n%s", buf.String())
	}
	text := buf.String()
	for _, want := range []string{"REGRESSED", "BROKE   health-blood-type: pass → fail", `✗ present "key:m0076"`, "- left    key:m0076"} {
		if !strings.Contains(text, want) {
			t.Errorf("diff lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(engine.ErrorMessage(err), "broke") {
		t.Errorf("error %q does not say what broke", engine.ErrorMessage(err))
	}
}

func TestGoldenRunErrorsSayWhatToDo(t *testing.T) {
	_, errOut, code := runCLI(t, "golden", "run", "testdata/golden/nope.yaml")
	if code != 1 || !strings.Contains(errOut, "check the path") {
		t.Errorf("missing set: exit %d, %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "golden", "run", demoSet, "--at", "yesterday")
	if code != 2 || !strings.Contains(errOut, "+30d") {
		t.Errorf("bad --at: exit %d, %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "golden", "fly")
	if code != 2 || !strings.Contains(errOut, "run or stress") {
		t.Errorf("unknown subcommand: exit %d, %q", code, errOut)
	}
}

// --at shifts the whole set: a year later the fresh episode has faded.
func TestGoldenRunAt(t *testing.T) {
	out, _, code := runCLI(t, "golden", "run", demoSet, "--at", "+365d", "--json")
	var got struct {
		Probes []struct {
			ID   string
			Pass bool
		} `json:"probes"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("exit %d: %v", code, err)
	}
	for _, p := range got.Probes {
		if p.ID == "time-episode-fresh" && p.Pass {
			t.Error("a year later the 냉면 episode is still recalled")
		}
	}
}

func TestGoldenStressInflates(t *testing.T) {
	out, errOut, code := runCLI(t, "golden", "stress", demoSet, "--inflate", "3", "--chitchat", filepath.Join(t.TempDir(), "none.csv"), "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got stressJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.ChitChat != "generated" || got.Base.Passed != got.Base.Probes || len(got.Runs) != 1 {
		t.Fatalf("stress %+v", got)
	}
	r := got.Runs[0]
	if r.Inflate != 3 || r.Memories != 3*got.Memories || r.Summary.Probes != got.Base.Probes {
		t.Fatalf("run %+v (base %d memories)", r, got.Memories)
	}
	for _, p := range r.Degraded {
		if p.Change != golden.ChangeBroke && len(p.Left) == 0 {
			t.Errorf("%s listed as degraded without breaking or losing a survivor", p.ID)
		}
	}
}
