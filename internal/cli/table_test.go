package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/store"
	"memtrace/tiers"
)

// assertAligned checks a CLI table: the header line holds lastTitle, and
// for every row (found by the start of its last cell) the text before the
// last column is as wide in terminal cells as the header's — Korean counts
// two cells a character. No escape sequence from memory text survives.
func assertAligned(t *testing.T, out, lastTitle string, lastCells ...string) {
	t.Helper()
	if strings.Contains(out, "\x1b") {
		t.Errorf("an escape sequence reached the terminal:\n%q", out)
	}
	lines := strings.Split(out, "\n")
	col := -1
	for _, l := range lines {
		if i := strings.Index(l, lastTitle); i >= 0 {
			col = safetext.Width(l[:i])
			break
		}
	}
	if col < 0 {
		t.Fatalf("no header with %q:\n%s", lastTitle, out)
	}
	for _, cell := range lastCells {
		found := false
		for _, l := range lines {
			i := strings.Index(l, cell)
			if i < 0 {
				continue
			}
			found = true
			if w := safetext.Width(l[:i]); w != col {
				t.Errorf("row %q: last column starts at cell %d, header at %d:\n%s", cell, w, col, out)
			}
		}
		if !found {
			t.Errorf("no row with %q:\n%s", cell, out)
		}
	}
}

func TestTextTableAlignsKoreanByDisplayWidth(t *testing.T) {
	tbl := newTextTable("ID", "KEY", "TYPE", "CONTENT").alignRight(0).cap(1, 12)
	tbl.add(1, "메시지-열두번째-키", "선호", "사용자는 녹차를 좋아한다")
	tbl.add(22, "msg-2", "preference", "user likes coffee\x1b[2J")
	var b bytes.Buffer
	if err := tbl.write(&b); err != nil {
		t.Fatal(err)
	}
	assertAligned(t, b.String(), "CONTENT", "사용자는 녹차를", "user likes coffee")
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if strings.HasSuffix(l, " ") {
			t.Errorf("trailing spaces: %q", l)
		}
	}
	// The Korean key was cut to its cap, on a character boundary.
	if !strings.Contains(b.String(), "메시지-열두…") || !strings.Contains(b.String(), "␛[2J") {
		t.Errorf("capped or neutralised cells missing:\n%s", b.String())
	}
}

// TestCLITablesAlignKorean: list, proposals, heartbeat and cleanup print a
// Korean and an English row whose columns line up.
func TestCLITablesAlignKorean(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memtrace.db")
	db, err := store.Open(ctx, path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.Open(ctx, engine.Options{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	ko := &engine.Memory{Key: "메모-1", Content: "사용자는 녹차를 좋아하고 \x1b]0;pwned\x07 커피는 마시지 않는다", Type: "선호", Importance: 0.7}
	en := &engine.Memory{Key: "note-2", Content: "The user drinks coffee every morning", Type: "habit", Importance: 0.5}
	for _, m := range []*engine.Memory{ko, en} {
		if err := eng.AddMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	err = eng.Update(ctx, func(q engine.Queries) error {
		for _, p := range []*engine.Proposal{
			{Kind: engine.ProposalQuarantine, MemoryID: ko.ID, Proposer: engine.ProposerCurator, Reason: "잡담: 정보 없음", Status: engine.ProposalPending},
			{Kind: engine.ProposalArchive, MemoryID: en.ID, Proposer: engine.ProposerHeartbeat, Reason: "unused for 90 days", Status: engine.ProposalPending},
		} {
			if err := q.InsertProposal(ctx, p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	out, code := runTiers(t, path, "list")
	if code != 0 {
		t.Fatalf("list exit %d: %s", code, out)
	}
	assertAligned(t, out, "CONTENT", "사용자는 녹차를", "The user drinks coffee")
	if !strings.Contains(out, "␛]0;pwned␇") {
		t.Errorf("list does not show the neutralised sequence:\n%s", out)
	}

	out, code = runTiers(t, path, "proposals")
	if code != 0 {
		t.Fatalf("proposals exit %d: %s", code, out)
	}
	assertAligned(t, out, "REASON", "잡담: 정보 없음", "unused for 90 days")

	var b bytes.Buffer
	printHeartbeat(&b, &tiers.HeartbeatReport{At: time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC), Proposals: []tiers.HeartbeatProposal{
		{ID: 7, Kind: engine.ProposalPromote, LessonKey: "커밋-전-gofmt", Reason: "교훈 3회 반복"},
		{ID: 12, Kind: engine.ProposalDemote, MemoryID: 4, Reason: "unused for 30 days"},
	}})
	assertAligned(t, b.String(), "REASON", "교훈 3회 반복", "unused for 30 days")

	b.Reset()
	printCleanup(&b, &curate.CleanupReport{Scanned: 10, Noise: 3, Share: 30, Patterns: []curate.CleanupPattern{
		{Pattern: "한국어_맞장구", Layer: "l1", Count: 2, Share: 20},
		{Pattern: "heartbeat_ok", Layer: "l1", Count: 1, Share: 10, Kept: 1},
	}})
	// The last column is right-aligned: the rows end where the header does.
	assertAligned(t, b.String(), "LAYER", "l1 ")
	lines := strings.Split(b.String(), "\n")
	for _, l := range lines[1:3] {
		if safetext.Width(l) != safetext.Width(lines[0]) {
			t.Errorf("cleanup row %q is %d cells, header %d", l, safetext.Width(l), safetext.Width(lines[0]))
		}
	}
}
