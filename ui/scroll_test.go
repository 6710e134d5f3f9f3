package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"memtrace/tiers"

	"memtrace/curate"
)

// TestMemoriesDetailScrollsToItsLastLine at 80×24: a long memory (English
// and Korean) with several audit rows does not fit under the list; J moves
// the detail down to its last line — the end of the content and the oldest
// audit row — with a position line, K moves it back, and J/K are listed
// only while the detail overflows.
func TestMemoriesDetailScrollsToItsLastLine(t *testing.T) {
	ms := newMemories(3)
	long := strings.Repeat("I walk the dog along the Han river every single morning before work, rain or shine. ", 6) +
		strings.Repeat("비가 와도 매일 아침 출근 전에 한강을 따라 개를 산책시켜요. ", 6) + "FINAL-WORD 마지막"
	ms[0].Content = long
	m, _ := openMemories(t, ms, 80, 24)
	m = drive(t, m, press("enter"))
	for range 4 {
		m = drive(t, m, press("+"))
	}
	if !hasDesc(listedBindings(m), "scroll detail down") {
		t.Fatalf("the overflowing detail does not list J:\n%s", screen(m))
	}
	seen := map[string]bool{}
	var last string
	for i := 0; i < 60; i++ {
		last = screen(m)
		for _, l := range strings.Split(last, "\n") {
			seen[strings.TrimSpace(l)] = true
		}
		if strings.Contains(last, "· end ·") {
			break
		}
		m = drive(t, m, press("J"))
	}
	if !strings.Contains(last, "· end ·") || !strings.Contains(last, "lines ") {
		t.Fatalf("J never reached the end of the detail:\n%s", last)
	}
	if !seenWith(seen, "FINAL-WORD 마지막") {
		t.Errorf("the end of the content was never on screen")
	}
	// The oldest row is the detail's last line: at the end, all four
	// curator rows and the seed's are on screen.
	audits := 0
	for _, l := range strings.Split(last, "\n") {
		if strings.Contains(l, "curator") && strings.Contains(l, "importance") {
			audits++
		}
	}
	if audits < 4 {
		t.Errorf("%d of the 4 audit rows on screen at the end:\n%s", audits, last)
	}
	back := drive(t, m, press("K"))
	if screen(back) == last || strings.Contains(screen(back), "· end ·") {
		t.Errorf("K did not scroll back:\n%s", screen(back))
	}
	// A short memory's detail fits: no J/K offered.
	m = drive(t, m, press("down"))
	if hasDesc(listedBindings(m), "scroll detail down") && !strings.Contains(screen(m), "lines ") {
		t.Errorf("J listed for a detail that fits:\n%s", screen(m))
	}
}

func seenWith(seen map[string]bool, sub string) bool {
	for l := range seen {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

// TestCurateReasonWrapsWholeAndScrolls at 80×24 on the demo: the selected
// heartbeat proposal's reason is shown whole — every word of it on screen,
// none cut mid-word — and J scrolls the detail to its end.
func TestCurateReasonWrapsWholeAndScrolls(t *testing.T) {
	eng, db := openDemo(t)
	if _, err := tiers.Heartbeat(context.Background(), eng, tiers.HeartbeatOptions{At: demoNow}); err != nil {
		t.Fatal(err)
	}
	m := goTo(t, startModel(t, Deps{Engine: eng, Store: db, Now: func() time.Time { return demoNow }, NoColor: true}, 80, 24), "Curate")
	pr, ok := m.curate().queues.list.current()
	if !ok {
		t.Fatalf("the demo's Curate tab opens on no proposal:\n%s", screen(m))
	}
	reason := curate.ShownReason(pr)
	var screens []string
	for i := 0; i < 30; i++ {
		screens = append(screens, screen(m))
		if !hasDesc(listedBindings(m), "scroll detail down") || strings.Contains(screens[len(screens)-1], "· end ·") {
			break
		}
		m = drive(t, m, press("J"))
	}
	words := map[string]bool{}
	for _, s := range screens {
		for _, w := range strings.Fields(s) {
			words[w] = true
		}
	}
	for _, w := range strings.Fields(reason) {
		if !words[w] {
			t.Errorf("the reason's word %q was never on screen whole (reason %q):\n%s", w, reason, strings.Join(screens, "\n"))
			break
		}
	}
}
