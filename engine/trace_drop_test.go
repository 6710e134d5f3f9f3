package engine_test

import (
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
)

// checkDropKinds holds a trace to the drop_kind contract: a kind exactly
// when there is a reason, one of engine.DropKinds, produced by the stage
// the list names; recognised only on items the temporal stage kept. It
// adds the kinds it saw to seen.
func checkDropKinds(t *testing.T, tr *engine.Trace, seen map[engine.DropKind]int) {
	t.Helper()
	stageOf := map[engine.DropKind]string{}
	for _, k := range engine.DropKinds() {
		stageOf[k.Kind] = k.Stage
	}
	for _, st := range tr.Stages {
		for _, it := range st.Items {
			if (it.Dropped == "") != (it.DropKind == "") {
				t.Errorf("%q at %s: item %s dropped %q with kind %q", tr.Query, st.Name, it.Key, it.Dropped, it.DropKind)
			}
			if it.DropKind != "" {
				if stageOf[it.DropKind] != st.Name {
					t.Errorf("%q: kind %q at stage %s, the list says stage %q", tr.Query, it.DropKind, st.Name, stageOf[it.DropKind])
				}
				seen[it.DropKind]++
			}
			if it.Recognised && (st.Name != "temporal" || it.DropKind != "") {
				t.Errorf("%q at %s: item %s recognised (kind %q)", tr.Query, st.Name, it.Key, it.DropKind)
			}
		}
	}
}

// Every kind is produced by a recall built for it, each at its stage.
func TestEveryDropKindComesFromItsStage(t *testing.T) {
	now := t0
	cfg := engine.DefaultConfig()
	cfg.GuaranteedCap = 1
	e, _ := enginetest.OpenConfig(t, "", now, cfg)
	mk := func(m engine.Memory) engine.Memory {
		if m.CreatedAt.IsZero() {
			m.CreatedAt = now.Add(-2 * day)
		}
		if m.Importance == 0 {
			m.Importance = 0.6
		}
		return enginetest.Add(t, e, m)
	}
	// exclude
	keep := mk(engine.Memory{Key: "keep", Content: "the staging database runs on port 5433"})
	mk(engine.Memory{Key: "superseded", Content: "the staging database runs on port 5400", SupersededBy: keep.ID,
		CreatedAt: now.Add(-3 * day), ValidTo: now.Add(-2 * day), SupersededAt: now.Add(-2 * day)})
	mk(engine.Memory{Key: "quarantined", Content: "staging database port 5433 love you", Status: engine.StatusQuarantined})
	mk(engine.Memory{Key: "archived", Content: "the old staging database ran on port 5432", Status: engine.StatusArchived, Tier: engine.TierCold})
	mk(engine.Memory{Key: "tool", Content: "ECONNREFUSED staging database port 5433", Role: "tool"})
	mk(engine.Memory{Key: "echo", Content: "what port does the staging database use", Session: "live", CreatedAt: now.Add(-2 * time.Minute)})
	mk(engine.Memory{Key: "other-project", Content: "garden staging database port 5433", Scope: "project:garden-app"})
	mk(engine.Memory{Key: "odd-status", Content: "staging database port 5433, imported by hand", Status: "pending"})
	// temporal
	mk(engine.Memory{Key: "future", Content: "the staging database will move to port 6000", CreatedAt: now.Add(day)})
	mk(engine.Memory{Key: "old-episode", Content: "we argued about the staging database port over lunch", Kind: engine.KindEpisode,
		Importance: 0.1, CreatedAt: now.Add(-400 * day)})
	// out of free recall (forgot after 58 days), still recognisable (232),
	// and the query cues it only weakly: forgotten
	mk(engine.Memory{Key: "faded-episode", Content: "the staging database port, and a warm laptop on my knees all afternoon", Kind: engine.KindEpisode,
		Importance: 0.3, CreatedAt: now.Add(-70 * day)})
	// mmr
	mk(engine.Memory{Key: "dup-a", Content: "the staging database backup runs nightly"})
	mk(engine.Memory{Key: "dup-b", Content: "The staging database backup runs nightly."})
	for i := range 6 {
		mk(engine.Memory{Key: fmt.Sprintf("filler%d", i), Content: fmt.Sprintf("staging database note %d: check the port", i)})
	}
	// guaranteed: HOT rules, one relevant, one not
	mk(engine.Memory{Key: "hot-relevant", Content: "always check the staging database port before a deploy", Tier: engine.TierHot, Kind: engine.KindFact})
	mk(engine.Memory{Key: "hot-relevant2", Content: "the staging database port is documented in the runbook", Tier: engine.TierHot, Kind: engine.KindFact})
	mk(engine.Memory{Key: "hot-irrelevant", Content: "answer in Korean when the user writes Korean", Tier: engine.TierHot, Kind: engine.KindFact})
	// rerank: a memory that shares no word with the query, one that shares
	// only a generic word, and one whose neighbour holds the query's words
	mk(engine.Memory{Key: "unrelated", Content: "the cat sleeps on the warm laptop keyboard"})
	mk(engine.Memory{Key: "generic", Content: "I take the bus to work"})
	// … and one with evidence (one of eight equally rare query words) whose
	// relevance_score stays under the floor
	mk(engine.Memory{Key: "kettle", Content: "the kettle whistles at dawn"})
	mk(engine.Memory{Key: "ledger", Content: "invoice ledger tariff voucher receipt parcel courier"})
	// temporal: an old trivial episode the query cues too weakly to
	// recognise, but specifically enough to pass the relevance gate
	mk(engine.Memory{Key: "late-courier", Content: "the courier was late again", Kind: engine.KindEpisode,
		Importance: 0.1, CreatedAt: now.Add(-400 * day)})
	mk(engine.Memory{Key: "espresso", Content: "the espresso machine on floor three is broken again", Session: "office", CreatedAt: now.Add(-3 * day)})
	mk(engine.Memory{Key: "lunch", Content: "Lunch is at noon with Priya and Joon", Session: "office", CreatedAt: now.Add(-3*day + time.Minute)})

	seen := map[engine.DropKind]int{}
	for _, q := range []engine.Query{
		{Text: "staging database port", Session: "live", Project: "memtrace", At: now, K: 2},
		{Text: "staging database port", Session: "live", At: now, K: 8, Budget: 150},
		{Text: "staging database port cat", At: now, K: 1},
		{Text: "warm keyboard staging", At: now},
		{Text: "staging database port cat keyboard sleeps", At: now},
		{Text: "take the staging database port", At: now},
		{Text: "espresso machine", At: now},
		{Text: "kettle invoice ledger tariff voucher receipt parcel courier", At: now},
		{Text: "voucher receipt parcel courier", At: now},
	} {
		q.ReadOnly = true
		checkDropKinds(t, enginetest.Recall(t, e, q), seen)
	}

	// merge: more guaranteed than k; blend: the session's share.
	cfg.GuaranteedCap = 3
	e2, _ := enginetest.OpenConfig(t, "", now, cfg)
	for i := range 3 {
		enginetest.Add(t, e2, engine.Memory{Key: fmt.Sprintf("rule%d", i), Content: fmt.Sprintf("garden app release rule %d: sign the build", i),
			Tier: engine.TierHot, Kind: engine.KindFact, Importance: 0.8, CreatedAt: now.Add(-day)})
	}
	for i := range 6 {
		enginetest.Add(t, e2, engine.Memory{Key: fmt.Sprintf("live%d", i), Content: fmt.Sprintf("garden app release checklist item %d", i),
			Importance: 0.6, CreatedAt: now.Add(-time.Duration(i+1) * time.Hour), Session: "live"})
	}
	checkDropKinds(t, enginetest.Recall(t, e2, engine.Query{Text: "garden app release rule", At: now, K: 2, ReadOnly: true}), seen)
	checkDropKinds(t, enginetest.Recall(t, e2, engine.Query{Text: "garden app release checklist", Session: "live", At: now, K: 10, ReadOnly: true}), seen)

	// guaranteed cap: HOT rules relevant to the query but outside the
	// (tiny) retrieval pools, so only the HOT channel brings them (k = 1:
	// the pool is at least 2·k).
	cfg.GuaranteedCap, cfg.CandidatePool = 1, 2
	e3, _ := enginetest.OpenConfig(t, "", now, cfg)
	for i := range 2 {
		enginetest.Add(t, e3, engine.Memory{Key: fmt.Sprintf("exact%d", i), Content: "deploy the garden app on friday",
			Importance: 0.6, CreatedAt: now.Add(-time.Duration(i+1) * day)})
	}
	for i := range 2 {
		enginetest.Add(t, e3, engine.Memory{Key: fmt.Sprintf("hot%d", i), Content: fmt.Sprintf("deploy the garden app on friday, rule %d", i),
			Tier: engine.TierHot, Kind: engine.KindFact, Importance: 0.8, CreatedAt: now.Add(-day)})
	}
	checkDropKinds(t, enginetest.Recall(t, e3, engine.Query{Text: "deploy the garden app on friday", At: now, K: 1, ReadOnly: true}), seen)

	var missing []string
	for _, k := range engine.DropKinds() {
		if seen[k.Kind] == 0 {
			missing = append(missing, string(k.Kind))
		}
	}
	if len(missing) > 0 {
		var got []string
		for k := range seen {
			got = append(got, string(k))
		}
		sort.Strings(got)
		t.Errorf("kinds never produced: %v (seen %v)", missing, got)
	}
}

// The closed set has no duplicates, and every kind names a recall stage.
func TestDropKindsAreDistinctAndStaged(t *testing.T) {
	seen := map[engine.DropKind]bool{}
	last := 0
	for _, k := range engine.DropKinds() {
		if seen[k.Kind] || k.Kind == "" || k.Meaning == "" {
			t.Errorf("kind %+v: duplicate or empty", k)
		}
		seen[k.Kind] = true
		i := slices.Index(engine.StageNames[:], k.Stage)
		if i < 0 || i < last {
			t.Errorf("kind %s: stage %q unknown or out of stage order", k.Kind, k.Stage)
		}
		last = max(last, i)
	}
}
