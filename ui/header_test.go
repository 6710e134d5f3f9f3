package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/tiers"
)

func TestFitHeader(t *testing.T) {
	parts := func() []headerPart {
		return []headerPart{
			part("count 5"),
			{forms: []string{" · a long explanation", ""}},
			{forms: []string{" · path/to/file.yaml", " · file.yaml", ""}, rank: 1},
			{forms: []string{" · 충주 사과 waiting", " · 사과"}, rank: 1},
		}
	}
	for _, tc := range []struct {
		width int
		want  string
	}{
		{80, "count 5 · a long explanation · path/to/file.yaml · 충주 사과 waiting"},
		// The lowest rank gives way first.
		{50, "count 5 · path/to/file.yaml · 충주 사과 waiting"},
		// Parts of one rank take turns, the later one first; Korean
		// counts two cells.
		{40, "count 5 · path/to/file.yaml · 사과"},
		{30, "count 5 · file.yaml · 사과"},
		{20, "count 5 · 사과"},
		// Every part at its shortest and still too wide: cut.
		{10, "count 5 ·…"},
	} {
		got := fitHeader(tc.width, parts())
		if got != tc.want {
			t.Errorf("width %d: %q, want %q", tc.width, got, tc.want)
		}
		if w := safetext.Width(got); w > tc.width {
			t.Errorf("width %d: %d cells", tc.width, w)
		}
	}
}

// TestHeadersKeepTheirCounts: from 80 to 140 columns every header fits
// on its line and keeps what the curator acts on — Curate's queue counts
// the approved proposals waiting for P and the
// new supersession links; the Trace split's comparison; the Golden set's
// size and baseline. The keys box (?) fits as well.
func TestHeadersKeepTheirCounts(t *testing.T) {
	eng, db := openDemo(t)
	ctx := context.Background()
	if _, err := tiers.Heartbeat(ctx, eng, tiers.HeartbeatOptions{At: demoNow}); err != nil {
		t.Fatal(err)
	}
	if n, err := curate.DecideProposals(ctx, db, []int64{4}, engine.ProposalApproved, "curator", demoNow); err != nil || n != 1 {
		t.Fatalf("approve proposal 4: %d, %v", n, err)
	}
	m := renderModel(t, eng, db, 140, 40)
	m = drive(t, m, press("/"))
	m = typeText(t, m, "충주 사과")
	m = drive(t, m, press("enter"))
	m = drive(t, m, press("right"))
	m = drive(t, m, press("]"), press("]"), press("]"), press("s"))
	for w := 80; w <= 140; w += 4 {
		m = drive(t, m, tea.WindowSizeMsg{Width: w, Height: 24})
		check := func(tab string, line int, wants ...string) {
			t.Helper()
			lines := strings.Split(screen(goTo(t, fork(m), tab)), "\n")
			got := strings.TrimRight(lines[line], " ")
			for _, want := range wants {
				if !regexp.MustCompile(want).MatchString(got) {
					t.Errorf("%d columns: %s header %q lacks %q", w, tab, got, want)
				}
			}
			if strings.HasSuffix(got, "…") {
				t.Errorf("%d columns: %s header cut: %q", w, tab, got)
			}
		}
		check("Curate", 1, `keep 4\b`, `promote 2\b`, `archive 12\b`, `1 approved \(P`, `5 (superseded|new supersession links) \(S\)`)
		check("Trace", 2, `at \+30d`, `split`)
		check("Golden", 1, `demo`, `79 probes`, `baseline`)
		// ? on every width and tab: the keys box keeps its right side.
		for _, tab := range []string{"Trace", "Golden", "Curate", "Memories", "Captures"} {
			for _, l := range strings.Split(screen(drive(t, goTo(t, fork(m), tab), press("?"))), "\n") {
				if l = strings.TrimSpace(l); strings.HasPrefix(l, "│") && !strings.HasSuffix(l, "│") {
					t.Errorf("%d columns: %s: the keys box is cut: %q", w, tab, l)
				}
			}
		}
	}
}
