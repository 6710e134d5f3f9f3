package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/golden"
	"memtrace/internal/safetext"
)

// TestTUIEndToEnd runs the real binary in tmux at 80×24, 100×30, 120×40
// and 200×50: it types a query on the Trace tab, steps the time override,
// opens the split view, switches tabs and quits, asserting on what tmux
// shows; at 80×24 it checks what each tab must still show on the smallest
// terminal it supports, and below that the too-small notice.
func TestTUIEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the end-to-end TUI test needs it (.ci/run installs it)")
	}
	if testing.Short() {
		t.Skip("-short: the end-to-end TUI test builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "memtrace")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "demo.db")
	if out, err := exec.Command(bin, "demo", "--no-tui", "--db", db).CombinedOutput(); err != nil {
		t.Fatalf("demo --no-tui: %v\n%s", err, out)
	}

	t.Run("80x24", func(t *testing.T) {
		s := startTmux(t, dir, 80, 24, bin, "--db", db)
		s.walkNarrow(t)
		s.send(t, "q")
		s.waitExit(t)
	})
	t.Run("120x40", func(t *testing.T) {
		s := startTmux(t, dir, 120, 40, bin, "--db", db)
		s.walkThrough(t)
		s.send(t, "q")
		s.waitExit(t)
	})
	t.Run("100x30", func(t *testing.T) {
		s := startTmux(t, dir, 100, 30, bin, "--db", db)
		s.walkThrough(t)
		s.send(t, "q")
		s.waitExit(t)
	})
	t.Run("200x50 demo", func(t *testing.T) {
		// `memtrace demo` builds a fresh database and opens the TUI on it;
		// started in a subdirectory of the project, the Golden tab still
		// finds the project's set (in a parent directory).
		docs, err := filepath.Abs("docs")
		if err != nil {
			t.Fatal(err)
		}
		s := startTmuxIn(t, dir, docs, 200, 50, bin, "demo", "--db", filepath.Join(dir, "demo2.db"))
		s.walkThrough(t)
		s.send(t, "C-c")
		s.waitExit(t)
	})
}

// tmuxSession is one program running in a detached tmux session on a
// private tmux server (its own socket), so a developer's tmux is never
// touched.
type tmuxSession struct {
	socket, name string
	width        int
	exitFile     string
}

func startTmux(t *testing.T, dir string, w, h int, argv ...string) *tmuxSession {
	t.Helper()
	return startTmuxIn(t, dir, "", w, h, argv...)
}

// startTmuxIn is startTmux with the program started in working directory
// cwd ("" for the test's).
func startTmuxIn(t *testing.T, dir, cwd string, w, h int, argv ...string) *tmuxSession {
	t.Helper()
	s := &tmuxSession{
		socket:   filepath.Join(dir, fmt.Sprintf("tmux-%dx%d.sock", w, h)),
		name:     "memtrace",
		width:    w,
		exitFile: filepath.Join(dir, fmt.Sprintf("exit-%dx%d", w, h)),
	}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	// The shell records the exit status, so the test can tell a clean quit.
	script := strings.Join(quoted, " ") + "; echo $? > '" + s.exitFile + "'"
	args := []string{"-S", s.socket, "-f", "/dev/null", "new-session", "-d", "-s", s.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)}
	if cwd != "" {
		args = append(args, "-c", cwd)
	}
	cmd := exec.Command("tmux", append(args, "sh", "-c", script)...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "MEMTRACE_DB=", "NO_COLOR=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("screen at the end:\n%s", s.capture(t))
		}
		exec.Command("tmux", "-S", s.socket, "kill-server").Run()
	})
	return s
}

func (s *tmuxSession) tmux(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (s *tmuxSession) capture(t *testing.T) string {
	out, err := exec.Command("tmux", "-S", s.socket, "capture-pane", "-p", "-t", s.name).CombinedOutput()
	if err != nil {
		return fmt.Sprintf("(no screen: %v %s)", err, out)
	}
	return string(out)
}

// send presses tmux keys (names such as Enter, C-c, or single characters).
func (s *tmuxSession) send(t *testing.T, keys ...string) {
	t.Helper()
	s.tmux(t, append([]string{"send-keys", "-t", s.name}, keys...)...)
}

// typeText types text literally (Korean included).
func (s *tmuxSession) typeText(t *testing.T, text string) {
	t.Helper()
	s.tmux(t, "send-keys", "-t", s.name, "-l", text)
}

// waitFor polls the screen until ok accepts it, failing after a deadline.
func (s *tmuxSession) waitFor(t *testing.T, what string, ok func(screen string) bool) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		screen := s.capture(t)
		if ok(screen) {
			return screen
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 15s for %s; the screen:\n%s", what, screen)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

func (s *tmuxSession) waitText(t *testing.T, texts ...string) string {
	t.Helper()
	return s.waitFor(t, fmt.Sprintf("%q", texts), func(screen string) bool {
		for _, x := range texts {
			if !strings.Contains(screen, x) {
				return false
			}
		}
		return true
	})
}

// waitExit waits for the program to end and checks its exit status.
func (s *tmuxSession) waitExit(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(s.exitFile); err == nil && len(bytes.TrimSpace(b)) > 0 {
			if code := string(bytes.TrimSpace(b)); code != "0" {
				t.Fatalf("memtrace exited with status %s", code)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("memtrace did not exit; the screen:\n%s", s.capture(t))
		}
		time.Sleep(40 * time.Millisecond)
	}
}

var stageRow = regexp.MustCompile(`(?m)^\s*(\d+) (\w+)\s+(\d+)\s+(\d+)`)

// walkThrough is the user's path: Trace tab first, a Korean query, the 11
// stages, the time override, the split view, then every other tab.
func (s *tmuxSession) walkThrough(t *testing.T) {
	t.Helper()
	screen := s.waitText(t, "1 Trace", "query ›", "10 budget")
	if !strings.HasPrefix(strings.TrimSpace(screen), "1 Trace") {
		t.Fatalf("the Trace tab is not the first tab:\n%s", screen)
	}
	s.send(t, "/")
	s.typeText(t, "충주 사과")
	s.send(t, "Enter")
	screen = s.waitFor(t, "the 11 stages of a recall of 충주 사과", func(screen string) bool {
		return len(stageRow.FindAllString(screen, -1)) == len(engine.StageNames) && strings.Contains(screen, "read-only recall at")
	})
	for i, m := range stageRow.FindAllStringSubmatch(screen, -1) {
		if m[1] != fmt.Sprint(i) || m[2] != engine.StageNames[i] {
			t.Errorf("stage row %d reads %q, want %d %s", i, m[0], i, engine.StageNames[i])
		}
	}
	if !strings.Contains(screen, "충주") || !regexp.MustCompile(`prompt [█░]+ \d+ / \d+ chars`).MatchString(screen) {
		t.Errorf("no Chungju memory or no budget meter after the query:\n%s", screen)
	}
	s.checkAlignment(t, screen)

	s.send(t, "]")
	s.waitText(t, "at +1d")
	s.send(t, "]", "]")
	screen = s.waitFor(t, "the recall at +30d", func(screen string) bool {
		return strings.Contains(screen, "at +30d") && regexp.MustCompile(`read-only recall at \d{4}-\d\d-\d\d`).MatchString(screen) &&
			!strings.Contains(screen, "recalling")
	})
	s.send(t, "s")
	s.waitText(t, "forgotten by +30d:", "now · ")
	s.send(t, "[")
	s.waitText(t, "at +7d", "forgotten by +7d:")

	s.send(t, "4")
	s.waitFor(t, "the Memories tab", func(screen string) bool {
		return strings.Contains(screen, "CONTENT") && regexp.MustCompile(`(?m)^1 of \d+`).MatchString(screen)
	})
	s.send(t, "5")
	if s.width < 110 {
		// Below 110 columns the captures take the width; f shows the
		// pattern counts instead.
		s.waitText(t, "VERDICT", "f pattern counts")
		s.send(t, "f")
	}
	s.waitText(t, "dropped, per pattern", "heartbeat_ok")
	// The tab bar always reads "3 Curate"; the demo's heartbeat proposals
	// are what only the Curate tab shows: it opens on the first queue with
	// work, the review notes of vital memories long unused, with the rule
	// that fired.
	s.send(t, "3")
	s.waitText(t, "keep · by heartbeat", "rule vital_review")
	// S: the demo's knowledge updates, linked at capture, wait for review
	// in the superseded queue, with the former and the newer fact.
	s.send(t, "S")
	s.waitText(t, "links since the last review", "former:", "newer:", "u undo this link")
	s.send(t, "S")
	s.send(t, "1")
	s.waitText(t, "forgotten by +7d:")

	// Golden: the project's set (found from the working directory) runs
	// over its fixture; enter opens the first probe's trace.
	s.send(t, "2")
	s.waitText(t, "2 Golden", demoProbes(t), "greeting-annyeong")
	s.send(t, "r")
	s.waitText(t, demoPassed(t), "vs baseline: no regression")
	s.send(t, "Enter")
	// The Trace tab shows the probe's own run, on the set's fixture.
	s.waitText(t, "안녕", "read-only recall at 2026-07-21", "probe greeting-annyeong's own run", "fixture")
}

// walkNarrow is the path at 80×24: each tab's key content, which only the
// state it is about shows.
func (s *tmuxSession) walkNarrow(t *testing.T) {
	t.Helper()
	s.waitText(t, "1 Trace", "query ›", "10 budget")
	s.send(t, "/")
	s.typeText(t, "충주 사과")
	s.send(t, "Enter")
	s.waitFor(t, "the 11 stages at 80×24", func(screen string) bool {
		return len(stageRow.FindAllString(screen, -1)) == len(engine.StageNames) && strings.Contains(screen, "read-only recall at")
	})
	// → focuses the items: the stage list folds away and the item text
	// gets at least 40 of the 80 cells.
	s.send(t, "Right")
	screen := s.waitText(t, "← stages", "TEXT")
	textCells := 0
	for _, line := range strings.Split(screen, "\n") {
		if i := strings.Index(line, "TEXT"); i >= 0 && strings.Contains(line, "KEY") {
			textCells = 80 - safetext.Width(line[:i])
		}
	}
	if textCells < 40 {
		t.Errorf("item text gets %d cells at 80 columns, want ≥ 40:\n%s", textCells, screen)
	}
	if !regexp.MustCompile(`(?m)^✓ +\d+ m\d{4} .*충주`).MatchString(screen) {
		t.Errorf("no kept Chungju item row with the items focused:\n%s", screen)
	}
	s.send(t, "Left")
	s.waitFor(t, "the stage list back", func(screen string) bool { return stageRow.MatchString(screen) })

	// Memories: the detail of the first memory shows its decay curve and
	// forecast and an audit row.
	s.send(t, "4")
	s.waitFor(t, "the Memories tab", func(screen string) bool {
		return strings.Contains(screen, "CONTENT") && regexp.MustCompile(`(?m)^1 of \d+`).MatchString(screen)
	})
	s.send(t, "Enter")
	s.waitFor(t, "the decay curve and forecast at 80×24", func(screen string) bool {
		// 80 columns: the forecast in its short words, both dates kept.
		return regexp.MustCompile(`decay free recall until \d{4}-\d\d-\d\d, recognisable until \d{4}-\d\d-\d\d`).MatchString(screen) && strings.Contains(screen, "+365d") &&
			regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d \d\d:\d\d capture +create`).MatchString(screen)
	})

	// Captures: one line per row (ids 1, 2, 3… on consecutive lines) and
	// the selected capture's decision trail; f shows the pattern counts.
	s.send(t, "5")
	screen = s.waitText(t, "VERDICT", "of 492 captures")
	ids := regexp.MustCompile(`(?m)^\s+(\d+) \d\d-\d\d \d\d:\d\d `).FindAllStringSubmatch(screen, -1)
	if len(ids) < 5 {
		t.Errorf("fewer than 5 capture rows at 80×24:\n%s", screen)
	}
	for i, m := range ids {
		if m[1] != fmt.Sprint(i+1) {
			t.Errorf("capture row %d is capture %s: a row took more than one line:\n%s", i+1, m[1], screen)
			break
		}
	}
	s.send(t, "f")
	s.waitText(t, "dropped, per pattern", "heartbeat_ok")

	s.send(t, "3")
	s.waitText(t, "keep · by heartbeat", "rule vital_review")
	s.send(t, "2")
	s.waitText(t, demoProbes(t), "greeting-annyeong")

	// The palette, from the Golden tab: tab completes the command, and a
	// Korean query recalled at +30d opens in Trace on that step.
	s.send(t, ":")
	s.typeText(t, "rec")
	s.send(t, "Tab")
	s.typeText(t, "충주 사과 @")
	s.waitText(t, ":recall 충주 사과 @", "recall at +30d")
	s.typeText(t, "+30d")
	s.send(t, "Enter")
	s.waitText(t, "query › 충주 사과", "[+30d]")
	s.send(t, "2")
	s.waitText(t, demoProbes(t), "greeting-annyeong")

	// Below 80×24 the frame says so.
	s.tmux(t, "resize-window", "-t", s.name, "-x", "70", "-y", "20")
	s.waitText(t, "terminal too small: 70×20, need 80×24")
	s.tmux(t, "resize-window", "-t", s.name, "-x", "80", "-y", "24")
	s.waitText(t, demoProbes(t), "greeting-annyeong")
}

// checkAlignment checks that Korean rows take as many cells as English
// ones: the stage column's border sits in the same column on every row.
func (s *tmuxSession) checkAlignment(t *testing.T, screen string) {
	t.Helper()
	col := -1
	for i, line := range strings.Split(screen, "\n") {
		x := strings.Index(line, "│")
		if x < 0 {
			continue
		}
		w := safetext.Width(line[:x])
		if col < 0 {
			col = w
		}
		if w != col {
			t.Errorf("line %d: border at cell %d, want %d: %q", i, w, col, line)
		}
	}
	if col < 0 {
		t.Errorf("no stage column border on the screen:\n%s", screen)
	}
}

// demoProbes and demoPassed are the Golden tab's "N probes" and "N/N
// passed" for the project's set, whatever its size (it grows).
func demoProbes(t *testing.T) string { return fmt.Sprintf("%d probes", demoProbeCount(t)) }
func demoPassed(t *testing.T) string {
	n := demoProbeCount(t)
	return fmt.Sprintf("%d/%d passed", n, n)
}

func demoProbeCount(t *testing.T) int {
	t.Helper()
	set, err := golden.Load(filepath.Join("testdata", "golden", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return len(set.Probes)
}
