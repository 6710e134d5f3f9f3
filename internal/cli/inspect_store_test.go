package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/store"
)

// list, show and proposals read the store alone (no engine is built for
// a page); what they print of supersession and of a proposal's memory is
// what an engine opened over the same file answers.
func TestStoreOnlyCommandsMatchTheEngine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	db, err := store.Open(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	day := func(d int) time.Time { return time.Date(2026, 3, d, 9, 0, 0, 0, time.UTC) }
	var ms []*engine.Memory
	for i, text := range []string{"I live in Seoul", "저는 녹차를 좋아해요", "대구로 이사했어요", "I moved to Busan", "커피는 안 마셔요"} {
		m := &engine.Memory{Key: fmt.Sprintf("k%d", i), Content: text, Kind: engine.KindFact, Type: "preference",
			Status: engine.StatusActive, Tier: engine.TierWarm, Scope: engine.ScopeGlobal, Importance: 0.5, Role: "user",
			Session: "s1", CreatedAt: day(i + 1), LastAccessedAt: day(i + 1), Hash: engine.ContentHash(text)}
		if err := db.InsertMemory(t.Context(), m, engine.Actor{Name: "capture"}); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	// Busan replaced both earlier homes; the tea memory has a proposal.
	for _, old := range []*engine.Memory{ms[2], ms[0]} {
		old.SupersededBy, old.ValidTo, old.SupersededAt = ms[3].ID, day(10), day(10)
		if err := db.UpdateMemory(t.Context(), old, engine.Actor{Name: "curator", Batch: "curator-t-1"}, "supersede"); err != nil {
			t.Fatal(err)
		}
	}
	p := &engine.Proposal{Kind: engine.ProposalArchive, MemoryID: ms[1].ID, Proposer: engine.ProposerHeartbeat,
		Status: engine.ProposalPending, Reason: "stale"}
	if err := db.InsertProposal(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	db.Close()

	eng, _, closeDB, err := openEngineAt(t.Context(), path, true, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()

	out, errOut, code := runCLI(t, "list", "--db", path, "--json", "--limit", "0")
	if code != 0 {
		t.Fatalf("list: %s", errOut)
	}
	var page struct {
		Memories []struct {
			ID         int64   `json:"id"`
			Supersedes []int64 `json:"supersedes"`
		} `json:"memories"`
	}
	if err := json.Unmarshal([]byte(out), &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Memories) != len(ms) {
		t.Fatalf("list: %d memories, want %d", len(page.Memories), len(ms))
	}
	for _, m := range page.Memories {
		if want := eng.Supersedes(m.ID); !slices.Equal(m.Supersedes, want) {
			t.Errorf("list: memory %d supersedes %v, the engine says %v", m.ID, m.Supersedes, want)
		}
	}
	if len(eng.Supersedes(ms[3].ID)) != 2 {
		t.Fatalf("the fixture lost its links: %v", eng.Supersedes(ms[3].ID))
	}

	show := func(id int64) string {
		out, errOut, code := runCLI(t, "show", strconv.FormatInt(id, 10), "--db", path)
		if code != 0 {
			t.Fatalf("show %d: %s", id, errOut)
		}
		return out
	}
	newer := show(ms[3].ID)
	for _, id := range eng.Supersedes(ms[3].ID) {
		o, _ := eng.Memory(id)
		if want := fmt.Sprintf("supersedes #%d (held until 2026-03-10): %s\n", id, o.Content); !strings.Contains(newer, want) {
			t.Errorf("show %d lacks %q:\n%s", ms[3].ID, want, newer)
		}
	}
	n, _ := eng.Memory(ms[3].ID)
	if want := fmt.Sprintf("superseded by #%d on 2026-03-10 (recorded 2026-03-10): %s\n", n.ID, n.Content); !strings.Contains(show(ms[0].ID), want) {
		t.Errorf("show %d lacks %q", ms[0].ID, want)
	}

	out, errOut, code = runCLI(t, "proposals", "--db", path)
	if code != 0 {
		t.Fatalf("proposals: %s", errOut)
	}
	target, _ := eng.Memory(p.MemoryID)
	if want := fmt.Sprintf("%d %s", target.ID, target.Content); !strings.Contains(out, want) {
		t.Errorf("proposals lacks %q:\n%s", want, out)
	}
}
