package ui

import (
	"fmt"
	"math"
	"time"

	"memtrace/engine"
)

// itemFacts are what the whole-item view says about a trace item beyond
// its stage: its forecast (when free recall forgets it, from the recall's
// time) and its supersession (which newer memory replaced it, since when,
// or which older ones it replaced). They read the memory from the database
// the trace recalls from (the engine's cache: no I/O).
func (p tracePane) itemFacts(it engine.TraceItem) []string {
	eng, _ := p.engine()
	if eng == nil || p.trace == nil {
		return nil
	}
	m, ok := eng.Memory(it.ID)
	if !ok {
		return []string{"memory #" + fmt.Sprint(it.ID) + " is no longer in the database: no forecast"}
	}
	at := p.trace.At
	out := []string{forecastLine(m, at, eng.Config())}
	if m.SupersededBy != 0 {
		line := fmt.Sprintf("superseded by #%d", m.SupersededBy)
		if nw, ok := eng.Memory(m.SupersededBy); ok && nw.Key != "" {
			line += " " + nw.Key
		}
		line += fmt.Sprintf(": held until %s (valid_to), link recorded %s", day(m.ValidTo), day(m.SupersededAt))
		if m.IsFormerAt(at) {
			line += " — a former fact at the recall's time"
		} else {
			line += " — still current at the recall's time"
		}
		out = append(out, line)
	}
	if olds := eng.Supersedes(m.ID); len(olds) > 0 {
		line := "supersedes"
		for i, id := range olds {
			if i > 0 {
				line += ","
			}
			line += fmt.Sprintf(" #%d", id)
			if o, ok := eng.Memory(id); ok {
				line += " (until " + day(o.ValidTo) + ")"
			}
		}
		out = append(out, line)
	}
	return out
}

// forecastLine is the free-recall forecast of m as of at: the closed-form
// date it is forgotten if it is not used again (engine.ForgetAt), in days
// from the recall's time.
func forecastLine(m engine.Memory, at time.Time, cfg engine.Config) string {
	when := engine.ForgetAt(m, cfg)
	days := int(math.Round(when.Sub(at).Hours() / 24))
	hl := engine.HalfLife(m, cfg).Hours() / 24
	switch {
	case !when.After(at):
		return fmt.Sprintf("forecast: forgotten in free recall since %s (%d days before the recall's time); only a cue in the query recognises it · half-life %.0f d", day(when), -days, hl)
	case when.Sub(at) > 100*365*24*time.Hour:
		return fmt.Sprintf("forecast: not forgotten in free recall within a century · half-life %.0f d", hl)
	}
	return fmt.Sprintf("forecast: forgotten in free recall on %s (%d days after the recall's time, if not used again) · half-life %.0f d", day(when), days, hl)
}

func day(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02")
}
