package curate_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"unicode"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/tierstest"
)

// familyPattern is the L1 pattern each demo noise family must be reported
// under (testdata/README.md: noise families). Self-limitation splits by
// language.
func familyPattern(family, text string) string {
	switch family {
	case "self_limitation":
		for _, r := range text {
			if unicode.Is(unicode.Hangul, r) {
				return "self_limitation_ko"
			}
		}
		return "self_limitation_en"
	case "heartbeat":
		return "heartbeat_ok"
	case "ack":
		// Every ack is shorter than the length floor, which cleanup checks
		// first (testdata/README.md accepts either name for ack ids).
		return "too_short"
	case "error_log":
		return "error_log_line"
	case "missing":
		return "missing_placeholder"
	case "compacted":
		return "compacted_placeholder"
	case "truncated":
		return "truncated_placeholder"
	}
	return family // too_short, no_reply, gateway_restart
}

// seedNoisyDB stores, as a legacy DB without filters would, every labelled
// noise message, the noise-with-information messages and the must-keep
// messages. It returns memory ids by message id.
func seedNoisyDB(t *testing.T, e *engine.Engine) (map[string]int64, tierstest.Labels, map[string]engine.Message) {
	t.Helper()
	msgs, l := tierstest.ReadDemo(t)
	byID := map[string]engine.Message{}
	want := map[string]bool{}
	for _, id := range slices.Concat(l.Noise, l.NoiseInfo, l.MustKeep) {
		want[id] = true
	}
	ids := map[string]int64{}
	for _, m := range msgs {
		byID[m.ID] = m
		if !want[m.ID] {
			continue
		}
		mem := &engine.Memory{Key: m.ID, Content: m.Text, Role: m.Role, Session: m.Session, Scope: engine.ProjectScope(m.Project), CreatedAt: m.At}
		if err := e.AddMemory(context.Background(), mem, engine.Actor{Name: "legacy"}); err != nil {
			t.Fatal(err)
		}
		ids[m.ID] = mem.ID
	}
	return ids, l, byID
}

func TestCleanupDryRunCountsTheDemoNoisePerPattern(t *testing.T) {
	ctx := context.Background()
	e, _ := tierstest.Open(t)
	ids, l, byID := seedNoisyDB(t, e)
	// A short rule the curator wrote matches the length floor but is not
	// chat noise.
	rule := &engine.Memory{Key: "rule", Content: "Use tabs.", Type: "rule"}
	if err := e.AddMemory(ctx, rule, engine.Actor{Name: "curator"}); err != nil {
		t.Fatal(err)
	}

	expect := map[string]int{}
	for _, id := range l.Noise {
		expect[familyPattern(l.NoiseReason[id], byID[id].Text)]++
	}
	rep, err := curate.Cleanup(ctx, e, curate.CleanupOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, p := range rep.Patterns {
		if p.Count > 0 {
			got[p.Pattern] = p.Count
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(expect) {
		t.Fatalf("pure-noise counts per pattern:\n got  %v\n want %v", got, expect)
	}
	if rep.Curated != 1 {
		t.Fatalf("curated = %d, want 1 (memory %d)", rep.Curated, rule.ID)
	}
	if rep.Scanned != len(ids)+1 || rep.Noise != len(l.Noise) || rep.Kept != len(l.NoiseInfo) || rep.Proposed != 0 {
		t.Fatalf("report = scanned %d noise %d kept %d proposed %d; want %d %d %d 0", rep.Scanned, rep.Noise, rep.Kept, rep.Proposed, len(ids)+1, len(l.Noise), len(l.NoiseInfo))
	}
	wantShare := 100 * float64(len(l.Noise)) / float64(len(ids)+1)
	if rep.Share != wantShare {
		t.Fatalf("share = %v, want %v", rep.Share, wantShare)
	}
	for _, it := range rep.Items {
		key := it.Key
		if it.Pure != slices.Contains(l.Noise, key) || (!it.Pure && !slices.Contains(l.NoiseInfo, key)) {
			t.Errorf("item %s (%s) pure=%v: labels disagree", key, it.Pattern, it.Pure)
		}
	}
	if ps, _ := e.Store().FindProposals(ctx, engine.ProposalFilter{}); len(ps) != 0 {
		t.Fatalf("dry run wrote %d proposals", len(ps))
	}

	// For real: one quarantine proposal per pure-noise memory, by rule, and
	// nothing for the memories that carry information.
	rep, err = curate.Cleanup(ctx, e, curate.CleanupOptions{})
	if err != nil || rep.Proposed != len(l.Noise) {
		t.Fatalf("cleanup proposed %d, %v; want %d", rep.Proposed, err, len(l.Noise))
	}
	ps, _ := e.Store().FindProposals(ctx, engine.ProposalFilter{Kind: engine.ProposalQuarantine, Status: engine.ProposalPending})
	var pids []int64
	for _, p := range ps {
		if p.Proposer != engine.ProposerRule || slices.Contains(l.NoiseInfo, keyOf(e, p.MemoryID)) || slices.Contains(l.MustKeep, keyOf(e, p.MemoryID)) {
			t.Fatalf("bad proposal %+v for %s", p, keyOf(e, p.MemoryID))
		}
		pids = append(pids, p.ID)
	}
	if again, _ := curate.Cleanup(ctx, e, curate.CleanupOptions{}); again.Proposed != 0 {
		t.Fatalf("second cleanup proposed %d more", again.Proposed)
	}
	res, err := curate.ApproveProposals(ctx, e, pids, curate.ApproveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	heartbeat, _ := e.Memory(ids["m0007"])
	if heartbeat.Status != engine.StatusQuarantined || heartbeat.OrigType != "note" {
		t.Fatalf("approved noise memory = %s/%s", heartbeat.Status, heartbeat.OrigType)
	}
	if after, _ := curate.Cleanup(ctx, e, curate.CleanupOptions{DryRun: true}); after.Noise != 0 || after.Kept != len(l.NoiseInfo) {
		t.Fatalf("after quarantine: noise %d kept %d", after.Noise, after.Kept)
	}
	if rep, err := curate.RollbackApplied(ctx, e.Store(), res.Batch, "rollback"); err != nil || rep.Restored != len(l.Noise) {
		t.Fatalf("rollback = %+v, %v", rep, err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if m, _ := e.Memory(ids["m0007"]); m.Status != engine.StatusActive {
		t.Fatalf("after rollback m0007 is %s", m.Status)
	}
}

func keyOf(e *engine.Engine, id int64) string {
	m, _ := e.Memory(id)
	return m.Key
}
