package textable

import (
	"strings"
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

// TestFitKeepsTheText: at 80 columns a table of the Memories tab's shape
// first narrows TYPE, then leaves out KEY (the lowest Drop) until the text
// column has MinText cells, and TYPE gets back what the text does not
// need; narrower still, KIND goes next. The rows stay exactly as wide as
// the screen, Korean included, and a left-out column takes no cell and no
// gap. Wide enough, nothing gives way.
func TestFitKeepsTheText(t *testing.T) {
	cols := []Column{
		{Title: "ID", Width: 6, Right: true},
		{Title: "KEY", Width: 12, Drop: 1},
		{Title: "TYPE", Width: 14, Min: 10, Drop: 4},
		{Title: "KIND", Width: 7, Drop: 2},
		{Title: "TIER", Width: 4, Drop: 3},
		{Title: "STATUS", Width: 11},
		{Title: "IMP", Width: 4, Right: true},
		{Title: "CONTENT"},
	}
	fixed := 6 + 12 + 14 + 7 + 4 + 11 + 4 + 7 // the columns and their gaps
	wide := Fit(cols, fixed+MinText, MinText)
	if h := Header(wide); !strings.Contains(h, "KEY") || !strings.Contains(h, "KIND") || wide[2].Width != 14 || wide[7].Width != MinText {
		t.Fatalf("with room for everything nothing should give way: %q", h)
	}

	fit := Fit(cols, 80, MinText)
	h := Header(fit)
	if strings.Contains(h, "KEY") || !strings.Contains(h, "KIND") || !strings.Contains(h, "TIER") {
		t.Errorf("at 80 columns KEY alone should give way: %q", h)
	}
	if got := fit[7].Width; got != MinText {
		t.Errorf("the text column has %d cells at 80 columns, want %d", got, MinText)
	}
	if want := 14 - (MinText - (80 - (fixed - 13))); fit[2].Width != want || want <= 10 {
		t.Errorf("TYPE should give only what the text still needs once KEY is out: %d, want %d", fit[2].Width, want)
	}
	row := Row(fit, []string{"7", "m0022", "health", "fact", "warm", "active", "0.85", "참고로 저는 유당불내증이 있어요, 우유는 안 마셔요"})
	if safetext.Width(row) != 80 || safetext.Width(h) != 80 {
		t.Errorf("rows must stay 80 cells: %d %q", safetext.Width(row), row)
	}
	if strings.Contains(row, "m0022") || !strings.Contains(row, "health") || !strings.Contains(row, "fact") || !strings.Contains(row, "참고로") {
		t.Errorf("the row's cells must follow their columns: %q", row)
	}

	tight := Fit(cols, 70, MinText)
	if h := Header(tight); strings.Contains(h, "KIND") || !strings.Contains(h, "TIER") || tight[2].Width != 10 || tight[7].Width < MinText || safetext.Width(h) != 70 {
		t.Errorf("at 70 columns KIND should go too and TYPE narrow to its Min: %q (TYPE %d)", h, tight[2].Width)
	}
	if all := Fit(cols, 40, MinText); safetext.Width(Header(all)) < 40 || all[7].Width < 8 {
		t.Errorf("with nothing left to give the text keeps at least 8 cells: %q", Header(all))
	}
}

// TestWrapKeepsWordsWhole: Wrap breaks at word boundaries only — a word,
// a number or a date is never split unless it alone is wider than the
// line — counts a Korean character as two cells, keeps the text's own
// line breaks and shows control sequences instead of running them.
func TestWrapKeepsWordsWhole(t *testing.T) {
	text := "they hold 0.500 of the score until 2026-03-28, then 엄마가 사과를 제일 좋아하셔 and stop"
	words := strings.Fields(text)
	for width := 12; width <= 40; width++ {
		lines := Wrap(text, width)
		var got []string
		for _, l := range lines {
			if w := safetext.Width(l); w > width {
				t.Errorf("width %d: line %q is %d cells", width, l, w)
			}
			got = append(got, strings.Fields(l)...)
		}
		if strings.Join(got, " ") != strings.Join(words, " ") {
			t.Errorf("width %d: a word was split or lost:\n%q", width, lines)
		}
	}
	long := Wrap("see https://example.com/a/very/long/path/that/cannot/fit ok", 20)
	if len(long) < 3 || long[0] != "see" || long[1] != "https://example.com/" || !strings.HasSuffix(long[len(long)-1], " ok") {
		t.Errorf("a word wider than the line is cut where the line ends: %q", long)
	}
	if got := Wrap("first line\nsecond\x1b[2J", 40); len(got) != 2 || got[0] != "first line" || strings.Contains(got[1], "\x1b") {
		t.Errorf("line breaks kept, control sequences neutralised: %q", got)
	}
}
