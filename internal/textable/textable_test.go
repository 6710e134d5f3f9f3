package textable

import (
	"testing"

	"memtrace/internal/safetext"
)

// TestRowKeepsTheWidth: a screen row is exactly as wide as its columns and
// their gaps, Korean cells counting two cells a character, long cells cut.
func TestRowKeepsTheWidth(t *testing.T) {
	cols := Fill([]Column{{Title: "ID", Width: 4, Right: true}, {Title: "KEY", Width: 6}, {Title: "TEXT"}}, 30, 5)
	if cols[2].Width != 30-5-7 {
		t.Fatalf("the last column has %d cells, want %d", cols[2].Width, 30-5-7)
	}
	for _, tc := range []struct {
		name  string
		cells []string
		want  string
	}{
		{"Header", []string{"ID", "KEY", "TEXT"}, "  ID KEY    TEXT              "},
		{"Korean", []string{"7", "메시지", "녹차를 좋아한다"}, "   7 메시지 녹차를 좋아한다   "},
		{"Cut", []string{"12345", "a-long-key", "x\x1b[2J"}, "123… a-lon… x␛[2J             "},
		{"Short", []string{"1"}, "   1                          "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Row(cols, tc.cells)
			if tc.name == "Header" {
				got = Header(cols)
			}
			if got != tc.want || safetext.Width(got) != 30 {
				t.Errorf("got %q (%d cells), want %q", got, safetext.Width(got), tc.want)
			}
		})
	}
}
