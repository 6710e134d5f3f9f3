package engine_test

import (
	"errors"
	"fmt"
	"testing"

	"memtrace/engine"
)

// Callers classify an error by its code, found through any wrapping (%w,
// errors.Join, a store's coded error that keeps the driver's cause), never
// by its text.
func TestErrorCode(t *testing.T) {
	notFound := engine.Errorf(engine.ENOTFOUND, "memory %d not found", 7)
	for _, c := range []struct {
		name       string
		err        error
		code, text string
	}{
		{"Nil", nil, "", ""},
		{"Coded", notFound, engine.ENOTFOUND, "memory 7 not found"},
		{"Wrapped", fmt.Errorf("forget: %w", notFound), engine.ENOTFOUND, "memory 7 not found"},
		{"Joined", errors.Join(errors.New("driver: no rows"), notFound), engine.ENOTFOUND, "memory 7 not found"},
		{"Uncoded", errors.New("no such thing"), engine.EINTERNAL, "no such thing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := engine.ErrorCode(c.err); got != c.code {
				t.Errorf("ErrorCode = %q, want %q", got, c.code)
			}
			if got := engine.ErrorMessage(c.err); got != c.text {
				t.Errorf("ErrorMessage = %q, want %q", got, c.text)
			}
		})
	}
}
