package capture

import "memtrace/engine"

// WithoutSupersession turns the supersession rule off for c: the reference
// the detection benchmark measures against.
func WithoutSupersession(c *Capturer) { c.rule = nil }

// DedupeIndex is the engine's capture index, for tests that check it is
// kept across Capturers (nil before the first capture that needed it).
func DedupeIndex(e *engine.Engine) any {
	captureOf(e).dxMu.Lock()
	defer captureOf(e).dxMu.Unlock()
	return captureOf(e).dx
}
