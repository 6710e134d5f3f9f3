// Package testcases holds test tables that several packages check their
// entry points against, so that they are held to one behaviour: the time
// grammar (testdata/timegrammar.tsv) that recall, compare, forecast,
// heartbeat, golden and the TUI all read.
package testcases

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TimeNow is the "now" of the time grammar table (the demo database's
// pinned clock).
var TimeNow = time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC)

// TimeCase is one input of the time grammar: the time it names when now is
// TimeNow, or the message it is rejected with.
type TimeCase struct {
	Input string
	Want  time.Time // zero when rejected
	Error string    // the message, when rejected
}

// TimeGrammar reads testdata/timegrammar.tsv.
func TimeGrammar(tb testing.TB) []TimeCase {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "timegrammar.tsv")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("time grammar table: %v", err)
	}
	defer f.Close()
	var cases []TimeCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		in, want, ok := strings.Cut(line, "\t")
		if !ok {
			tb.Fatalf("%s:%d: want INPUT<TAB>TIME or INPUT<TAB>error: MESSAGE", path, n)
		}
		if msg, isErr := strings.CutPrefix(want, "error: "); isErr {
			cases = append(cases, TimeCase{Input: in, Error: msg})
			continue
		}
		t, err := time.Parse(time.RFC3339, want)
		if err != nil {
			tb.Fatalf("%s:%d: %v", path, n, err)
		}
		cases = append(cases, TimeCase{Input: in, Want: t.UTC()})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(cases) == 0 {
		tb.Fatalf("%s holds no cases", path)
	}
	return cases
}
