package engine

import (
	_ "embed"
	"fmt"
	"strings"
	"time"
)

// timeGrammar is the table of the one time grammar: each input with the
// time it names when now is TimeExamplesNow, or the message it is refused
// with. `memtrace help time` prints it, and the tests hold every entry
// point that takes a time (recall, compare, forecast, golden, heartbeat,
// the TUI's @) to it, so the help cannot say what the parser does not do.
//
//go:embed timegrammar.tsv
var timeGrammar string

// TimeExamplesNow is the "now" of the time grammar table (the demo
// database's pinned clock).
var TimeExamplesNow = time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC)

// TimeExample is one input of the time grammar: the time it names when now
// is TimeExamplesNow, or the message it is refused with.
type TimeExample struct {
	Input string
	Want  time.Time // zero when refused
	Error string    // the message, when refused
}

// TimeExamples reads the embedded time grammar table. An error names the
// line of the table that does not parse.
func TimeExamples() ([]TimeExample, error) {
	var out []TimeExample
	for n, line := range strings.Split(timeGrammar, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		in, want, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("timegrammar.tsv:%d: want INPUT<TAB>TIME or INPUT<TAB>error: MESSAGE", n+1)
		}
		if msg, refused := strings.CutPrefix(want, "error: "); refused {
			out = append(out, TimeExample{Input: in, Error: msg})
			continue
		}
		t, err := time.Parse(time.RFC3339, want)
		if err != nil {
			return nil, fmt.Errorf("timegrammar.tsv:%d: %w", n+1, err)
		}
		out = append(out, TimeExample{Input: in, Want: t.UTC()})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("timegrammar.tsv: no cases")
	}
	return out, nil
}
