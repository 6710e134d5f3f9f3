package textable

import (
	"strings"

	"memtrace/internal/safetext"
)

// Wrap is the one word-boundary wrapping of memtrace's text (the TUI's
// reasons, trails and details, the CLI's help): s, sanitised (control
// sequences shown, not run; a tab one space), broken into lines of at most
// width display cells (a Korean character takes two), keeping its own line
// breaks. A line ends after the last space that fits, so a word, a number
// ("0.500") or a date ("2026-03-28") is never split — unless it alone is
// wider than the line, when it is cut where the line ends.
func Wrap(s string, width int) []string {
	width = max(1, width)
	s = strings.ReplaceAll(safetext.Sanitize(s), "\t", " ")
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		first := true
		for {
			if !first {
				para = strings.TrimLeft(para, " ")
			}
			first = false
			if safetext.Width(para) <= width {
				lines = append(lines, para)
				break
			}
			cut := wordCut(para, width)
			lines = append(lines, strings.TrimRight(para[:cut], " "))
			para = para[cut:]
		}
	}
	return lines
}

// wordCut is where a line of at most width cells of s ends: after the last
// space that fits (a word boundary), or mid-word when one word is wider
// than the line.
func wordCut(s string, width int) int {
	cut := CutAt(s, width)
	if cut >= len(s) {
		return cut
	}
	if s[cut] == ' ' {
		return cut + 1
	}
	if i := strings.LastIndexByte(s[:cut], ' '); i > 0 {
		return i + 1
	}
	return cut
}

// CutAt returns the byte index where the first width cells of s end,
// never splitting a rune and always advancing at least one rune.
func CutAt(s string, width int) int {
	w := 0
	for i, r := range s {
		rw := safetext.Width(string(r))
		if w+rw > width && i > 0 {
			return i
		}
		w += rw
	}
	return len(s)
}
