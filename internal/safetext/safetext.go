// Package safetext makes untrusted text (memory content, captured messages,
// judge reasons) safe to draw in a terminal, and measures it in display cells.
//
// Memory text comes from conversations and from other programs; it may hold
// escape sequences that retitle the window (OSC 0), clear the screen (CSI 2J),
// or reorder what the curator reads (bidi overrides). Sanitize never lets such
// a byte reach the terminal: every control is replaced by a visible stand-in,
// so the curator sees that the memory contained a sequence instead of having
// it executed. ESC becomes "␛", so "\x1b[2J" reads "␛[2J".
//
// Widths are display cells (Hangul and other wide characters take two), the
// same measure Lip Gloss and Bubble Tea use for layout.
package safetext

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Stand-ins for characters that would otherwise act on the terminal.
const (
	// Esc replaces ESC (0x1B); the rest of the sequence stays as plain text.
	Esc = "␛"
	// Newline replaces a line break in SanitizeLine.
	Newline = "⏎"
	// Ellipsis ends truncated text.
	Ellipsis = "…"
	// Invalid replaces bytes that are not UTF-8.
	Invalid = "\uFFFD"
)

// Sanitize returns s with every terminal control neutralised, keeping line
// breaks ("\n") and tabs for text shown as a block. "\r\n" becomes "\n";
// a lone "\r" is shown as "␍".
func Sanitize(s string) string {
	return sanitize(s, true)
}

// SanitizeLine is Sanitize for a single cell or row: line breaks (\n, \r\n,
// U+2028, U+2029) become "⏎" and tabs become a space, so the result always
// occupies exactly one terminal line.
func SanitizeLine(s string) string {
	return sanitize(s, false)
}

// Clean reports whether s would come out of SanitizeLine unchanged, which
// lets hot paths skip the copy.
func Clean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		if unsafeRune(r) || prependRune(r) {
			return false
		}
		i += size
	}
	return true
}

func sanitize(s string, block bool) string {
	if Clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == '\n':
				if block {
					b.WriteByte('\n')
				} else {
					b.WriteString(Newline)
				}
			case c == '\r' && i < len(s) && s[i] == '\n':
				// "\r\n" is one line break; the "\n" is handled next.
			case c == '\t':
				if block {
					b.WriteByte('\t')
				} else {
					b.WriteByte(' ')
				}
			case c == 0x1b:
				b.WriteString(Esc)
			case c < 0x20:
				// C0 controls have Control Pictures at U+2400 + c.
				b.WriteRune(0x2400 + rune(c))
			case c == 0x7f:
				b.WriteString("␡")
			default:
				b.WriteByte(c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(Invalid)
		case r >= 0x80 && r <= 0x9f:
			// A C1 control is the 8-bit form of ESC + (c − 0x40): U+009B is
			// CSI, shown as "␛[".
			b.WriteString(Esc)
			b.WriteRune(r - 0x40)
		case r == 0x2028 || r == 0x2029:
			if block {
				b.WriteByte('\n')
			} else {
				b.WriteString(Newline)
			}
		case unsafeRune(r):
			b.WriteString(bidiName(r))
		case prependRune(r):
			// It would glue itself to the next character; show where it was.
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafeRune reports non-ASCII runes that must not reach the terminal as is:
// C1 controls, line/paragraph separators, and the bidi embeddings, overrides
// and isolates that can make text read in a different order than it is
// stored (the "Trojan Source" trick).
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200e || r == 0x200f || r == 0x061c:
		// LRM, RLM and ALM are invisible direction marks.
		return true
	}
	return false
}

// bidiName is the visible stand-in of a direction control.
func bidiName(r rune) string {
	names := map[rune]string{
		0x202a: "LRE", 0x202b: "RLE", 0x202c: "PDF", 0x202d: "LRO", 0x202e: "RLO",
		0x2066: "LRI", 0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI",
		0x200e: "LRM", 0x200f: "RLM", 0x061c: "ALM",
	}
	return "⟨" + names[r] + "⟩"
}

// Width is the display width of s in terminal cells: wide characters count
// two, escape sequences none.
func Width(s string) int {
	return ansi.StringWidth(s)
}

// Truncate shortens s to at most w cells, ending it with "…" when it was cut.
// A wide character is never split: the result may be one cell narrower.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, Ellipsis)
}

// PadRight truncates s to w cells and pads it with spaces to exactly w cells,
// so columns of mixed Korean and English text line up.
func PadRight(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s = Truncate(s, w)
	if n := w - Width(s); n > 0 {
		s += strings.Repeat(" ", n)
	}
	return s
}

// PadLeft is PadRight aligned to the right, for numbers.
func PadLeft(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s = Truncate(s, w)
	if n := w - Width(s); n > 0 {
		s = strings.Repeat(" ", n) + s
	}
	return s
}

// EscapeJSON rewrites every rune of encoded JSON that would act on a
// terminal — C1 controls, bidi embeddings, overrides, isolates and marks,
// line and paragraph separators, prepended concatenation marks — as a \uXXXX
// escape. Such runes can only stand inside JSON strings, where the escape
// decodes to the same text: the document means what it meant, and its bytes
// on stdout are inert. encoding/json already escapes C0 controls (ESC is
// \u001b).
func EscapeJSON(b []byte) []byte {
	clean := true
	for _, r := range string(b) {
		if r >= 0x80 && (unsafeRune(r) || prependRune(r)) {
			clean = false
			break
		}
	}
	if clean {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	for _, r := range string(b) {
		if r >= 0x80 && (unsafeRune(r) || prependRune(r)) {
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
			continue
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}

// prependRune reports the characters of Unicode's grapheme break property
// Prepend: they join the character after them into one cluster, so a
// terminal draws "\u0601 " in one cell where its parts measure two, and
// columns shift. Most are invisible format marks.
func prependRune(r rune) bool {
	switch {
	case r >= 0x0600 && r <= 0x0605, r == 0x06dd, r == 0x070f, r == 0x0890, r == 0x0891, r == 0x08e2, r == 0x0d4e,
		r == 0x110bd, r == 0x110cd, r == 0x111c2, r == 0x111c3, r == 0x1193f, r == 0x11941, r == 0x11a3a,
		r >= 0x11a84 && r <= 0x11a89, r == 0x11d46, r == 0x11f02:
		return true
	}
	return false
}

// ActsOnTerminal reports a non-ASCII rune that Sanitize never lets through
// as it is: a C1 control, a line or paragraph separator, a bidi control or
// a Prepend mark. Writers of other formats (Markdown) escape these runes
// their own way.
func ActsOnTerminal(r rune) bool {
	return r >= 0x80 && (unsafeRune(r) || prependRune(r))
}
