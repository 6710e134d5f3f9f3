package textnorm

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestPorter2MatchesReference holds the stemmer to stems made by an
// independent Snowball English implementation for every distinct English
// word of the demo, LoCoMo and ko_chatbot text (testdata/porter2/README.md).
func TestPorter2MatchesReference(t *testing.T) {
	f, err := os.Open("testdata/porter2/stems.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	words, mismatches := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		word, want, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("line %d: %q is not word<TAB>stem", words+1, sc.Text())
		}
		words++
		if got := porter2(word, false); got != want {
			mismatches++
			if mismatches <= 20 {
				t.Errorf("porter2(%q) = %q, reference %q", word, got, want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if words < 7000 {
		t.Fatalf("%d words in the fixture, want the full list (7,266)", words)
	}
	t.Logf("%d of %d words match the reference", words-mismatches, words)
}
