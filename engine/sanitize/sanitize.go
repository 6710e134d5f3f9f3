// Package sanitize makes untrusted memory text safe for one line of a
// prompt or a terminal (engine.SanitizeText is its door).
package sanitize

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// blockTag matches anything that could open or close the memory block.
var blockTag = regexp.MustCompile(`(?i)<\s*/?\s*memories\b`)

// Text makes untrusted memory text safe to put on one line of a
// prompt or a terminal: control characters (C0, DEL, C1, including ESC and
// therefore every terminal escape sequence's introducer) and bidirectional
// overrides become spaces, white space folds to single spaces, and tags
// that would open or close the memory block are defused.
func Text(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || isBidiControl(r) || unicode.IsSpace(r) {
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	out := strings.TrimRight(b.String(), " ")
	return blockTag.ReplaceAllStringFunc(out, func(t string) string {
		return strings.NewReplacer("<", "‹").Replace(t)
	})
}

func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}
