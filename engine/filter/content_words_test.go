package filter

import "testing"

// TestContentWordsMixedScript: a Latin name carrying a Korean particle
// ("Jira로", "Notion에서") is a content word as the bare name is; a lone
// Latin letter with a particle, a particle alone and a Korean function
// word are not.
func TestContentWordsMixedScript(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"이슈 관리는 Jira로 해", 3},
		{"문서는 Notion에서 써", 2},
		{"Go로 짜", 1},
		{"A로 해", 0},
		{"그래서 그냥", 0},
		{"we track issues in Jira", 3},
	} {
		if got := ContentWords(tc.text, 10); got != tc.want {
			t.Errorf("ContentWords(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}
