package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTUISecondProcessOnSQLite opens the TUI on a SQLite file in tmux at
// 80×24 and writes to the same file from a second process (`memtrace add`),
// as a user in another shell would. The Memories tab, filtered on a word
// only the new memories hold so it starts empty, must show each of them
// within two seconds of the add returning, with no key pressed: nothing but
// the file's data_version poll reloads it, so the test fails when that
// stops working.
func TestTUISecondProcessOnSQLite(t *testing.T) {
	dir, bin, db := demoBinary(t)
	s := startTmux(t, dir, 80, 24, bin, "--db", db)
	s.waitText(t, "1 Trace", "query ›")
	s.send(t, "4")
	s.waitFor(t, "the Memories tab", func(screen string) bool {
		return strings.Contains(screen, "CONTENT") && strings.Contains(screen, " of ")
	})
	s.send(t, "/")
	s.typeText(t, "QV-4410")
	s.send(t, "Enter")
	s.waitText(t, "no memories match")

	adds := []struct{ text, screen string }{
		{"Build box QV-4410 rotates its signing keys every Monday.", "Build box"},
		{"QV-4410 서버는 매주 월요일에 키를 바꿔요.", "QV-4410"},
	}
	var shown []time.Duration
	for i, a := range adds {
		add := exec.Command(bin, "--db", db, "add", a.text)
		add.Env = append(os.Environ(), "MEMTRACE_DB=")
		if out, err := add.CombinedOutput(); err != nil {
			t.Fatalf("add from a second process: %v\n%s", err, out)
		}
		// At 80×24 the CONTENT column shows the start of each memory.
		want := []string{a.screen, fmt.Sprintf(" of %d", i+1)}
		for _, p := range adds[:i] {
			want = append(want, p.screen)
		}
		d := s.seenWithin(2*time.Second, want)
		if d < 0 {
			t.Fatalf("the TUI did not show %q within 2 s of a second process's add, with no key pressed; the screen:\n%s", a.screen, s.capture(t))
		}
		shown = append(shown, d)
	}
	t.Logf("on the TUI's screen after the add returned: %v", shown)
	s.send(t, "q")
	s.waitExit(t)
}

// TestTUIRetypeNoOpRefused at 80×24 on the demo: the Curate tab opens on
// the heartbeat's keep queue; t opens the type chooser, which marks the
// memory's own type; choosing it is refused with the reason, the chooser
// stays open, and esc leaves it.
func TestTUIRetypeNoOpRefused(t *testing.T) {
	dir, bin, db := demoBinary(t)
	s := startTmux(t, dir, 80, 24, bin, "--db", db)
	s.waitText(t, "1 Trace", "query ›")
	s.send(t, "3")
	s.waitText(t, "keep · by heartbeat")
	s.send(t, "t")
	screen := s.waitText(t, "Retype to:", "(current)")
	cursor, current := -1, -1
	row := 0
	for _, line := range strings.Split(screen, "\n") {
		l := strings.TrimSpace(strings.Trim(strings.TrimSpace(line), "│|"))
		l = strings.TrimSpace(l)
		if !slices.ContainsFunc(retypeLabels, func(x string) bool {
			return strings.TrimPrefix(l, "> ") == x || strings.TrimPrefix(l, "> ") == x+" (current)"
		}) {
			continue
		}
		if strings.HasPrefix(l, "> ") {
			cursor = row
		}
		if strings.HasSuffix(l, "(current)") {
			current = row
		}
		row++
	}
	if cursor < 0 || current < 0 || cursor == current {
		t.Fatalf("the chooser should open off the marked current type (cursor %d, current %d):\n%s", cursor, current, screen)
	}
	for ; cursor < current; cursor++ {
		s.send(t, "Down")
	}
	for ; cursor > current; cursor-- {
		s.send(t, "Up")
	}
	s.send(t, "Enter")
	s.waitText(t, "changes nothing", "Retype to:")
	s.send(t, "Escape")
	s.waitFor(t, "the chooser closed", func(screen string) bool { return !strings.Contains(screen, "Retype to:") })
	s.send(t, "q")
	s.waitExit(t)
}

// retypeLabels are the Curate type chooser's entries (ui.retypeTargets).
var retypeLabels = []string{"preference", "health", "date", "milestone", "habit", "achievement", "gift",
	"shared_thing", "current_project", "rule", "correction", "note"}

// demoBinary skips (saying why) without tmux or under -short, else builds
// the binary and a demo database in a temporary directory: the directory,
// the binary and the database.
func demoBinary(t *testing.T) (dir, bin, db string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the end-to-end TUI test needs it (.ci/run installs it)")
	}
	if testing.Short() {
		t.Skip("-short: the end-to-end TUI test builds the binary")
	}
	dir = t.TempDir()
	bin = filepath.Join(dir, "memtrace")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	db = filepath.Join(dir, "demo.db")
	if out, err := exec.Command(bin, "demo", "--no-tui", "--db", db).CombinedOutput(); err != nil {
		t.Fatalf("demo --no-tui: %v\n%s", err, out)
	}
	return dir, bin, db
}
