package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
)

// The fixture testdata/claude-code/harness is a Claude Code project
// folder in the on-disk format: a session transcript with every kind of
// line Claude Code writes (summary, file-history-snapshot, progress,
// system/compact_boundary, meta, slash-command and bash-mode markup, a
// task notification, interrupts, tool_use/tool_result with toolUseResult,
// thinking, an image, IDE and system-reminder markup inside genuine turns,
// a subagent exchange inside the file, a compaction summary, a branch
// change) and a subagent transcript agent-*.jsonl. "@ROOT@" stands for the
// folder the repository is checked out in.

// Lines by uuid suffix.
var (
	genuineUser = map[string]string{
		"3":  "We're building garden-app, a mobile app for community gardens with a Go backend and a React web client.",
		"6":  "The web client lives in web/ and is built with Vite and React 19.",
		"7":  "Always use pnpm for the web client, never npm.",
		"16": "The watering reminders must go out at 7 am local time; gardeners check their phones before work.",
		"24": "물 주기 알림은 사용자의 현지 시간 기준으로 보내야 해요. 서버는 UTC로 저장합니다.",
		"25": "Never store reminder times in local time in the database; the backend keeps UTC only.",
		"26": "This is the mock for the plant detail screen: the title shows the plant's Korean name first, then the Latin name.",
		"27": "Our staging server is staging.garden.example and deploys run from the release branch.",
	}
	harnessOnly = []string{"1", "9", "10", "11", "13", "15"}                          // offered as role tool
	notOffered  = []string{"2", "18", "19", "21", "22", "23", "50", "51", "52", "53"} // meta, sidechain, progress, system, compact summary
)

func fixtureUUID(n string) string {
	return "c1a00000-0000-4000-8000-" + strings.Repeat("0", 12-len(n)) + n
}

// materializeHarnessFixture writes the fixture under a temporary root with
// the repository (garden-app/.git, garden-app/web) in place, and returns
// the project folder holding the transcripts.
func materializeHarnessFixture(t testing.TB) (root, dir string) {
	t.Helper()
	root = t.TempDir()
	for _, d := range []string{"garden-app/.git", "garden-app/web/src", "garden-app/api", "transcripts"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir = filepath.Join(root, "transcripts")
	src := "../testdata/claude-code/harness"
	if _, err := os.Stat(src); err != nil {
		src = "testdata/claude-code/harness" // from the module root (internal/cli tests)
	}
	for _, name := range []string{"session.jsonl", "agent-5f2a9c1e.jsonl"} {
		b, err := os.ReadFile(filepath.Join(src, name+".tmpl"))
		if err != nil {
			t.Fatal(err)
		}
		out := strings.ReplaceAll(string(b), "@ROOT@", root)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, dir
}

func readHarnessFixture(t *testing.T, dir string) map[string]engine.Message {
	t.Helper()
	byID := map[string]engine.Message{}
	for _, name := range []string{"session.jsonl", "agent-5f2a9c1e.jsonl"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		bad, err := ReadClaudeCode(f, func(_ int, m engine.Message) error {
			if _, dup := byID[m.ID]; dup {
				t.Errorf("duplicate id %s", m.ID)
			}
			byID[m.ID] = m
			return nil
		})
		f.Close()
		if err != nil || len(bad) != 0 {
			t.Fatalf("%s: %v %+v", name, err, bad)
		}
	}
	return byID
}

func TestClaudeCodeHarnessIsNotTheUser(t *testing.T) {
	_, dir := materializeHarnessFixture(t)
	byID := readHarnessFixture(t, dir)
	for n, want := range genuineUser {
		m, ok := byID[fixtureUUID(n)]
		if !ok {
			t.Errorf("line %s (a genuine user statement) was not offered", n)
			continue
		}
		if m.Role != "user" || m.Text != want {
			t.Errorf("line %s: role %s text %q, want user %q", n, m.Role, m.Text, want)
		}
	}
	for _, n := range harnessOnly {
		m, ok := byID[fixtureUUID(n)]
		if !ok || m.Role != RoleTool {
			t.Errorf("line %s (harness markup): offered=%v role %q, want role tool", n, ok, m.Role)
		}
	}
	for _, n := range notOffered {
		if m, ok := byID[fixtureUUID(n)]; ok {
			t.Errorf("line %s offered as %s %q: meta, sidechain and compact-summary lines are not conversation", n, m.Role, m.Text)
		}
	}
	for id, m := range byID {
		if m.Role != RoleTool && looksLikeHarness(m.Text) {
			t.Errorf("%s (%s) keeps harness markup: %q", id, m.Role, m.Text)
		}
		for _, side := range []string{"I prefer a short list of file paths", "it owns the reminder queue", "This session is being continued"} {
			if m.Role != RoleTool && strings.Contains(m.Text, side) {
				t.Errorf("%s carries sidechain or compact-summary text: %q", id, m.Text)
			}
		}
		// One session, one project: the repository root, also from web/.
		if m.Project != "garden-app" {
			t.Errorf("%s: project %q, want garden-app (the repository root)", id, m.Project)
		}
	}
	if b := byID[fixtureUUID("24")].Branch; b != "feature/reminders" {
		t.Errorf("line 24 branch %q", b)
	}
	if b := byID[fixtureUUID("3")].Branch; b != "main" {
		t.Errorf("line 3 branch %q", b)
	}
}

func TestSessionProject(t *testing.T) {
	root, _ := materializeHarnessFixture(t)
	repo := filepath.Join(root, "garden-app")
	if err := os.Symlink(repo, filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "plain", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "garden-app", ".git"), filepath.Join(root, "plain", ".git")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cwd, first, want string }{
		{repo + "/web/src", repo + "/web", "garden-app"},                          // nearest .git above
		{repo, "", "garden-app"},                                                  // at the root
		{root + "/linked/web", root + "/linked", "linked"},                        // through a link: not followed, the first cwd names it
		{root + "/plain/sub", root + "/plain/sub", "sub"},                         // a .git that is a link does not count
		{"/home/someone/elsewhere/app/web", "/home/someone/elsewhere/app", "app"}, // another machine's paths
		{`C:\Users\min\proj\web`, `C:\Users\min\proj`, "proj"},
	} {
		if got := SessionProject(c.cwd, c.first); got != c.want {
			t.Errorf("SessionProject(%q, %q) = %q, want %q", c.cwd, c.first, got, c.want)
		}
	}
}

// looksLikeHarness reports whether text still holds harness markup after
// stripHarness (an element left unclosed, a marker not removed).
func looksLikeHarness(text string) bool {
	l := strings.ToLower(text)
	for _, t := range harnessTags {
		if strings.Contains(l, "<"+t) {
			return true
		}
	}
	if strings.Contains(l, "<ide_") {
		return true
	}
	for _, m := range interruptMarkers {
		if strings.Contains(text, m) {
			return true
		}
	}
	return false
}
