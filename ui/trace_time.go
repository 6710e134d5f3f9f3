package ui

import (
	"errors"
	"strings"
	"time"

	"memtrace/engine"
)

// timeOverride is the moment the Trace tab recalls at: one of
// engine.TimeSteps after now, or a typed time (custom).
type timeOverride struct {
	step   int       // index into engine.TimeSteps when custom is zero
	custom time.Time // a typed time; zero when stepping
}

// at is the recall time for the clock reading now.
func (o timeOverride) at(now time.Time) time.Time {
	if !o.custom.IsZero() {
		return o.custom.UTC()
	}
	return now.UTC().Add(engine.TimeSteps()[o.step].Offset())
}

// isNow reports that the override is "now" itself.
func (o timeOverride) isNow() bool { return o.custom.IsZero() && o.step == 0 }

// label is how the status line names the override: "now", "+7d", or the
// typed time.
func (o timeOverride) label() string {
	if !o.custom.IsZero() {
		return "@ " + o.custom.UTC().Format(time.RFC3339)
	}
	return engine.TimeSteps()[o.step].Label
}

// next is the following step (`]`): from a typed time, the first step
// after it. It stays at the last step.
func (o timeOverride) next(now time.Time) timeOverride {
	if o.custom.IsZero() {
		o.step = min(o.step+1, len(engine.TimeSteps())-1)
		return o
	}
	for i := range engine.TimeSteps() {
		if (timeOverride{step: i}).at(now).After(o.custom) {
			return timeOverride{step: i}
		}
	}
	return timeOverride{step: len(engine.TimeSteps()) - 1}
}

// prev is the step before (`[`): from a typed time, the last step before it.
func (o timeOverride) prev(now time.Time) timeOverride {
	if o.custom.IsZero() {
		o.step = max(o.step-1, 0)
		return o
	}
	for i := len(engine.TimeSteps()) - 1; i >= 0; i-- {
		if (timeOverride{step: i}).at(now).Before(o.custom) {
			return timeOverride{step: i}
		}
	}
	return timeOverride{}
}

// parseOverride reads what the user typed after `@`, in the one time
// grammar (engine.ParseWhen: now, +30d, -2h, +1w, +1d12h, a date, an RFC
// 3339 time), offsets from now. An offset that is one of the steps becomes
// that step, so `[` and `]` carry on from it.
func parseOverride(s string, now time.Time) (timeOverride, error) {
	w, err := engine.ParseWhen(s)
	if err != nil {
		return timeOverride{}, errors.New(engine.ErrorMessage(err))
	}
	if w.Relative {
		for i, st := range engine.TimeSteps() {
			if w.Offset == st.Offset() {
				return timeOverride{step: i}, nil
			}
		}
	}
	return timeOverride{custom: w.From(now)}, nil
}

// overrideAt is the override for a recall time given by another tab or
// the palette: a step when it is one (":recall … @+30d" shows +30d and ]
// carries on from it), else that time.
func overrideAt(at, now time.Time) timeOverride {
	for i := range engine.TimeSteps() {
		if o := (timeOverride{step: i}); o.at(now).Equal(at.UTC()) {
			return o
		}
	}
	return timeOverride{custom: at.UTC()}
}

// stepLabels are the steps as `[` and `]` walk them: "now → +1d → …".
func stepLabels() string {
	var labels []string
	for _, st := range engine.TimeSteps() {
		labels = append(labels, st.Label)
	}
	return strings.Join(labels, " → ")
}
