// Package timetest is the one table of the time grammar
// (testdata/timegrammar.tsv) that every package with an entry point taking
// a time — engine, golden, ui, the CLI — tests it against, so that they
// accept and reject the same inputs with the same messages. A test helper
// (the name ends in "test", as httptest's does).
package timetest

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Now is the "now" of the time grammar table (the demo database's
// pinned clock).
var Now = time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC)

// Case is one input of the time grammar: the time it names when now is
// Now, or the message it is rejected with.
type Case struct {
	Input string
	Want  time.Time // zero when rejected
	Error string    // the message, when rejected
}

// Cases reads testdata/timegrammar.tsv.
func Cases(tb testing.TB) []Case {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "timegrammar.tsv")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("time grammar table: %v", err)
	}
	defer f.Close()
	var cases []Case
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
			cases = append(cases, Case{Input: in, Error: msg})
			continue
		}
		t, err := time.Parse(time.RFC3339, want)
		if err != nil {
			tb.Fatalf("%s:%d: %v", path, n, err)
		}
		cases = append(cases, Case{Input: in, Want: t.UTC()})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(cases) == 0 {
		tb.Fatalf("%s holds no cases", path)
	}
	return cases
}
