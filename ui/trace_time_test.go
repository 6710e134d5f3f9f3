package ui

import (
	"testing"

	"memtrace/engine"
)

// The typed override (`@`) reads the one time grammar: the shared table's
// times, offsets from the Trace tab's now, and its messages.
func TestTypedOverrideTimeGrammar(t *testing.T) {
	examples, exErr := engine.TimeExamples()
	if exErr != nil {
		t.Fatal(exErr)
	}
	for _, c := range examples {
		o, err := parseOverride(c.Input, engine.TimeExamplesNow)
		switch {
		case c.Error != "" && (err == nil || err.Error() != c.Error):
			t.Errorf("@ %q: error %v, want %q", c.Input, err, c.Error)
		case c.Error == "" && (err != nil || !o.at(engine.TimeExamplesNow).Equal(c.Want)):
			t.Errorf("@ %q = %v, %v; want %v", c.Input, o.at(engine.TimeExamplesNow), err, c.Want)
		}
	}
	// An offset that is a step becomes the step, so [ and ] go on from it.
	if o, err := parseOverride("+1w", engine.TimeExamplesNow); err != nil || o.label() != "+7d" {
		t.Errorf("@ +1w = %s, %v; want the +7d step", o.label(), err)
	}
}
