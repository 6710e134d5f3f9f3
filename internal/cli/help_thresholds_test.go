package cli

import (
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
