package engine

import (
	"fmt"
	"time"
)

// TimeStep is one of the fixed times the TUI's `[` and `]` step through,
// `:recall … @` completes and `memtrace forecast ID` reports: Days after
// now.
type TimeStep struct {
	Label string // "now", "+1d" …: an input of the time grammar naming it
	Days  int
}

// Offset is the step's distance from now.
func (s TimeStep) Offset() time.Duration { return time.Duration(s.Days) * 24 * time.Hour }

// TimeSteps are the steps now, +1d, +7d, +30d, +90d and +365d, in order.
// Every caller takes them from here so the TUI, the palette and the CLI
// step through the same times.
func TimeSteps() []TimeStep {
	days := []int{0, 1, 7, 30, 90, 365}
	out := make([]TimeStep, len(days))
	for i, d := range days {
		out[i] = TimeStep{Label: fmt.Sprintf("+%dd", d), Days: d}
	}
	out[0].Label = "now"
	return out
}
