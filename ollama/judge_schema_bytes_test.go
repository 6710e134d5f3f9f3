package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"memtrace/engine"
)

// The `format` schemas are a contract byte for byte, not only in meaning:
// Ollama's grammar keeps the schema's property order, every cache key and
// verdict file holds the SchemaHash of the bytes, PromptHash covers them,
// and `memtrace help judge` prints them. testdata/format holds each schema
// as the client sent it when the schemas were still concatenated strings;
// -update rewrites the files, which is a schema change: bump PromptVersion
// with it.
var updateFormat = flag.Bool("update", false, "rewrite testdata/format from the schemas sent now")

// formatFile is the golden file of one schema; the bytes are the file
// without its final newline.
func formatFile(name string) string { return filepath.Join("testdata", "format", name+".json") }

func goldenFormat(t *testing.T, name string, got []byte) []byte {
	t.Helper()
	path := formatFile(name)
	if *updateFormat {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(bytes.Clone(got), '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to record it)", err)
	}
	return bytes.TrimSuffix(want, []byte("\n"))
}

// sentFormat is the `format` field of the only chat request f received,
// byte for byte as it crossed the wire.
func sentFormat(t *testing.T, f *fakeOllama) []byte {
	t.Helper()
	bodies := f.rawBodies("/api/chat")
	if len(bodies) != 1 {
		t.Fatalf("%d chat requests, want 1", len(bodies))
	}
	var req struct {
		Format json.RawMessage `json:"format"`
	}
	if err := json.Unmarshal(bodies[0], &req); err != nil {
		t.Fatal(err)
	}
	return req.Format
}

// TestFormatBytes sends one request of every kind and compares the
// `format` it carried with the recorded bytes; for triage the verdict's
// SchemaHash must be the hash of those bytes too (the schema in memory is
// the one on the wire).
func TestFormatBytes(t *testing.T) {
	ctx := context.Background()
	capture := func(in engine.CaptureInput) func(*fakeOllama) string {
		return func(f *fakeOllama) string {
			f.scriptChat("chat_capture_store.ndjson")
			if _, err := NewCaptureJudge(f.client(5*time.Second), Options{Model: testModel}).JudgeCapture(ctx, in); err != nil {
				t.Fatal(err)
			}
			return ""
		}
	}
	withCandidates := func(labels ...string) engine.CaptureInput {
		in := captureIn("아이폰 15로 바꿨어.")
		for i, l := range labels {
			in.Candidates = append(in.Candidates, engine.SupersedeCandidate{Label: l, ID: int64(i + 1), Text: "내 핸드폰은 갤럭시 S21이야.", At: time.Date(2026, 1, 7, 0, 0, 0, 0, time.UTC)})
		}
		return in
	}
	triage := func(itemType string, types []string) func(*fakeOllama) string {
		return func(f *fakeOllama) string {
			f.scriptChat("chat_triage_echo.ndjson")
			v, err := NewTriager(f.client(5*time.Second), Options{Model: testModel, Types: types}).Triage(ctx, TriageItem{ID: 1, Type: itemType, Text: "점심 뭐 먹지?"})
			if err != nil {
				t.Fatal(err)
			}
			return v.SchemaHash
		}
	}
	type formatCase struct {
		name string
		send func(*fakeOllama) string // the verdict's SchemaHash, if it has one
	}
	cases := []formatCase{
		{"capture", capture(captureIn("I'm vegetarian."))},
		{"capture_updates_C1_C2", capture(withCandidates("C1", "C2"))},
		{"capture_updates_C1_C2_C3", capture(withCandidates("C1", "C2", "C3"))},
		{"promotion", func(f *fakeOllama) string {
			f.scriptChat("chat_promotion_promote.ndjson")
			if _, err := NewPromotionReviewer(f.client(5*time.Second), Options{Model: testModel}).Review(ctx, promotionLesson()); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
		{"probe", func(f *fakeOllama) string {
			f.scriptChat("chat_probe_ok.ndjson")
			if _, err := f.client(5*time.Second).Probe(ctx, testModel); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
		// A label under review that is not one of the labels: every label
		// may be its retype.
		{"triage_relationship_milestone", triage("relationship_milestone", nil)},
		// The only label is the one under review: no retype branch.
		{"triage_only_label", triage("milestone", []string{"milestone"})},
		// Labels that JSON escapes (<, >, &, a quote, non-ASCII).
		{"triage_escaped_labels", triage("note", []string{"note", `a<b>&"c"`, "선물"})},
	}
	for _, label := range DefaultTypes {
		cases = append(cases, formatCase{"triage_" + label, triage(label, nil)})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeOllama(t)
			hash := tc.send(f)
			got := sentFormat(t, f)
			want := goldenFormat(t, tc.name, got)
			if !bytes.Equal(got, want) {
				t.Fatalf("format sent:\n%s\nwant (%s):\n%s", got, formatFile(tc.name), want)
			}
			if hash != "" && hash != SchemaHash(want) {
				t.Fatalf("verdict schema hash %s, want the hash of the bytes sent %s", hash, SchemaHash(want))
			}
		})
	}
}

// TestSchemasAreTheBytesSent: what `memtrace help judge` prints is what
// the judges send.
func TestSchemasAreTheBytesSent(t *testing.T) {
	golden := []string{"capture", "capture_updates_C1_C2_C3", "triage_milestone", "promotion"}
	schemas := Schemas()
	if len(schemas) != len(golden) {
		t.Fatalf("%d schemas, want %d", len(schemas), len(golden))
	}
	for i, s := range schemas {
		want, err := os.ReadFile(formatFile(golden[i]))
		if err != nil {
			t.Fatal(err)
		}
		if want = bytes.TrimSuffix(want, []byte("\n")); !bytes.Equal(s.Schema, want) {
			t.Errorf("%s:\n%s\nwant (%s):\n%s", s.Name, s.Schema, formatFile(golden[i]), want)
		}
	}
}
