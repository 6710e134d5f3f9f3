package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
	"memtrace/internal/testdata/enginetest"
	"memtrace/mcpserver"
	"memtrace/tiers"
)

// Issue 29's lessons acceptance through MCP memory_correct: groups of
// three rewordings (English, Korean, mixed) of one rule, each rewording
// sent in an MCP session of its own, must end as one lesson at count 3
// with one promotion proposal after heartbeat; opposite or unrelated
// pairs never share a lesson; three identical calls in one session count
// once. The groups and pairs are the held-out files testdata/heldout/
// lessons.json and lessons2.json (written by people who had not read the
// code; never edited here).

// lessonsMCPFloor is the ratchet of TestLessonsThroughMCP: the share of
// groups and pairs that pass, measured after the last change to the
// lesson mechanism (53 of 65 on 2026-12-02 after the terms canonicaliser
// of capture/lessoncanon.go and a polar ask_first: lessons.json all,
// lessons2.json 2 of 14 groups and 16 of 16 opposites; 49 before; 64
// after reason clauses left the key, a slot of two values read its
// negation as the other value and the concept table grew: lessons2.json
// 13 of 14 groups; 65 once a negation fell on a whole written name such
// as os.path.join). Raise it when a change passes more; never lower it.
const lessonsMCPFloor = 65.0 / 65

type lessonSet struct {
	Groups []struct {
		ID         string   `json:"id"`
		Rewordings []string `json:"rewordings"`
	} `json:"groups"`
	Opposites []struct{ A, B, Why string } `json:"opposites"`
}

// mcpCorrector serves one engine; each call of correct opens a new MCP
// client session for the call.
type mcpCorrector struct {
	t   *testing.T
	e   *engine.Engine
	srv *mcpserver.Server
}

func newMCPCorrector(t *testing.T) *mcpCorrector {
	e, _ := enginetest.Open(t, filepath.Join(t.TempDir(), "l.db"), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	return &mcpCorrector{t: t, e: e, srv: mcpServerOf(t, e)}
}

// session opens an MCP client session of its own and returns it with its
// closer.
func (c *mcpCorrector) session(ctx context.Context) (*mcp.ClientSession, func()) {
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- c.srv.Run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "lessons", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	return cs, func() { cs.Close(); cancel(); <-done }
}

// correct sends text through memory_correct in session sess of cs and
// returns the lesson key ("" when none was recorded).
func correct(t *testing.T, ctx context.Context, cs *mcp.ClientSession, sess, text string) string {
	var out mcpserver.CaptureOut
	callTool(t, ctx, cs, "memory_correct", map[string]any{"text": text, "session": sess}, &out)
	if out.Lesson == nil {
		return ""
	}
	return out.Lesson.Key
}

func readLessonSet(t *testing.T, name string) lessonSet {
	raw, err := os.ReadFile(filepath.Join("testdata", "heldout", name))
	if err != nil {
		t.Skipf("held-out %s absent (%v): nothing to measure", name, err)
	}
	var s lessonSet
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// TestLessonsThroughMCP measures lesson identity through memory_correct
// on lessons.json and lessons2.json, each file in one store.
func TestLessonsThroughMCP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	pass, total := 0, 0
	score := func(kind, id, why string) {
		total++
		if why == "" {
			pass++
			return
		}
		t.Logf("FAIL %s %s: %s", kind, id, why)
	}
	groups := 0
	for _, file := range []string{"lessons.json", "lessons2.json"} {
		set := readLessonSet(t, file)
		c := newMCPCorrector(t)
		keys := map[string][]string{}
		owner := map[string]string{}
		n := 0
		for _, g := range set.Groups {
			groups++
			for _, text := range g.Rewordings {
				n++
				cs, done := c.session(ctx)
				k := correct(t, ctx, cs, fmt.Sprintf("%s-g%d", file, n), text)
				done()
				keys[g.ID] = append(keys[g.ID], k)
				if _, ok := owner[k]; !ok && k != "" {
					owner[k] = g.ID
				}
			}
		}
		rep, err := tiers.Heartbeat(ctx, c.e, tiers.HeartbeatOptions{})
		if err != nil {
			t.Fatal(err)
		}
		proposals := map[string]int{}
		for _, p := range rep.Proposals {
			if p.Kind == engine.ProposalPromote {
				proposals[p.LessonKey]++
			}
		}
		converged, pairs, onOneKey, opposed := 0, 0, 0, 0
		for _, g := range set.Groups {
			ks := keys[g.ID]
			for i := range ks {
				for j := i + 1; j < len(ks); j++ {
					pairs++
					if ks[i] != "" && ks[i] == ks[j] {
						onOneKey++
					}
				}
			}
		}
		for _, g := range set.Groups {
			ks, why := keys[g.ID], ""
			for _, k := range ks {
				if k == "" || k != ks[0] {
					why = fmt.Sprintf("rewordings on keys %q", ks)
					break
				}
			}
			if why == "" {
				cr, err := c.e.Store().GetCorrection(ctx, ks[0])
				switch {
				case err != nil:
					why = err.Error()
				case cr.Count != len(ks):
					why = fmt.Sprintf("lesson %s at count %d, want %d", ks[0], cr.Count, len(ks))
				case owner[ks[0]] != g.ID:
					why = fmt.Sprintf("lesson %s shared with group %s", ks[0], owner[ks[0]])
				case proposals[ks[0]] != 1:
					why = fmt.Sprintf("lesson %s has %d promote proposals after heartbeat, want 1", ks[0], proposals[ks[0]])
				}
			}
			if why == "" {
				converged++
			}
			score(file+" group", g.ID, why)
		}
		for i, o := range set.Opposites {
			c := newMCPCorrector(t)
			var ks []string
			for j, text := range []string{o.A, o.B} {
				cs, done := c.session(ctx)
				ks = append(ks, correct(t, ctx, cs, fmt.Sprintf("o%d", j), text))
				done()
			}
			why := ""
			if ks[0] != "" && ks[0] == ks[1] {
				why = fmt.Sprintf("%q and %q (%s) share lesson %s", o.A, o.B, o.Why, ks[0])
				opposed++
			}
			score(file+" opposite", fmt.Sprint(i+1), why)
		}
		t.Logf("%s: %d of %d groups one lesson, %d of %d rewording pairs on one key, %d of %d opposite pairs share a lesson",
			file, converged, len(set.Groups), onOneKey, pairs, opposed, len(set.Opposites))
	}
	// A client retry: three identical calls in one session count once.
	c := newMCPCorrector(t)
	cs, done := c.session(ctx)
	// The first call records the lesson; a retry either counts nothing
	// or is refused as offered before — both leave the count at 1.
	k := correct(t, ctx, cs, "retry", "don't use tabs for indentation in this repo, use four spaces")
	for range 2 {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_correct",
			Arguments: map[string]any{"text": "don't use tabs for indentation in this repo, use four spaces", "session": "retry"}}); err != nil {
			t.Fatal(err)
		}
	}
	done()
	why := "no lesson recorded"
	if k != "" {
		why = ""
		if cr, err := c.e.Store().GetCorrection(ctx, k); err != nil {
			why = err.Error()
		} else if cr.Count != 1 {
			why = fmt.Sprintf("three identical calls in one session: lesson %s at count %d, want 1", k, cr.Count)
		}
	}
	score("retry", "tabs", why)

	rate := float64(pass) / float64(total)
	t.Logf("lessons through memory_correct: %d of %d cases pass (%.3f; %d groups), floor %.3f", pass, total, rate, groups, lessonsMCPFloor)
	if groups < 12 {
		t.Errorf("only %d groups of rewordings; the acceptance asks for at least 12", groups)
	}
	if rate < lessonsMCPFloor {
		t.Errorf("lesson pass rate %.3f through memory_correct is below the floor %.3f", rate, lessonsMCPFloor)
	}
}

// mcpServerOf is the MCP server of an engine the test already opened,
// ready (NewOpening with nothing left to open).
func mcpServerOf(t *testing.T, e *engine.Engine) *mcpserver.Server {
	t.Helper()
	srv := mcpserver.NewOpening(func() (*engine.Engine, error) { return e, nil }, mcpserver.Options{})
	if err := srv.Opened(); err != nil {
		t.Fatal(err)
	}
	return srv
}
