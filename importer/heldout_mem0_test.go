package importer_test

import (
	"path/filepath"
	"testing"

	"memtrace/engine"
)

type mem0HistoryCase struct {
	Payloads string `yaml:"payloads"`
	Memories map[string]struct {
		State          string   `yaml:"state"`
		Text           string   `yaml:"text"`
		NotActive      []string `yaml:"not_active"`
		Owner          string   `yaml:"owner"`
		CreatedAt      string   `yaml:"created_at"`
		TextNeverAct   string   `yaml:"text_never_active"`
		SecretNeverSto string   `yaml:"secret_never_stored"`
	} `yaml:"memories"`
	Totals struct {
		Active  int            `yaml:"active"`
		Deleted int            `yaml:"deleted"`
		Owners  map[string]int `yaml:"owners"`
	} `yaml:"totals"`
}

// TestHeldoutMem0History imports both mem0 history layouts with their
// vector-store payloads and checks expect.yaml.
func TestHeldoutMem0History(t *testing.T) {
	dir := filepath.Join(heldoutImport, "mem0_history")
	var cases map[string]mem0HistoryCase
	readYAML(t, filepath.Join(dir, "expect.yaml"), &cases)
	c := &tally{t: t}
	for _, script := range []string{"history.sql", "history_v1.sql"} {
		tc, ok := cases[script]
		if !ok {
			t.Fatalf("expect.yaml has no case %s", script)
		}
		db := buildSQLite(t, filepath.Join(dir, script), "history.db")
		e, path := openImported(t)
		rep := importInto(t, e, "mem0", db, heldoutReadOptions{Payloads: filepath.Join(dir, tc.Payloads)})
		im := snapshot(t, e, path, rep)
		for id, want := range tc.Memories {
			m, found := im.byKey(id)
			switch want.State {
			case "active":
				c.check(found && m.Status == engine.StatusActive && m.Content == want.Text,
					"%s %s: active %q, got found=%v status %s text %q", script, id, want.Text, found, m.Status, m.Content)
				for _, old := range want.NotActive {
					c.check(len(im.activeWith(old)) == 0, "%s %s: %q must not be active", script, id, old)
				}
				c.check(found && ownerOf(m) == want.Owner, "%s %s: owner %q, got %q (scope %q)", script, id, want.Owner, ownerOf(m), m.Scope)
				if want.CreatedAt != "" {
					c.check(found && sameTime(m.CreatedAt, want.CreatedAt), "%s %s: created_at %s, got %s", script, id, want.CreatedAt, m.CreatedAt)
				}
			case "deleted":
				c.check(!found || m.Status != engine.StatusActive, "%s %s: deleted, got status %s", script, id, m.Status)
				c.check(len(im.activeWith(want.TextNeverAct)) == 0, "%s %s: %q must never be active", script, id, want.TextNeverAct)
				c.check(!found || ownerOf(m) == "", "%s %s: owner unknown, got %q", script, id, ownerOf(m))
				if want.SecretNeverSto != "" {
					c.check(!im.inFiles(t, want.SecretNeverSto), "%s %s: secret %q is in the store in clear text", script, id, want.SecretNeverSto)
				}
			default:
				t.Fatalf("%s %s: unknown state %q", script, id, want.State)
			}
		}
		active, notActive, owners := 0, 0, map[string]int{}
		for _, m := range im.all {
			if m.Status == engine.StatusActive {
				active++
				if o := ownerOf(m); o != "" {
					owners[o]++
				}
			} else {
				notActive++
			}
		}
		c.check(active == tc.Totals.Active, "%s: %d active, want %d", script, active, tc.Totals.Active)
		c.check(notActive <= tc.Totals.Deleted, "%s: %d not active, want at most %d (the deleted)", script, notActive, tc.Totals.Deleted)
		c.check(jsonEqual(owners, tc.Totals.Owners), "%s: owners %v, want %v", script, owners, tc.Totals.Owners)
	}
	c.ratchet("mem0_history", 45)
}
