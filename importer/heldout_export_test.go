package importer_test

import (
	"context"
	"path/filepath"
	"testing"

	"memtrace/curate"
	"memtrace/engine"
)

type exportExpect struct {
	Import map[string]struct {
		Memories int            `yaml:"memories"`
		Owners   map[string]int `yaml:"owners"`
	} `yaml:"import"`
	Audit struct {
		MaxJudgedNoise int      `yaml:"max_judged_noise"`
		MaxCleanedUp   int      `yaml:"max_cleaned_up"`
		MustStayActive []string `yaml:"must_stay_active"`
	} `yaml:"audit"`
}

// TestHeldoutMem0Export imports mem0's get_all() return value and the hosted
// API's envelope of the same 20 short facts, then audits and cleans up:
// extracted facts are not chat noise.
func TestHeldoutMem0Export(t *testing.T) {
	dir := filepath.Join(heldoutImport, "mem0_export")
	var want exportExpect
	readYAML(t, filepath.Join(dir, "expect.yaml"), &want)
	c := &tally{t: t}
	for _, file := range []string{"get_all.json", "get_all_platform.json"} {
		w := want.Import[file]
		e, path := openImported(t)
		rep := importInto(t, e, "mem0", filepath.Join(dir, file), heldoutReadOptions{})
		im := snapshot(t, e, path, rep)
		active, owners := 0, map[string]int{}
		for _, m := range im.all {
			if m.Status == engine.StatusActive {
				active++
				if o := ownerOf(m); o != "" {
					owners[o]++
				}
			}
		}
		c.check(active == w.Memories, "%s: %d active memories, want %d", file, active, w.Memories)
		if w.Owners == nil {
			w.Owners = map[string]int{}
		}
		c.check(jsonEqual(owners, w.Owners), "%s: owners %v, want %v", file, owners, w.Owners)
		imported := active == w.Memories

		audit, err := curate.AuditStore(context.Background(), e)
		if err != nil {
			t.Fatal(err)
		}
		c.check(imported && audit.Noise.Count <= want.Audit.MaxJudgedNoise, "%s: audit calls %d of %d noise, want at most %d (patterns %+v)",
			file, audit.Noise.Count, audit.Scanned, want.Audit.MaxJudgedNoise, audit.Noise.Patterns)
		cl, err := curate.Cleanup(context.Background(), e, curate.CleanupOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c.check(imported && cl.Proposed <= want.Audit.MaxCleanedUp, "%s: cleanup proposes %d quarantines, want at most %d", file, cl.Proposed, want.Audit.MaxCleanedUp)
		im = snapshot(t, e, path, rep)
		for _, s := range want.Audit.MustStayActive {
			c.check(len(im.activeWith(s)) >= 1, "%s: %q must stay active", file, s)
		}
	}
	c.ratchet("mem0_export", 48)
}
