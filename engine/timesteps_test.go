package engine_test

import (
	"strings"
	"testing"

	"memtrace/engine"
)

// The steps are the ones the TUI documents, and each label is an input of
// the time grammar that names exactly its step.
func TestTimeSteps(t *testing.T) {
	steps := engine.TimeSteps()
	var labels []string
	for _, s := range steps {
		labels = append(labels, s.Label)
		w, err := engine.ParseWhen(s.Label)
		if err != nil || !w.Relative || w.Offset != s.Offset() {
			t.Errorf("%q parses to %+v, %v; want the offset %v", s.Label, w, err, s.Offset())
		}
	}
	if got, want := strings.Join(labels, " "), "now +1d +7d +30d +90d +365d"; got != want {
		t.Errorf("TimeSteps() = %s, want %s", got, want)
	}
	if steps[0].Days != 0 || steps[len(steps)-1].Days != 365 {
		t.Errorf("TimeSteps() run from %d to %d days, want 0 to 365", steps[0].Days, steps[len(steps)-1].Days)
	}
	// A caller may change its copy without changing the steps.
	steps[1].Days = 2
	if engine.TimeSteps()[1].Days != 1 {
		t.Error("TimeSteps() shares its slice with its callers")
	}
}
