package recall_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
	"memtrace/recall"
)

func channelCounts(tr *engine.Trace) map[string]int {
	n := map[string]int{}
	for _, s := range tr.Survivors {
		n[s.Channel]++
	}
	return n
}

func TestMMRDropsNearDuplicates(t *testing.T) {
	e, _ := enginetest.Open(t, "", t0)
	a := enginetest.Add(t, e, engine.Memory{Key: "a", Content: "the staging server runs postgres on port 5433", Importance: 0.6, CreatedAt: t0.Add(-day)})
	enginetest.Add(t, e, engine.Memory{Key: "b", Content: "The staging server runs Postgres on port 5433.", Importance: 0.6, CreatedAt: t0.Add(-day)})
	enginetest.Add(t, e, engine.Memory{Key: "c", Content: "the staging server deploys every night at two", Importance: 0.6, CreatedAt: t0.Add(-day)})
	tr := enginetest.Recall(t, e, engine.Query{Text: "staging server postgres port", ReadOnly: true, At: t0})
	it, _ := enginetest.Item(tr, "mmr", "b")
	if want := fmt.Sprintf("near-duplicate of id %d", a.ID); it.DropKind != engine.DropMMRRedundant || !strings.HasPrefix(it.Dropped, want) {
		t.Errorf("b at mmr: %s %q, want %s %q…", it.DropKind, it.Dropped, engine.DropMMRRedundant, want)
	}
	if got := enginetest.SurvivorKeys(tr); len(got) != 2 || got[0] != "a" || got[1] != "c" {
		t.Errorf("survivors = %v, want [a c]", got)
	}
	if st := tr.Stage("mmr"); st.Notes["lambda"] != "0.700" {
		t.Errorf("mmr notes = %v", st.Notes)
	}
}

func TestMergeQuotasAndBlendShare(t *testing.T) {
	e, _ := enginetest.Open(t, "", t0)
	for i := range 6 {
		enginetest.Add(t, e, engine.Memory{Key: fmt.Sprintf("fact%d", i), Content: fmt.Sprintf("garden app release checklist item %d: signing keys", i),
			Kind: engine.KindFact, Importance: 0.6, CreatedAt: t0.Add(-time.Duration(i+1) * time.Hour), Session: "live"})
		if i >= 2 {
			continue // two episodes only
		}
		enginetest.Add(t, e, engine.Memory{Key: fmt.Sprintf("ep%d", i), Content: fmt.Sprintf("today the garden app release checklist review %d ran late", i),
			Kind: engine.KindEpisode, Importance: 0.6, CreatedAt: t0.Add(-time.Duration(i+1) * day), Session: fmt.Sprintf("old%d", i)})
	}
	q := engine.Query{Text: "garden app release checklist", ReadOnly: true, At: t0, K: 4}
	tr := enginetest.Recall(t, e, q)
	if n := channelCounts(tr); n[recall.ChannelFact] != 2 || n[recall.ChannelSemantic] != 2 {
		t.Errorf("k=4 survivors by channel = %v, want 2 fact + 2 semantic", n)
	}
	for _, it := range tr.Stage("merge").Items {
		if it.Dropped != "" && (it.DropKind != engine.DropSlotsFull || !strings.HasPrefix(it.Dropped, "k=4 slots filled")) {
			t.Errorf("merge dropped %s: %s %q", it.Key, it.DropKind, it.Dropped)
		}
	}

	// The six facts are from the live session. With k=10, merge passes all
	// eight (the semantic quota it cannot fill goes to facts); blend keeps
	// the session to half of k, 5, and drops the sixth fact.
	q.Session, q.K = "live", 10
	tr = enginetest.Recall(t, e, q)
	session := 0
	for _, s := range tr.Survivors {
		if strings.HasPrefix(s.Key, "fact") {
			session++
		}
	}
	if session != 5 {
		t.Errorf("current-session survivors = %d, want 5 (half of k=10)", session)
	}
	dropped := 0
	for _, it := range tr.Stage("blend").Items {
		if it.DropKind == engine.DropSessionShareFull {
			dropped++
		}
	}
	if got := tr.Stage("blend").Notes["mix"]; got != "5 current-session, 2 long-term" || dropped != 1 {
		t.Errorf("blend mix %q, %d dropped by the share", got, dropped)
	}
}

func TestRecallStopsWhenCancelled(t *testing.T) {
	e, _ := enginetest.Open(t, "", t0)
	enginetest.Add(t, e, engine.Memory{Key: "a", Content: "the staging server runs postgres", Importance: 0.6, CreatedAt: t0.Add(-day)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if tr, err := recall.Recall(ctx, e, engine.Query{Text: "staging server", At: t0}); err == nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled recall: trace %v, error %v", tr != nil, err)
	}
	if m, _ := e.MemoryByKey("a"); m.AccessCount != 0 {
		t.Errorf("a cancelled committed recall recorded access %d", m.AccessCount)
	}
}
