package engine_test

import (
	"testing"
	"time"

	"memtrace/engine"
)

// ParseAt is the time grammar: every case of the shared table, with its
// exact message when rejected (the other entry points show the same one).
func TestParseAtTimeGrammar(t *testing.T) {
	examples, exErr := engine.TimeExamples()
	if exErr != nil {
		t.Fatal(exErr)
	}
	for _, c := range examples {
		got, err := engine.ParseAt(c.Input, engine.TimeExamplesNow)
		switch {
		case c.Error != "" && err == nil:
			t.Errorf("ParseAt(%q) = %v, want the error %q", c.Input, got, c.Error)
		case c.Error != "" && engine.ErrorMessage(err) != c.Error:
			t.Errorf("ParseAt(%q): %q, want %q", c.Input, engine.ErrorMessage(err), c.Error)
		case c.Error == "" && (err != nil || !got.Equal(c.Want)):
			t.Errorf("ParseAt(%q) = %v, %v; want %v", c.Input, got, err, c.Want)
		}
	}
	// ParseWhen keeps an offset as an offset, for callers that apply it to
	// another base (a golden set's defaults.at).
	w, err := engine.ParseWhen("+1w")
	if err != nil || !w.Relative || w.Offset != 7*24*time.Hour {
		t.Errorf("ParseWhen(+1w) = %+v, %v", w, err)
	}
	if w, err := engine.ParseWhen("2026-08-01"); err != nil || w.Relative || !w.From(time.Time{}).Equal(time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("ParseWhen(2026-08-01) = %+v, %v", w, err)
	}
}
