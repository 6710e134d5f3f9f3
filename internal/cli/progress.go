package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"memtrace/internal/safetext"
)

// progress draws a long job's progress on stderr: a bar redrawn in place
// on a terminal, a line every tenth of the way otherwise (a log file or a
// CI job gets a readable record, not carriage returns).
type progress struct {
	w           io.Writer
	tty         bool
	label, unit string
	total, done int
	lastTenth   int
}

func newProgress(w io.Writer, label, unit string, total int) *progress {
	// The bar redraws its line with a carriage return: it writes under
	// the output's sanitiser, its label sanitised here.
	if sw, ok := w.(*safetext.Writer); ok {
		w = sw.Raw()
	}
	return &progress{w: w, tty: isTerminal(w), label: safetext.SanitizeLine(label), unit: unit, total: total, lastTenth: -1}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	if sw, ok := w.(*safetext.Writer); ok {
		w = sw.Raw()
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// set records that done of total are finished and redraws.
func (p *progress) set(done int) {
	p.done = min(done, p.total)
	pct := 100
	if p.total > 0 {
		pct = 100 * p.done / p.total
	}
	if p.tty {
		const width = 30
		fill := width * pct / 100
		fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d %s %3d%%", p.label, strings.Repeat("#", fill), strings.Repeat(".", width-fill), p.done, p.total, p.unit, pct)
		return
	}
	if tenth := pct / 10; tenth != p.lastTenth {
		p.lastTenth = tenth
		fmt.Fprintf(p.w, "%s: %d/%d %s (%d%%)\n", p.label, p.done, p.total, p.unit, pct)
	}
}

// finish ends the bar's line on a terminal.
func (p *progress) finish() {
	if p.tty {
		fmt.Fprintln(p.w)
	}
}
