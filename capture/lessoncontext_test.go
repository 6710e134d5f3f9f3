package capture

import (
	"slices"
	"testing"
)

// TestFrameValues: a value swap needs two values of one frame, not two
// wordings' extras.
func TestFrameValues(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"british", "american", true}, {"double", "single", true}, {"mmddyyyy", "ddmmyyyy", true},
		{"after", "sum", false}, {"python", "slow", false}, {"description", "first", false}, {"변수", "english", false},
	} {
		if got := frameValues(c.a, c.b); got != c.want {
			t.Errorf("frameValues(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestNegationFallsOnTheHead: a negated modifier the rule names again
// elsewhere hands its negation to the word after it.
func TestNegationFallsOnTheHead(t *testing.T) {
	got := lessonTerms("Use git switch, not git checkout.")
	if !slices.Contains(got, "not_checkout") || !slices.Contains(got, "git") || slices.Contains(got, "not_git") {
		t.Errorf("lessonTerms = %q, want git, switch, not_checkout", got)
	}
}
