package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// bench scale at a toy size: both backends measured, PostgreSQL's
// notification latency among them, every scratch space dropped.
func TestBenchScaleSmall(t *testing.T) {
	base := storetest.PGBase(t)
	out, stderr, code := runCLI(t, "bench", "scale", "--db", base, "--spaces", "2", "--per", "20", "--open", "50",
		"--queries", "5", "--writes", "3", "--notifies", "5", "--json")
	if code != 0 {
		t.Fatalf("bench scale: exit %d: %s", code, stderr)
	}
	var res scaleResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Sides) != 2 || res.Sides[0].Backend != "postgres" || res.Sides[1].Backend != "sqlite" {
		t.Fatalf("sides %+v", res.Sides)
	}
	pg, lite := res.Sides[0], res.Sides[1]
	if pg.Filled != 2*20+50 || lite.Filled != 50 || pg.OpenMS <= 0 || pg.RecallP50MS <= 0 || pg.IngestPerSec <= 0 || pg.NotifyP95MS <= 0 ||
		lite.IngestPerSec <= 0 || lite.NotifyComment == "" {
		t.Fatalf("figures %+v", res.Sides)
	}
	spaces, err := store.ListSpaces(t.Context(), base)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range spaces {
		if strings.Contains(s.Space, "_scale_") {
			t.Errorf("bench scale left space %s behind", s.Space)
		}
	}
	if _, stderr, code := runCLI(t, "bench", "scale", "--db", "x.db"); code != 2 || !strings.Contains(stderr, "postgres://") {
		t.Errorf("bench scale on a SQLite --db: exit %d %q", code, stderr)
	}
}
