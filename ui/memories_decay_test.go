package ui

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/safetext"
)

// detailOf opens the detail of the only memory m at w×h and returns the
// screen.
func detailOf(t *testing.T, mem *engine.Memory, w, h int) string {
	t.Helper()
	c := *mem // the store sets the id
	m, _ := openMemories(t, []*engine.Memory{&c}, w, h)
	return screen(drive(t, m, press("enter")))
}

// axisLine is the plot's x axis: the line that starts with "now".
func axisLine(view string) (string, bool) {
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "now  ") {
			return l, true
		}
	}
	return "", false
}

func TestDecayCurveMarksTheForecast(t *testing.T) {
	// An episode of importance 0.5, never accessed, created 10 days ago:
	// H = 14 d × (1 + 2·0.5) × (1 + ln 1) = 28 d, and it is forgotten when
	// 2^(−Δt/H) × 0.5 < 0.05, i.e. Δt* = 28 d × log2(10) ≈ 93.01 d after
	// creation — 83 days from now.
	mem := newMemories(1)[0]
	mem.Kind, mem.Importance, mem.CreatedAt = engine.KindEpisode, 0.5, testNow.AddDate(0, 0, -10)
	forget := mem.CreatedAt.Add(time.Duration(28 * 24 * math.Log2(10) * float64(time.Hour)))
	if got := engine.ForgetAt(*mem, engine.DefaultConfig()); got.Sub(forget).Abs() > time.Second {
		t.Fatalf("ForgetAt = %s, the documented formula gives %s", got, forget)
	}
	for _, w := range []int{100, 160} {
		view := detailOf(t, mem, w, 40)
		axis, ok := axisLine(view)
		if !ok {
			t.Fatalf("width %d: no decay plot:\n%s", w, view)
		}
		cols := w - 2 - decayLabelWidth
		// Column i covers [now + i·365d/cols, now + (i+1)·365d/cols).
		want := int(forget.Sub(testNow).Hours() / (365 * 24) * float64(cols))
		mark := strings.Index(axis, "▲")
		if mark < 0 {
			t.Fatalf("width %d: no forecast mark on %q", w, axis)
		}
		if got := safetext.Width(axis[:mark]) - 2 - decayLabelWidth; got != want {
			t.Errorf("width %d: the mark is in column %d, the forecast %s is in column %d", w, got, forget.Format(time.DateOnly), want)
		}
		if n := strings.Count(axis, "▲"); n != 1 {
			t.Errorf("width %d: %d marks", w, n)
		}
		if safetext.Width(axis) != w {
			t.Errorf("width %d: the axis is %d cells", w, safetext.Width(axis))
		}
		// Both horizons; the level after them only where the width allows.
		caption := fmt.Sprintf("drops out of free recall on %s (in 83 days, ▲), unrecognisable after %s",
			forget.Format(time.DateOnly), engine.UnrecognisableAt(*mem, engine.DefaultConfig()).Format(time.DateOnly))
		if w >= 160 {
			caption += " · below decay 0.10"
		}
		if !strings.Contains(view, caption) {
			t.Errorf("width %d: caption %q missing:\n%s", w, caption, view)
		}
		// The threshold line is labelled with its level and starts in the
		// column after the mark, where decay has fallen below it.
		line := lineWith(view, ".10 ┤")
		if dash := strings.Index(line, "┄"); line == "" || safetext.Width(line[:dash])-2-decayLabelWidth != want+1 {
			t.Errorf("width %d: the threshold line does not start after column %d: %q", w, want, line)
		}
		// The audit history keeps its place under the plot.
		if !strings.Contains(view, "audit history") || !strings.Contains(view, "created: memory number 1") {
			t.Errorf("width %d: the plot pushed the audit history out:\n%s", w, view)
		}
	}

	// The data under the mark: decay is at or above the forget level up to
	// the marked column's start and below it from the next column on.
	p := newDecayPlot(*mem, testNow, 93, engine.DefaultConfig())
	c := p.forgetCol
	if c < 1 || p.samples[c] < p.forgetLevel || p.samples[c+1] >= p.forgetLevel || math.Abs(p.forgetLevel-0.1) > 1e-12 {
		t.Errorf("column %d: samples %.4f %.4f around level %.4f", c, p.samples[c], p.samples[c+1], p.forgetLevel)
	}
	if p.samples[0] != engine.Decay(*mem, testNow, engine.DefaultConfig()) || p.samples[0] >= 1 {
		t.Errorf("the first column is decay now: %v", p.samples[0])
	}
}

func TestDecayCurveBeyondTheYearAndAlreadyForgotten(t *testing.T) {
	// A fact of importance 0.9: H = 180 d × 2.8 = 504 d, forgotten after
	// 504 d × log2(18) ≈ 2102 days — beyond the plot, so no mark.
	fact := newMemories(1)[0]
	fact.Importance = 0.9
	forget := fact.CreatedAt.Add(time.Duration(504 * 24 * math.Log2(18) * float64(time.Hour)))
	view := detailOf(t, fact, 120, 40)
	axis, ok := axisLine(view)
	if !ok || strings.Contains(axis, "▲") || !strings.HasSuffix(strings.TrimSpace(axis), "+365d") {
		t.Errorf("fact: axis %q", axis)
	}
	if want := "drops out of free recall on " + forget.Format(time.DateOnly) + ", beyond this year, unrecognisable after " +
		engine.UnrecognisableAt(*fact, engine.DefaultConfig()).Format(time.DateOnly); !strings.Contains(view, want) {
		t.Errorf("fact: %q missing:\n%s", want, view)
	}

	// An episode of importance 0.2 last used 200 days ago is gone already.
	old := newMemories(1)[0]
	old.Kind, old.Importance = engine.KindEpisode, 0.2
	old.CreatedAt = testNow.AddDate(0, 0, -300)
	old.LastAccessedAt = testNow.AddDate(0, 0, -200)
	forget = engine.ForgetAt(*old, engine.DefaultConfig())
	view = detailOf(t, old, 120, 40)
	if want := "out of free recall since " + forget.Format(time.DateOnly) + ", unrecognisable since " +
		engine.UnrecognisableAt(*old, engine.DefaultConfig()).Format(time.DateOnly); !strings.Contains(view, want) || !forget.Before(testNow) {
		t.Errorf("old episode: %q missing:\n%s", want, view)
	}
	if axis, _ := axisLine(view); strings.Contains(axis, "▲") {
		t.Errorf("old episode: a mark on %q", axis)
	}

	// Importance under the threshold: forgotten from its creation on.
	faint := newMemories(1)[0]
	faint.Importance = 0.04
	view = detailOf(t, faint, 120, 40)
	if want := "out of free recall since " + faint.CreatedAt.Format(time.DateOnly) + ", unrecognisable since " +
		faint.CreatedAt.Format(time.DateOnly) + " · importance under the forget threshold"; !strings.Contains(view, want) {
		t.Errorf("faint memory: %q missing:\n%s", want, view)
	}
}

func TestDecayPlotWhenTheDetailIsShort(t *testing.T) {
	mem := newMemories(1)[0]
	mem.Kind = engine.KindEpisode
	// 100×30 still has room for the bars above one audit row.
	view := detailOf(t, mem, 100, 30)
	if _, ok := axisLine(view); !ok || !strings.Contains(view, "created: memory number 1") {
		t.Errorf("no plot or no audit row at 100×30:\n%s", view)
	}
	// 100×24 keeps the selected row alone above the detail and flows the
	// fields, so the bars still fit above the audit row.
	view = detailOf(t, mem, 100, 24)
	if _, ok := axisLine(view); !ok || !strings.Contains(view, "created: memory number 1") {
		t.Errorf("no plot or no audit row at 100×24:\n%s", view)
	}
	if !strings.Contains(view, "decay drops out of free recall on") {
		t.Errorf("no forecast at 100×24:\n%s", view)
	}
	if !strings.Contains(view, "audit history") {
		t.Errorf("the audit history is gone at 100×24:\n%s", view)
	}
}
