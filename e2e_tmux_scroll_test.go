package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestTUIScrollsAt80x24: in tmux at 80×24 on the demo, every view that
// is taller than its room scrolls to its last line, the position line
// saying "end": the ? overlay (to the palette's last command, then
// filtered), the Trace split view, the Memories detail of a long memory
// with several audit rows (its content's last word and its oldest audit
// row), the Captures decision trail (to its store layer) and the Curate
// detail with its reason (to the last occurrence of a lesson).
func TestTUIScrollsAt80x24(t *testing.T) {
	dir, bin, db := demoBinary(t)
	long := strings.Repeat("I walk the dog along the Han river every single morning before work, rain or shine. ", 5) +
		strings.Repeat("비가 와도 매일 아침 출근 전에 한강을 따라 개를 산책시켜요. ", 5) + "FINAL-WORD 마지막"
	add := exec.Command(bin, "--db", db, "add", long, "--key", "long-walk", "--importance", "0.5")
	add.Env = append(os.Environ(), "MEMTRACE_DB=")
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("add the long memory: %v\n%s", err, out)
	}
	s := startTmux(t, dir, 80, 24, bin, "--db", db)
	s.waitText(t, "1 Trace", "query ›")

	t.Run("help overlay", func(t *testing.T) {
		s.send(t, "?")
		s.waitText(t, "Keys", "J more")
		seen := s.scrollToEnd(t, "PageDown")
		if !strings.Contains(seen, ":quit") || !strings.Contains(seen, "q quit") && !strings.Contains(seen, "quit") {
			t.Errorf("the overlay's last key (:quit) or the global keys never came on screen:\n%s", seen)
		}
		s.send(t, "/")
		s.typeText(t, "quit")
		s.waitText(t, "/ quit", "ctrl+c")
		s.send(t, "Enter", "Escape")
		s.waitFor(t, "the overlay closed", func(screen string) bool { return !strings.Contains(screen, "Keys  /") })
	})

	t.Run("split view", func(t *testing.T) {
		s.send(t, "/")
		s.typeText(t, "충주 사과")
		s.send(t, "Enter")
		s.waitText(t, "read-only recall at")
		s.send(t, "]", "]", "]", "s")
		s.waitText(t, "J more")
		seen := s.scrollToEnd(t, "J")
		if !strings.Contains(seen, "forgotten by +30d") {
			t.Errorf("the split's forgotten summary never came on screen:\n%s", seen)
		}
		s.send(t, "s")
		s.waitFor(t, "the split closed", func(screen string) bool { return !strings.Contains(screen, "forgotten by") })
	})

	t.Run("memories detail", func(t *testing.T) {
		s.send(t, "4")
		s.waitText(t, "CONTENT", " of ")
		s.send(t, "/")
		s.typeText(t, "key:long-walk")
		s.send(t, "Enter")
		s.waitFor(t, "the long memory alone", func(screen string) bool {
			return strings.Contains(screen, "I walk the dog") && regexp.MustCompile(`(?m)^1 of 1\b`).MatchString(screen)
		})
		// Three curator changes: the audit history has four rows. A key
		// pressed while the list reloads (after the pane's own write) has
		// no row to act on, so + is pressed again until the row shows the
		// next importance.
		for imp := 6; imp <= 8; imp++ {
			want := fmt.Sprintf(" 0.%d0 ", imp)
			for try := 0; !strings.Contains(s.capture(t), want); try++ {
				if try == 5 {
					t.Fatalf("+ never raised the importance to %s:\n%s", want, s.capture(t))
				}
				s.send(t, "+")
				for w := 0; w < 30 && !strings.Contains(s.capture(t), want); w++ {
					time.Sleep(100 * time.Millisecond)
				}
			}
		}
		s.send(t, "Enter")
		s.waitText(t, "── memory", "J more")
		seen := s.scrollToEnd(t, "J")
		if !strings.Contains(seen, "FINAL-WORD 마지막") || !strings.Contains(seen, "audit history") {
			t.Errorf("the end of the long memory never came on screen:\n%s", seen)
		}
		end := s.capture(t)
		rows := regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d \d\d:\d\d `).FindAllString(end, -1)
		if len(rows) < 4 {
			t.Errorf("%d of the 4 audit rows on screen at the end of the detail:\n%s", len(rows), end)
		}
		s.send(t, "Escape", "/", "C-u", "Enter")
	})

	t.Run("captures trail", func(t *testing.T) {
		s.send(t, "5")
		s.waitText(t, "VERDICT", "of 492 captures", "J more")
		s.scrollToEnd(t, "J")
		if end := s.capture(t); !regexp.MustCompile(`(?m)^store +store `).MatchString(end) {
			t.Errorf("the trail's last layer, store, is not on screen at its end:\n%s", end)
		}
	})

	t.Run("curate reason", func(t *testing.T) {
		s.send(t, "3")
		s.waitText(t, "keep · by heartbeat")
		// The promote queue: a lesson's detail lists where it was seen.
		for i := 0; i < 8 && !strings.Contains(s.capture(t), "promote →"); i++ {
			s.send(t, "Right")
			time.Sleep(300 * time.Millisecond)
		}
		screen := s.waitText(t, "promote →", "reason ", "J more")
		id := regexp.MustCompile(`── proposal (\d+) · promote`).FindStringSubmatch(screen)
		if id == nil {
			t.Fatalf("no promote proposal's heading:\n%s", screen)
		}
		s.scrollToEnd(t, "J")
		// Its last line is the lesson's last occurrence (as proposals
		// --json lists them).
		occ := lastOccurrence(t, bin, db, id[1])
		if end := s.capture(t); !strings.Contains(end, occ) {
			t.Errorf("the detail's last line (%q, the last occurrence) is not on screen at its end:\n%s", occ, end)
		}
	})
	s.send(t, "q")
	s.waitExit(t)
}

var positionLine = regexp.MustCompile(`lines \d+–\d+ of \d+`)

// scrollToEnd presses key until the screen's position line says "end",
// each press waiting for the line to move, and returns every screen seen.
func (s *tmuxSession) scrollToEnd(t *testing.T, key string) string {
	t.Helper()
	var seen []string
	for i := 0; i < 80; i++ {
		screen := s.capture(t)
		seen = append(seen, screen)
		if strings.Contains(screen, "· end ·") {
			return strings.Join(seen, "\n")
		}
		pos := positionLine.FindString(screen)
		if pos == "" {
			t.Fatalf("no position line before the end:\n%s", screen)
		}
		s.send(t, key)
		s.waitFor(t, "the position line to move on "+key, func(screen string) bool {
			return positionLine.FindString(screen) != pos || strings.Contains(screen, "· end ·")
		})
	}
	t.Fatalf("%s never reached the end:\n%s", key, s.capture(t))
	return ""
}

// lastOccurrence is how the Curate detail starts the last occurrence of
// promotion proposal id's lesson: "2026-03-12 s12:".
func lastOccurrence(t *testing.T, bin, db, id string) string {
	t.Helper()
	cmd := exec.Command(bin, "--db", db, "proposals", "--json", "--kind", "promote")
	cmd.Env = append(os.Environ(), "MEMTRACE_DB=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("proposals --json: %v\n%s", err, out)
	}
	var res struct {
		Proposals []struct {
			ID      json.Number `json:"id"`
			Verdict struct {
				Occurrences []struct {
					Session string `json:"session"`
					At      string `json:"at"`
				} `json:"occurrences"`
			} `json:"verdict"`
		} `json:"proposals"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("proposals --json: %v", err)
	}
	for _, p := range res.Proposals {
		if o := p.Verdict.Occurrences; p.ID.String() == id && len(o) > 0 {
			return o[len(o)-1].At[:10] + " " + o[len(o)-1].Session + ":"
		}
	}
	t.Fatalf("proposal %s has no occurrences in proposals --json:\n%s", id, out)
	return ""
}
