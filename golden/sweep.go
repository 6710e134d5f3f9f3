package golden

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
)

// A sweep: one policy key set to each of several values, the set run under
// each, and the figures plotted against the value so the knee is visible.

// SweepPoint is one value of a sweep: its figures, and how many probes
// differ from (and flip against) the sweep's base policy.
type SweepPoint struct {
	Value       string  `json:"value"`
	Figures     Figures `json:"figures"`
	Differences int     `json:"differences"`
	Flipped     int     `json:"flipped"`
}

// Sweep is `memtrace experiment --sweep --json`.
type Sweep struct {
	Set    string       `json:"set"`
	Base   string       `json:"base"` // the policy the key is varied from
	Key    string       `json:"key"`
	Points []SweepPoint `json:"points"`
}

// Plot draws the sweep as two bar charts side by side, pass rate and mean
// survivors against the value, in plain text (no colour: a plot that is
// piped or pasted reads the same).
func (s *Sweep) Plot() string {
	const width = 24
	maxSurv := 0.0
	for _, p := range s.Points {
		maxSurv = max(maxSurv, p.Figures.MeanSurvivors)
	}
	label := 0
	for _, p := range s.Points {
		label = max(label, len(p.Value))
	}
	var values, pass, surv []string
	values = append(values, s.Key)
	pass = append(pass, "pass rate")
	surv = append(surv, "mean survivors")
	for _, p := range s.Points {
		values = append(values, p.Value)
		pass = append(pass, bar(p.Figures.PassRate, 1, width)+fmt.Sprintf(" %5.1f%%", 100*p.Figures.PassRate))
		surv = append(surv, bar(p.Figures.MeanSurvivors, maxSurv, width)+" "+num(p.Figures.MeanSurvivors))
	}
	col := func(lines []string, w int) string {
		return lipgloss.NewStyle().Width(w).PaddingRight(2).Render(strings.Join(lines, "\n"))
	}
	plot := lipgloss.JoinHorizontal(lipgloss.Top, col(values, max(label, len(s.Key))+2), col(pass, width+9), col(surv, width+10))
	lines := strings.Split(plot, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// bar is x of full as a bar of width cells, in eighths.
func bar(x, full float64, width int) string {
	if full <= 0 || x <= 0 {
		return strings.Repeat(" ", width)
	}
	eighths := int(x/full*float64(width*8) + 0.5)
	eighths = min(eighths, width*8)
	partial := []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}
	s := strings.Repeat("█", eighths/8) + partial[eighths%8]
	return s + strings.Repeat(" ", width-len([]rune(s)))
}
