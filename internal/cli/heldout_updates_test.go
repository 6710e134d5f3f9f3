package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
	"memtrace/internal/testdata/enginetest"
	"memtrace/mcpserver"
	"memtrace/store"
)

// heldoutUpdatesFloors are the ratchets of TestHeldoutUpdates: the share of
// the held-out knowledge-update cases (testdata/heldout/updates.jsonl,
// written by someone who never read the rule) that link exactly what they
// should through both `ingest` and `memory_capture`. It is the figure
// measured after the last change to the rule; raise it when a change
// passes more cases, never lower it to let a change in. updates3.jsonl
// (a third set by another author) has its own: 22/34 on main before any
// mechanism was changed against it, 26/34 after session 9's, 33/34 after
// the supersede branch read slots from the sentence (its failures were
// read); updates4 (blind, never read) 20/34 -> 21/34, then opened for
// session 12's supersede work (issue 29: its failures grouped by cause and
// the mechanisms fixed) 21/34 -> 34/34; updates7 (blind, session 15)
// 23/35 on main before any change; updates8 (a development set, session
// 16, readable) 24/40 on int16 when it landed, 30/40 after the updates8
// branch read change verbs by form (its failures were read); session 17's
// clause reader (updates9: negation scope, whose an older memory is, a new
// value's head, a copula's head with "now"): updates5 23 -> 24, updates7
// 24 -> 25 (blind, aggregates only), updates8 30 -> 34.
var heldoutUpdatesFloors = map[string]float64{"updates.jsonl": 35.0 / 36, "updates3.jsonl": 34.0 / 34, "updates4.jsonl": 34.0 / 34, "updates5.jsonl": 24.0 / 35, "updates6.jsonl": 25.0 / 35, "updates7.jsonl": 25.0 / 35, "updates8.jsonl": 35.0 / 40, "updates9.jsonl": 22.0 / 36, "updates10.jsonl": 21.0 / 36} // updates8: 35 after capturemean's speech-act, paste and condition changes (not isolated which); updates5: blind, session 12, measured before any change (22); updates6: blind, 21 on main when it landed; both after session 14's open retraction path (updates6 branch, written before the set landed)

// updateCase is one line of testdata/heldout/updates.jsonl.
type updateCase struct {
	ID     string           `json:"id"`
	Lang   string           `json:"lang"`
	Before []engine.Message `json:"before"`
	After  engine.Message   `json:"after"`
	Expect struct {
		Supersedes *string `json:"supersedes"`
		Note       string  `json:"note"`
		Retract    bool    `json:"retract,omitempty"` // a retraction: it takes the kind and importance of what it retracts (updates_written.jsonl)
	} `json:"expect"`
}

func readUpdateCases(t *testing.T, path string) []updateCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []updateCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c updateCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// updateOutcome is what one path did with a case: the before-message ids
// the after message superseded, and why not when it is wrong.
type updateOutcome struct {
	linked []string
	why    string // trail of the after message, for the log
	db     string // the database ingest wrote (viaIngest only)
}

// judgeUpdate is "" when got is what c expects, else why not.
func judgeUpdate(c updateCase, got updateOutcome) string {
	var want []string
	if c.Expect.Supersedes != nil {
		want = []string{*c.Expect.Supersedes}
	}
	slices.Sort(got.linked)
	if slices.Equal(want, got.linked) || len(want) == 0 && len(got.linked) == 0 {
		return ""
	}
	return fmt.Sprintf("want supersedes %v, got %v (%s) — %s", want, got.linked, c.Expect.Note, got.why)
}

func trailText(tr []engine.Decision) string {
	var b []string
	for _, d := range tr {
		if d.Layer == engine.LayerSupersede {
			b = append(b, d.Verdict+": "+d.Reason)
		}
	}
	if len(b) == 0 {
		return "no supersede step in the trail"
	}
	return strings.Join(b, "; ")
}

// viaIngest runs the case through `memtrace ingest FILE --db DB --json`.
func viaIngest(t *testing.T, c updateCase) updateOutcome {
	dir := t.TempDir()
	file, db := filepath.Join(dir, c.ID+".jsonl"), filepath.Join(dir, "u.db")
	var lines []string
	for _, m := range append(slices.Clone(c.Before), c.After) {
		raw, _ := json.Marshal(m)
		lines = append(lines, string(raw))
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "ingest", file, "--db", db); code != 0 {
		return updateOutcome{why: "ingest failed: " + errOut}
	}
	ctx := context.Background()
	s, err := store.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	after, err := s.GetMemoryByKey(ctx, c.After.ID)
	if err != nil {
		return updateOutcome{why: "after message not stored"}
	}
	out := updateOutcome{db: db}
	// A message of several statements is stored as KEY, KEY#2 …: each may
	// supersede one older fact, and memory_capture reports them all in its
	// result, so the message links what any of them linked.
	mine := map[int64]bool{after.ID: true}
	for i := 2; ; i++ {
		m, err := s.GetMemoryByKey(ctx, fmt.Sprintf("%s#%d", c.After.ID, i))
		if err != nil {
			break
		}
		mine[m.ID] = true
	}
	for _, b := range c.Before {
		m, err := s.GetMemoryByKey(ctx, b.ID)
		if err != nil {
			out.why += b.ID + " not stored; "
			continue
		}
		linked := mine[m.SupersededBy]
		// A before-message of several statements is KEY, KEY#2 …: a link
		// to any of them is a link to the message (as memory_capture's
		// ids below are the message's).
		for i := 2; !linked; i++ {
			p, err := s.GetMemoryByKey(ctx, fmt.Sprintf("%s#%d", b.ID, i))
			if err != nil {
				break
			}
			linked = mine[p.SupersededBy]
		}
		if linked {
			out.linked = append(out.linked, b.ID)
		}
	}
	out.why += fmt.Sprintf("after stored as %s/%s", after.Kind, after.Type)
	return out
}

// viaMCP runs the case through memory_capture of the MCP server, in
// process over an in-memory transport.
func viaMCP(t *testing.T, c updateCase) updateOutcome {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e, _ := enginetest.Open(t, filepath.Join(t.TempDir(), "u.db"), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	ct, st := mcp.NewInMemoryTransports()
	srv := mcpServerOf(t, e)
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "heldout", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); <-done }()
	capt := func(m engine.Message) mcpserver.CaptureOut {
		var out mcpserver.CaptureOut
		callTool(t, ctx, cs, "memory_capture", map[string]any{"text": m.Text, "role": m.Role, "session": m.Session,
			"at": m.At.UTC().Format(time.RFC3339)}, &out)
		return out
	}
	ids := map[int64]string{}
	var out updateOutcome
	for _, b := range c.Before {
		r := capt(b)
		if r.MemoryID == 0 || r.Outcome != engine.OutcomeStored {
			out.why += b.ID + " " + r.Outcome + " (" + r.Reason + "); "
			continue
		}
		ids[r.MemoryID] = b.ID
		for _, st := range r.Statements { // KEY#2 …: the message's too
			if st.MemoryID != 0 {
				ids[st.MemoryID] = b.ID
			}
		}
	}
	r := capt(c.After)
	for _, s := range r.Supersedes {
		id, ok := ids[s.ID]
		if !ok {
			id = fmt.Sprintf("#%d", s.ID)
		}
		if !slices.Contains(out.linked, id) {
			out.linked = append(out.linked, id)
		}
	}
	out.why += fmt.Sprintf("after %s %s as %s/%s; %s", r.Outcome, r.Reason, r.Kind, r.Type, trailText(r.Trail))
	return out
}

// TestHeldoutUpdates measures the supersession rule on the held-out
// knowledge-update cases, each through `ingest` and `memory_capture`: a
// case passes when both paths link exactly the expected before-message
// (or nothing). It logs every failing case with why and fails below the
// ratchet of its file in heldoutUpdatesFloors.
func TestHeldoutUpdates(t *testing.T) {
	for _, name := range []string{"updates.jsonl", "updates3.jsonl", "updates4.jsonl", "updates5.jsonl", "updates6.jsonl", "updates7.jsonl", "updates8.jsonl", "updates9.jsonl", "updates10.jsonl"} {
		t.Run(name, func(t *testing.T) { heldoutUpdates(t, name, heldoutUpdatesFloors[name]) })
	}
}

func heldoutUpdates(t *testing.T, name string, floor float64) {
	heldoutUpdatesAt(t, filepath.Join("testdata", "heldout", name), floor)
}

// heldoutUpdatesAt runs the update cases of the file at path (from the
// module root) through both paths and fails below floor.
func heldoutUpdatesAt(t *testing.T, path string, floor float64) {
	name := filepath.Base(path)
	cases := readUpdateCases(t, path)
	pass, passIngest, passMCP := 0, 0, 0
	for _, c := range cases {
		wi, wm := judgeUpdate(c, viaIngest(t, c)), judgeUpdate(c, viaMCP(t, c))
		if wi == "" {
			passIngest++
		} else {
			t.Logf("%s [%s] ingest: %q: %s", c.ID, c.Lang, c.After.Text, wi)
		}
		if wm == "" {
			passMCP++
		} else {
			t.Logf("%s [%s] memory_capture: %q: %s", c.ID, c.Lang, c.After.Text, wm)
		}
		if wi == "" && wm == "" {
			pass++
		}
	}
	rate := float64(pass) / float64(len(cases))
	t.Logf("held-out %s: %d/%d pass both paths (%.3f); ingest %d, memory_capture %d; floor %.3f",
		name, pass, len(cases), rate, passIngest, passMCP, floor)
	if rate < floor {
		t.Fatalf("held-out %s pass rate %.3f below the floor %.3f", name, rate, floor)
	}
}
