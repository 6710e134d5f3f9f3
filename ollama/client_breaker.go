package ollama

import (
	"errors"
	"fmt"
	"sync"

	"memtrace/engine"
)

// ErrBreakerOpen is in the chain of the error every call returns once the
// client's breaker has tripped (errors.Is).
var ErrBreakerOpen = errors.New("judge breaker open")

// breakerError is the error of a call refused by the open breaker: an
// engine error (what to do) that also matches ErrBreakerOpen.
type breakerError struct{ e *engine.Error }

func (b *breakerError) Error() string   { return b.e.Message }
func (b *breakerError) Unwrap() []error { return []error{b.e, ErrBreakerOpen} }

// breaker stops a run from asking a judge that keeps failing: after limit
// consecutive failed calls (an error, a timeout, a 5xx, or an answer still
// invalid after its retry) every further call fails at once, so a run of
// thousands of messages does not wait out the timeout on each. It trips
// once and says so once, through notify.
type breaker struct {
	limit  int // <0: never trips
	notify func(string)

	mu     sync.Mutex
	failed int   // consecutive failures
	last   error // the last failure
	open   bool
	msg    string
}

// allow returns the breaker's error when it is open.
func (b *breaker) allow() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open {
		return &breakerError{engine.Errorf(engine.EUNAVAIL, "%s", b.msg)}
	}
	return nil
}

// record counts one call's outcome (nil: it succeeded).
func (b *breaker) record(host, model string, failure error) {
	b.mu.Lock()
	if failure == nil {
		b.failed, b.last = 0, nil
		b.mu.Unlock()
		return
	}
	b.failed++
	b.last = failure
	trip := b.limit > 0 && !b.open && b.failed >= b.limit
	if trip {
		b.open = true
		b.msg = fmt.Sprintf("judge stopped: %d calls in a row to model %s at %s failed (last: %s); the rest of this run is not sent to the judge; check it with `memtrace judge check --model %s`, then run again",
			b.failed, model, host, engine.ErrorMessage(failure), model)
	}
	msg, notify := b.msg, b.notify
	b.mu.Unlock()
	if trip && notify != nil {
		notify(msg)
	}
}

// Tripped reports whether the breaker is open, and why.
func (c *Client) Tripped() (bool, string) {
	c.brk.mu.Lock()
	defer c.brk.mu.Unlock()
	return c.brk.open, c.brk.msg
}
