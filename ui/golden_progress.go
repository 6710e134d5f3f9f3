package ui

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"

	"memtrace/internal/wording"
)

// goldenProgress is the Golden tab's run in flight: its sequence number,
// the channel its progress comes through and its cancel func, and the bar
// that shows how far it got (building the fixture, then the probes).
type goldenProgress struct {
	c           *common
	running     bool
	cancel      context.CancelFunc
	seq         int
	events      <-chan goldenProgressMsg
	fixture     bool // the run is building its fixture
	done, total int
	bar         progress.Model
	target      float64 // where the bar is heading: done/total
	width       int
}

func newGoldenProgress(c *common) goldenProgress {
	g := goldenProgress{c: c}
	g.bar = g.newBar()
	return g
}

func (g goldenProgress) newBar() progress.Model {
	st := g.c.styles
	b := progress.New(progress.WithColors(st.App.Title.GetForeground()), progress.WithFillCharacters('█', '░'))
	b.EmptyColor = st.Table.Muted.GetForeground()
	b.SetWidth(g.barWidth())
	return b
}

// barWidth leaves room beside the bar for "  12/32 probes".
func (g goldenProgress) barWidth() int { return max(10, min(60, g.width-24)) }

// SetWidth sizes the bar for a pane w cells wide.
func (g goldenProgress) SetWidth(w int) goldenProgress {
	g.width = w
	g.bar.SetWidth(g.barWidth())
	return g
}

// start shows a new run from zero: total probes, or a fixture to build
// first; it returns the run's sequence number.
func (g goldenProgress) start(cancel context.CancelFunc, events <-chan goldenProgressMsg, fixture bool, total int) (goldenProgress, int) {
	g.seq++
	g.running, g.cancel, g.events = true, cancel, events
	g.fixture, g.done, g.total = fixture, 0, total
	g.bar = g.newBar()
	return g, g.seq
}

// stop cancels the run; its goldenRunMsg still ends it.
func (g goldenProgress) stop() {
	if g.cancel != nil {
		g.cancel()
	}
}

// finish ends the run (its goldenRunMsg arrived).
func (g goldenProgress) finish() goldenProgress {
	g.running, g.fixture = false, false
	if g.cancel != nil {
		g.cancel()
		g.cancel = nil
	}
	return g
}

// Update follows the run's progress (the next message is waited for
// again), the bar's animation frames and a new theme.
func (g goldenProgress) Update(msg tea.Msg) (goldenProgress, tea.Cmd) {
	switch msg := msg.(type) {
	case restyleMsg:
		g.bar = g.newBar()
		return g, g.aim(g.target)
	case goldenProgressMsg:
		if msg.Seq != g.seq || !g.running {
			return g, nil
		}
		if g.fixture && !msg.Fixture {
			// The fixture is built: the bar starts over for the probes.
			g.bar = g.newBar()
		}
		g.fixture, g.done, g.total = msg.Fixture, msg.Done, msg.Total
		pct := 0.0
		if msg.Total > 0 {
			pct = float64(msg.Done) / float64(msg.Total)
		}
		return g, tea.Batch(g.aim(pct), waitGolden(g.events))
	case progress.FrameMsg:
		var cmd tea.Cmd
		g.bar, cmd = g.bar.Update(msg)
		// A live frame (or a settled bar) picks up the latest target; a
		// stale frame of a replaced animation does nothing.
		if g.bar.Percent() != g.target && (cmd != nil || !g.bar.IsAnimating()) {
			cmd = g.bar.SetPercent(g.target)
		}
		return g, frame(cmd)
	}
	return g, nil
}

// aim points the progress bar at pct. Probes finish faster than the bar's
// frames, and every SetPercent restarts its animation, so while it is moving
// the next frame picks up the new target instead.
func (g *goldenProgress) aim(pct float64) tea.Cmd {
	g.target = pct
	if g.bar.IsAnimating() {
		return nil
	}
	return frame(g.bar.SetPercent(pct))
}

// frame routes the progress bar's animation frames back to the Golden
// pane even when another tab is active (the root sends bare messages to
// the active pane only).
func frame(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg { return send(paneGolden, cmd()) }
}

// View is the bar and what it counts, while the run is in flight.
func (g goldenProgress) View() string {
	switch {
	case !g.running:
		return ""
	case g.fixture && g.total > 0:
		return g.bar.View() + fmt.Sprintf("  building the fixture: %d/%s captured", g.done, wording.Count(g.total, "message"))
	case g.fixture:
		return g.bar.View() + "  building the fixture database…"
	}
	return g.bar.View() + fmt.Sprintf("  %d/%s", g.done, wording.Count(g.total, "probe"))
}
