package cli

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"memtrace/internal/testdata/ollamatest"
)

// Seed 001 end to end on a store brought from elsewhere: import a Chroma
// directory as it is, triage its milestones with the real Ollama judge,
// approve every proposal, and roll the approval back: the memories are
// exactly as imported. (The tiny CI model's verdicts are noise; what is
// checked is the path, not the judgement.)
func TestSeed001PathOnAChromaImport(t *testing.T) {
	model := ollamatest.RealModel(t, ollamatest.ChatModel)
	dir := t.TempDir()
	src := filepath.Join(dir, "chroma")
	if err := writeSourceChroma(src); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "seed001.db")
	if _, errOut, code := runCLI(t, "--db", db, "import", "memories", src); code != 0 {
		t.Fatal(errOut)
	}
	imported, _, _ := runCLI(t, "--db", db, "list", "--json", "--limit", "0", "--status", "")

	out, errOut, code := runCLI(t, "--db", db, "triage", "--type", "milestone", "--model", model, "--sample", "0", "--json")
	if code != 0 {
		t.Fatalf("triage: exit %d: %s\n%s", code, errOut, out)
	}
	var tri struct {
		Judged int `json:"judged"`
	}
	_ = json.Unmarshal([]byte(out), &tri)
	milestones := sourceLabelCounts["MILESTONE:love"] + sourceLabelCounts["MILESTONE:work"]
	if tri.Judged != 0 && tri.Judged != milestones {
		t.Fatalf("triage judged %d memories, the fixture has %d milestones", tri.Judged, milestones)
	}
	out, errOut, code = runCLI(t, "--db", db, "approve", "--all-pending", "--json")
	if code != 0 {
		t.Fatalf("approve: exit %d: %s\n%s", code, errOut, out)
	}
	var appr struct {
		Batch   string `json:"batch"`
		Applied int    `json:"applied"`
	}
	if out != "no pending proposals to approve\n" {
		if err := json.Unmarshal([]byte(out), &appr); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	pending, _, _ := runCLI(t, "--db", db, "proposals", "--json")
	var left []json.RawMessage
	_ = json.Unmarshal([]byte(pending), &left)
	if len(left) != 0 {
		t.Fatalf("after approve --all-pending, %d proposals still pending: %s", len(left), pending)
	}
	if appr.Batch != "" {
		if out, errOut, code := runCLI(t, "--db", db, "rollback", appr.Batch, "--yes", "--force"); code != 0 {
			t.Fatalf("rollback %s: exit %d: %s\n%s", appr.Batch, code, errOut, out)
		}
	}
	restored, _, _ := runCLI(t, "--db", db, "list", "--json", "--limit", "0", "--status", "")
	if restored != imported {
		t.Fatalf("after rollback of %s (%d applied) the memories differ from the import", appr.Batch, appr.Applied)
	}
}
