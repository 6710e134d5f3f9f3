package cli

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// help stages under an Ollama embedder (a fake server answering with
// 48-dimensional hashed vectors, a different geometry from the offline
// embedder's) prints each gate centroid's threshold with the two
// percentiles it was read from, marks those that do not separate, and
// states the rule; help embedder documents it.
func TestHelpStagesPrintsGateThresholdsPerEmbedder(t *testing.T) {
	srv := newFakeEmbedServer(t, "tiny-embed:latest")
	t.Setenv("OLLAMA_HOST", srv.srv.URL)
	out := mustRun(t, "--embedder", "ollama:tiny-embed", "help", "stages")
	row := regexp.MustCompile(`(?m)^  (milestone|habit|achievement|gift|shared_thing)\s+(en|ko)\s+\d+\s+(-?[0-9.]+)\s+(-?[0-9.]+)\s+(-?[0-9.]+)\s+([0-9.]+)(.*)$`)
	rows := row.FindAllStringSubmatch(out, -1)
	if len(rows) != 10 {
		t.Fatalf("%d gate rows, want 10 (5 types × 2 scripts):\n%s", len(rows), out)
	}
	for _, r := range rows {
		t.Logf("%s/%s: exemplar p10 %s, plain p90 %s, threshold %s%s", r[1], r[2], r[4], r[5], r[6], r[7])
		p10, err1 := strconv.ParseFloat(r[4], 64)
		p90, err2 := strconv.ParseFloat(r[5], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("row %q: %v %v", r[0], err1, err2)
		}
		if (p10 <= p90) != strings.Contains(r[7], "do not separate") && !strings.Contains(r[7], "floor") {
			t.Errorf("%s/%s: p10 %s against p90 %s, note %q", r[1], r[2], r[4], r[5], r[7])
		}
	}
	if !strings.Contains(out, "Capture's extraction gates (ollama") || !strings.Contains(out, "held-out exemplars' p10 is above plain statements' p90") {
		t.Errorf("help stages names neither the embedder nor the rule:\n%s", out)
	}
	emb := mustRun(t, "help", "embedder")
	for _, want := range []string{"Thresholds per embedder", "10th percentile", "threshold 0.50 by default", "capture.dedupe_similarity"} {
		if !strings.Contains(emb, want) {
			t.Errorf("help embedder lacks %q", want)
		}
	}
}

// The store audit says which dedupe threshold its near duplicates count
// from: the one calibrated on the embedder, or the configured one when the
// embedder is away.
func TestAuditNamesItsDedupeThreshold(t *testing.T) {
	db := filepath.Join(t.TempDir(), "h.db")
	mustRun(t, "--db", db, "add", "I grow apples in Chungju every autumn.")
	if out := mustRun(t, "--db", db, "audit"); !strings.Contains(out, "cosine ≥ 0.92, the dedupe similarity calibrated on this embedder") {
		t.Errorf("audit under hashed does not name its threshold:\n%s", out)
	}

	srv := newFakeEmbedServer(t, "tiny-embed:latest")
	t.Setenv("OLLAMA_HOST", srv.srv.URL)
	odb := filepath.Join(t.TempDir(), "o.db")
	mustRun(t, "--db", odb, "--embedder", "ollama:tiny-embed", "add", "I grow apples in Chungju every autumn.")
	var up, away struct {
		Duplicates struct {
			Threshold  float64 `json:"threshold"`
			Calibrated bool    `json:"calibrated"`
		} `json:"duplicates"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "--db", odb, "audit", "--json")), &up); err != nil || !up.Duplicates.Calibrated || up.Duplicates.Threshold < 0.92 {
		t.Errorf("audit with the server up: %+v %v", up, err)
	}
	t.Setenv("OLLAMA_HOST", "http://127.0.0.1:1")
	if err := json.Unmarshal([]byte(mustRun(t, "--db", odb, "audit", "--json")), &away); err != nil || away.Duplicates.Calibrated || away.Duplicates.Threshold != 0.92 {
		t.Errorf("audit with the server away: %+v %v", away, err)
	}
	if out := mustRun(t, "--db", odb, "audit"); !strings.Contains(out, "the configured dedupe similarity: the embedder is away") {
		t.Errorf("audit with the server away does not say its threshold is the configured one:\n%s", out)
	}
}
