package capture_test

import (
	"slices"
	"testing"

	"memtrace/engine"
)

// TestSupersessionOnDemo ingests the demo conversation and checks the
// knowledge updates of its labels: each update's old fact is superseded by
// the update and by nothing else, no other memory is superseded, and no
// near-miss (an addition, a hypothetical, a question) supersedes anything.
func TestSupersessionOnDemo(t *testing.T) {
	msgs, l := demo(t)
	if len(l.Updates) == 0 || len(l.NearMisses) == 0 {
		t.Fatal("demo_labels.json has no updates or near_misses: regenerate with go run ./testdata/gen")
	}
	e := openCaptureEngine(t, nil)
	rs := captureAll(t, e, msgs, 100)
	want := map[int64]int64{} // old memory → the update's memory
	for name, pair := range l.Updates {
		old, okOld := e.MemoryByKey(pair[0])
		nw, okNew := e.MemoryByKey(pair[1])
		if !okOld || !okNew {
			t.Fatalf("update %s: %v stored %v/%v", name, pair, okOld, okNew)
		}
		want[old.ID] = nw.ID
		if old.SupersededBy != nw.ID {
			t.Errorf("update %s: %s %q superseded by #%d, want #%d (%s %q); trail %+v",
				name, pair[0], old.Content, old.SupersededBy, nw.ID, pair[1], nw.Content, rs[pair[1]].Trail)
		}
		if !old.ValidTo.Equal(nw.CreatedAt) {
			t.Errorf("update %s: valid_to %s, want the update's time %s", name, old.ValidTo, nw.CreatedAt)
		}
	}
	for name, ids := range l.NearMisses {
		for _, id := range ids {
			if r := rs[id]; r != nil && len(r.Supersedes) > 0 {
				t.Errorf("near-miss %s: %s supersedes %+v", name, id, r.Supersedes)
			}
			if m, ok := e.MemoryByKey(id); ok && m.SupersededBy != 0 {
				t.Errorf("near-miss %s: %s %q is superseded by #%d", name, id, m.Content, m.SupersededBy)
			}
		}
	}
	var stray []string
	e.EachMemory(func(m *engine.Memory) bool {
		if m.SupersededBy != 0 && want[m.ID] != m.SupersededBy {
			stray = append(stray, m.Key)
		}
		return true
	})
	slices.Sort(stray)
	if len(stray) > 0 {
		t.Errorf("superseded although no update names them: %v", stray)
	}
}
