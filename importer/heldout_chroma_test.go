package importer_test

import (
	"path/filepath"
	"testing"

	"memtrace/engine"
)

type chromaExpect struct {
	Collections map[string]struct {
		Records []struct {
			ID        string         `yaml:"id"`
			Text      string         `yaml:"text"`
			Owner     *string        `yaml:"owner"`
			AgentID   string         `yaml:"agent_id"`
			RunID     string         `yaml:"run_id"`
			Lists     map[string]any `yaml:"lists"`
			Scalars   map[string]any `yaml:"scalars"`
			CreatedAt string         `yaml:"created_at"`
			UpdatedAt string         `yaml:"updated_at"`
		} `yaml:"records"`
	} `yaml:"collections"`
	Totals struct {
		Records int            `yaml:"records"`
		Owners  map[string]int `yaml:"owners"`
	} `yaml:"totals"`
	NoDuplicates []string `yaml:"no_duplicates"`
	MustNotBe    []string `yaml:"must_not_be_memory_text"`
}

// TestHeldoutMem0Chroma imports a Chroma >= 1.5 store holding mem0's
// collection (text in metadata "data", list metadata) and a plain one.
func TestHeldoutMem0Chroma(t *testing.T) {
	dir := filepath.Join(heldoutImport, "mem0_chroma")
	var want chromaExpect
	readYAML(t, filepath.Join(dir, "expect.yaml"), &want)
	db := buildSQLite(t, filepath.Join(dir, "chroma.sql"), "chroma.sqlite3")
	e, path := openImported(t)
	rep := importInto(t, e, "chroma", db, heldoutReadOptions{})
	im := snapshot(t, e, path, rep)
	c := &tally{t: t}
	owners := map[string]int{}
	for coll, cw := range want.Collections {
		for _, r := range cw.Records {
			m, found := im.byKey(r.ID)
			c.check(found && m.Status == engine.StatusActive && m.Content == r.Text,
				"%s %s: text %q, got found=%v %q", coll, r.ID, r.Text, found, m.Content)
			owner := ownerOf(m)
			if r.Owner == nil {
				c.check(found && owner == "", "%s %s: no owner, got %q", coll, r.ID, owner)
				owners["none"]++
			} else {
				c.check(found && owner == *r.Owner, "%s %s: owner %q, got %q (scope %q)", coll, r.ID, *r.Owner, owner, m.Scope)
				owners[owner]++
			}
			md := im.meta[m.ID]
			for k, v := range map[string]string{"agent_id": r.AgentID, "run_id": r.RunID} {
				if v != "" {
					c.check(md[k] == v, "%s %s: provenance %s=%q, got %v", coll, r.ID, k, v, md[k])
				}
			}
			for k, v := range r.Lists {
				c.check(jsonEqual(md[k], v), "%s %s: list %s = %v, got %v", coll, r.ID, k, fmtList(v), fmtList(md[k]))
			}
			for k, v := range r.Scalars {
				c.check(jsonEqual(md[k], v), "%s %s: %s = %v, got %v", coll, r.ID, k, v, md[k])
			}
			if r.CreatedAt != "" {
				c.check(sameTime(m.CreatedAt, r.CreatedAt), "%s %s: created_at %s, got %s", coll, r.ID, r.CreatedAt, m.CreatedAt)
			}
			if r.UpdatedAt != "" {
				c.check(md["updated_at"] == r.UpdatedAt, "%s %s: updated_at %s kept, got %v", coll, r.ID, r.UpdatedAt, md["updated_at"])
			}
		}
	}
	active := 0
	for _, m := range im.all {
		if m.Status == engine.StatusActive {
			active++
		}
	}
	c.check(active == want.Totals.Records && len(im.all) == want.Totals.Records, "%d memories (%d active), want %d", len(im.all), active, want.Totals.Records)
	if owners["none"] == 0 {
		delete(owners, "none")
	}
	c.check(jsonEqual(owners, want.Totals.Owners), "owners %v, want %v", owners, want.Totals.Owners)
	for _, s := range want.NoDuplicates {
		c.check(len(im.activeWith(s)) == 1, "%q is in %d memories, want 1", s, len(im.activeWith(s)))
	}
	for _, s := range want.MustNotBe {
		c.check(!im.anyWith(s), "%q must not be memory text", s)
	}
	c.check(rep.Errors == 0, "%d records reported as errors, want 0", rep.Errors)
	c.ratchet("mem0_chroma", 44)
}
