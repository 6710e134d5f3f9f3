package engine

import "memtrace/engine/sanitize"

// SanitizeText makes untrusted memory text safe to put on one line of a
// prompt or a terminal (sanitize.Text: control characters, bidirectional
// overrides and white space become single spaces, memory-block tags are
// defused).
func SanitizeText(s string) string { return sanitize.Text(s) }
