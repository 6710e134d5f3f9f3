package engine

// WithoutSupersession turns the supersession rule off for c: the reference
// the detection benchmark measures against.
func WithoutSupersession(c *Capturer) { c.rule = nil }
