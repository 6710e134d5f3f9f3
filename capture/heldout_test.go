package capture_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

// The held-out capture harness (issue 29). testdata/heldout/ was written
// by someone who never read the code and is never edited here; these
// tests measure how many of its capture decisions the pipeline gets right
// and fail when that drops below the floor measured after the last change
// (a ratchet: raise the floors when the mechanism improves, never lower
// them to make a change pass).

// heldoutCaptureFloors are the fractions of testdata/heldout/capture.jsonl
// and capture3.jsonl cases that must pass (store/drop, kind, type_not,
// statements). capture3.jsonl's was 41/47 on main before any mechanism
// was changed against it, 42/47 after session 9's, 44/47 after the
// statement split read sentence-initial items (Also, / 그리고) and short
// copular self-statements (its two statements cases were read). Session
// 14's split by content (each part stands alone and names another
// subject) raised capture4 41 → 43/47, capture5 39 → 40/50 and the blind
// capture6 39 → 42/50 (capture4 and capture5 case lines were once printed
// to its engineer, so they are no longer strictly blind). capture7: the
// blind seventh set (session 15), 40/50 on main before any change.
// capture9's kind from the predicate (kind.go) raised capture5 42 → 43/50
// and capture7 40 → 44/50 (aggregates only).
var heldoutCaptureFloors = map[string]float64{"capture.jsonl": 1.0, "capture3.jsonl": 47.0 / 47, "capture4.jsonl": 44.0 / 47, "capture5.jsonl": 43.0 / 50, "capture6.jsonl": 45.0 / 50, "capture7.jsonl": 44.0 / 50, "capture8.jsonl": 43.0 / 50, "capture9.jsonl": 40.0 / 50} // capture5: the blind fifth set (session 12), as measured on main before any change against it

// heldoutLifeNoiseCeiling is how many memories of the held-out life
// conversation may be questions, requests, acknowledgements, greetings,
// pastes or assistant echoes.
const heldoutLifeNoiseCeiling = 1

type heldoutCapture struct {
	ID      string `json:"id"`
	Lang    string `json:"lang"`
	Message struct {
		Role    string    `json:"role"`
		Text    string    `json:"text"`
		Session string    `json:"session"`
		At      time.Time `json:"at"`
	} `json:"message"`
	Expect struct {
		Store      bool     `json:"store"`
		Kind       *string  `json:"kind"`
		TypeNot    []string `json:"type_not"`
		Statements int      `json:"statements"`
		Note       string   `json:"note"`
	} `json:"expect"`
}

func readHeldoutCaptures(t *testing.T, name string) []heldoutCapture {
	t.Helper()
	f, err := os.Open("../testdata/heldout/" + name)
	if err != nil {
		t.Skipf("held-out set absent: %v", err)
	}
	defer f.Close()
	var out []heldoutCapture
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c heldoutCapture
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, c)
	}
	return out
}

// memoriesOf lists the memories made from message id: its key, or its key
// with a statement suffix (id#2, …).
func memoriesOf(t *testing.T, e *engine.Engine, id string) []*engine.Memory {
	t.Helper()
	ms, _, err := e.Store().FindMemories(context.Background(), engine.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*engine.Memory
	for _, m := range ms {
		if m.Key == id || strings.HasPrefix(m.Key, id+"#") {
			out = append(out, m)
		}
	}
	return out
}

// TestHeldoutCapture runs every held-out capture case through Capture on
// its own engine (a real SQLite file) and checks store/drop, kind,
// type_not and the number of statements.
func TestHeldoutCapture(t *testing.T) {
	for _, name := range []string{"capture.jsonl", "capture3.jsonl", "capture4.jsonl", "capture5.jsonl", "capture6.jsonl", "capture7.jsonl", "capture8.jsonl", "capture9.jsonl"} {
		t.Run(name, func(t *testing.T) { heldoutCaptureRate(t, name, heldoutCaptureFloors[name]) })
	}
}

func heldoutCaptureRate(t *testing.T, name string, floor float64) {
	cases := readHeldoutCaptures(t, name)
	passed := 0
	var storeOK, kindOK, kindN, typeOK, typeN, stmtOK, stmtN int
	for _, c := range cases {
		db := storetest.MustOpenClock(t, func() time.Time { return c.Message.At.Add(time.Minute) })
		e, err := engine.Open(context.Background(), engine.Options{Store: db, Now: func() time.Time { return c.Message.At.Add(time.Minute) }})
		if err != nil {
			t.Fatal(err)
		}
		res, err := capture.Capture(context.Background(), e, engine.Message{ID: c.ID, Session: c.Message.Session, Role: c.Message.Role, Text: c.Message.Text, At: c.Message.At})
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		ms := memoriesOf(t, e, c.ID)
		var why []string
		stored := len(ms) > 0
		if stored != c.Expect.Store {
			why = append(why, "store="+strconv.FormatBool(stored)+" want "+strconv.FormatBool(c.Expect.Store)+" ("+res.Reason+")")
		} else {
			storeOK++
		}
		if c.Expect.Store && c.Expect.Kind != nil {
			kindN++
			ok := stored
			for _, m := range ms {
				if string(m.Kind) != *c.Expect.Kind {
					ok = false
					why = append(why, "kind "+string(m.Kind)+" want "+*c.Expect.Kind+" (type "+m.Type+")")
				}
			}
			if ok {
				kindOK++
			}
		}
		if len(c.Expect.TypeNot) > 0 {
			typeN++
			ok := true
			for _, m := range ms {
				if slices.Contains(c.Expect.TypeNot, m.Type) {
					ok = false
					why = append(why, "type "+m.Type+" is in type_not")
				}
			}
			if res.Correction != nil && (slices.Contains(c.Expect.TypeNot, "correction") || slices.Contains(c.Expect.TypeNot, "rule")) {
				ok = false
				why = append(why, "recorded a lesson")
			}
			if ok {
				typeOK++
			}
		}
		if c.Expect.Statements > 0 {
			stmtN++
			if len(ms) == c.Expect.Statements {
				stmtOK++
			} else {
				why = append(why, "statements "+strconv.Itoa(len(ms))+" want "+strconv.Itoa(c.Expect.Statements))
			}
		}
		if len(why) == 0 {
			passed++
			continue
		}
		t.Logf("FAIL %s (%s, %s): %s — %q", c.ID, c.Lang, c.Expect.Note, strings.Join(why, "; "), trimTo(c.Message.Text, 80))
	}
	rate := float64(passed) / float64(len(cases))
	t.Logf("held-out %s: %d/%d cases pass (%.3f); store/drop %d/%d, kind %d/%d, type_not %d/%d, statements %d/%d",
		name, passed, len(cases), rate, storeOK, len(cases), kindOK, kindN, typeOK, typeN, stmtOK, stmtN)
	if rate < floor {
		t.Errorf("held-out %s pass rate %.3f < floor %.3f", name, rate, floor)
	}
}

// lifeNoise are the messages of testdata/heldout/life.jsonl that hold no
// long-lived statement about the user or the world: the user's questions,
// requests to the assistant, acknowledgements, greetings and pastes sent
// for help, labelled by reading the conversation. Every assistant message
// is noise as well (an echo of what the user said).
var lifeNoise = []string{
	"h015", "h017", "h025", "h027", "h047", "h048", "h062", "h069", "h071", "h074",
	"h090", "h096", "h097", "h103", "h108", "h110", "h118", "h120", "h126", "h128",
	"h131", "h138", "h141", "h153", "h160", "h174", "h181", "h187", "h189", "h193",
	"h197", "h199",
}

// lifeKeep are messages of the same conversation that state something
// about the user or the people around her: they must stay memories.
var lifeKeep = []string{
	"h003", "h005", "h007", "h009", "h011", "h013", "h019", "h021", "h029", "h035",
	"h039", "h041", "h045", "h050", "h052", "h054", "h056", "h060", "h065", "h067",
	"h078", "h088", "h094", "h099", "h101", "h106", "h116", "h122", "h124", "h129",
	"h134", "h142", "h145", "h147", "h154", "h156", "h164", "h166", "h168", "h170",
	"h175", "h179", "h183", "h185", "h191", "h195",
}

// TestHeldoutLife ingests the held-out life conversation and counts the
// memories that are noise (lifeNoise, assistant messages) and the
// statements lost (lifeKeep not stored).
func TestHeldoutLife(t *testing.T) {
	msgs := readMessageFile(t, "../testdata/heldout/life.jsonl")
	now := msgs[len(msgs)-1].At.Add(time.Hour)
	db := storetest.MustOpenClock(t, func() time.Time { return now })
	e, err := engine.Open(context.Background(), engine.Options{Store: db, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	res := captureAll(t, e, msgs, 50)
	ms, _, err := e.Store().FindMemories(context.Background(), engine.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string][]*engine.Memory{}
	for _, m := range ms {
		k, _, _ := strings.Cut(m.Key, "#")
		byKey[k] = append(byKey[k], m)
	}
	role := map[string]engine.Message{}
	for _, m := range msgs {
		role[m.ID] = m
	}
	noise, lost, rules := 0, 0, 0
	for k, mm := range byKey {
		m := role[k]
		if slices.Contains(lifeNoise, k) || m.Role == "assistant" {
			noise += len(mm)
			t.Logf("NOISE %s (%s) stored as %s/%s: %q", k, m.Role, mm[0].Kind, mm[0].Type, trimTo(m.Text, 80))
		}
		if m.Role == "assistant" && res[k] != nil && res[k].Correction != nil {
			rules++
		}
	}
	for _, k := range lifeKeep {
		if len(byKey[k]) == 0 {
			lost++
			t.Logf("LOST %s: %s — %q", k, res[k].Reason, trimTo(role[k].Text, 80))
		}
	}
	t.Logf("held-out life: %d memories, %d noise (ceiling %d), %d of %d statements lost, %d assistant lessons",
		len(ms), noise, heldoutLifeNoiseCeiling, lost, len(lifeKeep), rules)
	if noise > heldoutLifeNoiseCeiling {
		t.Errorf("held-out life: %d noise memories > ceiling %d", noise, heldoutLifeNoiseCeiling)
	}
}

func trimTo(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
