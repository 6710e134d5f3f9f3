package cli

import (
	"encoding/json"
	"fmt"
	"testing"

	"memtrace/internal/testdata/locomotest"
)

// pipelineFloor is the product's LoCoMo figure (`bench locomo`, all ten
// conversations, the `pipeline` row: the merge stage's order before the
// budget) as measured when this gate was set, at R@5/10/25/50. A change that
// lowers any of them by more than pipelineTolerance fails; a change that
// raises them should raise these numbers in the same commit.
var pipelineFloor = map[int]float64{5: 0.723, 10: 0.801, 25: 0.858, 50: 0.881}

// pipelineTolerance absorbs the last-digit rounding of the recorded figures
// and tie-order changes that move a question or two (1/1982 ≈ 0.0005).
const pipelineTolerance = 0.005

// TestBenchLoCoMoPipelineFloor runs the whole benchmark the way a user does
// (about ten seconds on two cores) and gates the product's own recall.
func TestBenchLoCoMoPipelineFloor(t *testing.T) {
	locomotest.Require(t, locomoFile, "the pipeline's LoCoMo recall floor")
	if testing.Short() {
		t.Skip("-short: the full LoCoMo run (≈10 s) is not gated")
	}
	out, errOut, code := runCLI(t, "bench", "locomo", locomoFile, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Questions     int                                      `json:"questions"`
		Conversations int                                      `json:"conversations"`
		Results       map[string]map[string]map[string]float64 `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Conversations != 10 || got.Questions != 1982 {
		t.Fatalf("%d conversations, %d questions; want all 10 and their 1982 questions with evidence", got.Conversations, got.Questions)
	}
	for _, k := range []int{5, 10, 25, 50} {
		r := fmt.Sprintf("R@%d", k)
		v, ok := got.Results["pipeline"][r]["overall"]
		if !ok {
			t.Fatalf("no pipeline %s in %v", r, got.Results["pipeline"])
		}
		t.Logf("pipeline %s = %.4f (floor %.3f − %.3f)", r, v, pipelineFloor[k], pipelineTolerance)
		if v < pipelineFloor[k]-pipelineTolerance {
			t.Errorf("pipeline %s = %.4f, below the gate %.3f − %.3f: a retrieval or forgetting change lost recall",
				r, v, pipelineFloor[k], pipelineTolerance)
		}
	}
}
