package tiers_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/testdata/tierstest"
	"memtrace/tiers"
)

// ingestDemo builds the demo DB through the capture pipeline, with the
// clock at the day after the conversation ends.
func ingestTierDemo(t *testing.T) (*engine.Engine, tierstest.Labels) {
	t.Helper()
	e, clk := tierstest.Open(t)
	msgs, l := tierstest.ReadDemo(t)
	clk.T = msgs[len(msgs)-1].At.Add(24 * time.Hour)
	if _, err := capture.CaptureBatch(context.Background(), e, msgs); err != nil {
		t.Fatal(err)
	}
	return e, l
}

func TestDemoHeartbeatProposesExactlyTheRepeatedLessons(t *testing.T) {
	ctx := context.Background()
	e, l := ingestTierDemo(t)
	r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Expected: one proposal per lesson the labels call candidate, carrying
	// exactly that lesson's statements; none for the pending lesson or for
	// one-off and context-bound instructions.
	var want []string
	for lesson, status := range l.LessonStatus {
		if status == "candidate" {
			ids := slices.Clone(l.Corrections[lesson])
			sort.Strings(ids)
			want = append(want, strings.Join(ids, ","))
		}
	}
	sort.Strings(want)
	var got []string
	for _, hp := range r.Proposals {
		if hp.Kind != engine.ProposalPromote {
			continue
		}
		p, err := e.Store().GetProposal(ctx, hp.ID)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := engine.ParsePromotion(p)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, o := range ev.Occurrences {
			if slices.Contains(l.NotLessons, o.MessageID) {
				t.Errorf("lesson %s counts the one-off/context-bound instruction %s", ev.LessonKey, o.MessageID)
			}
			ids = append(ids, o.MessageID)
		}
		sort.Strings(ids)
		got = append(got, strings.Join(ids, ","))
	}
	sort.Strings(got)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("promotion proposals carry occurrences\n got  %v\n want %v", got, want)
	}
	r2, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil || len(r2.Proposals) != 0 {
		t.Fatalf("second heartbeat on the demo proposed %d more (%v)", len(r2.Proposals), err)
	}
}

func TestDemoMarkdownExportFitsHOTAndRoundTrips(t *testing.T) {
	ctx := context.Background()
	e, _ := ingestTierDemo(t)
	// Promote every proposed lesson, as a curator would, so HOT.md holds
	// rules as well as what capture put there.
	r, err := tiers.Heartbeat(ctx, e, tiers.HeartbeatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var promos []int64
	for _, p := range r.Proposals {
		if p.Kind == engine.ProposalPromote {
			promos = append(promos, p.ID)
		}
	}
	if len(promos) == 0 {
		t.Fatal("the demo produced no promotion proposals")
	}
	if _, err := curate.ApproveProposals(ctx, e, promos, curate.ApproveOptions{}); err != nil {
		t.Fatal(err)
	}
	dir1 := t.TempDir()
	if _, err := tiers.ExportMarkdown(ctx, e, dir1); err != nil {
		t.Fatal(err)
	}
	tree1 := readTierTree(t, dir1)
	hot := strings.Count(string(tree1["HOT.md"]), "\n")
	if hot > engine.HotLineCap || hot < 2+len(promos) {
		t.Fatalf("HOT.md has %d lines (cap %d, %d promoted rules):\n%s", hot, engine.HotLineCap, len(promos), tree1["HOT.md"])
	}
	res, err := tiers.ImportMarkdown(ctx, e, dir1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Updated+res.Inserted+res.Lessons != 0 {
		t.Fatalf("re-import of the demo export changed %+v", res)
	}
	dir2 := t.TempDir()
	if _, err := tiers.ExportMarkdown(ctx, e, dir2); err != nil {
		t.Fatal(err)
	}
	sameTierTree(t, tree1, readTierTree(t, dir2))
	t.Logf("demo export: %d files, HOT.md %d lines, %d memory lines", len(tree1), hot, res.Lines)
}
