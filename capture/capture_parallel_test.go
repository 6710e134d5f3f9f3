package capture_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// TestParallelCaptureDecidesAsSequential captures the same messages three
// times into real SQLite files: in batches decided on every CPU while the
// write runs (capture_parallel.go), in batches with one CPU, which decides
// one message after the other, and one message a batch. Every result — outcome, memory, reason, the whole trail
// with the duplicate chosen and its similarity — must be the same. The
// messages repeat one another across and within batches: exact repeats in
// other case and spacing (the content hash), one word changed (near
// duplicates around the 0.92 threshold), and statements with a change
// marker (supersession).
func TestParallelCaptureDecidesAsSequential(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("SKIP: needs 2 CPUs to decide on several; this machine gives the test 1")
	}
	msgs := repetitiveMessages(rand.New(rand.NewPCG(7, 8)), 1200)
	run := func(procs, batch int) []*engine.CaptureResult {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		e := openCaptureEngine(t, nil)
		var out []*engine.CaptureResult
		for i := 0; i < len(msgs); i += batch {
			rs, err := capture.CaptureBatch(t.Context(), e, msgs[i:min(i+batch, len(msgs))])
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, rs...)
		}
		return out
	}
	// One message a batch: every earlier memory is in the dedupe index
	// when a message is decided, none only in the batch being written.
	each := run(1, 1)
	par, seq := run(runtime.GOMAXPROCS(0), 300), run(1, 300)
	counts := map[string]int{}
	for i := range seq {
		counts[seq[i].Outcome]++
		if !reflect.DeepEqual(par[i], seq[i]) {
			t.Fatalf("message %s: on every CPU\n%+v\none at a time\n%+v", msgs[i].ID, par[i], seq[i])
		}
		if !reflect.DeepEqual(seq[i], each[i]) {
			t.Fatalf("message %s: in batches of 300\n%+v\none a batch\n%+v", msgs[i].ID, seq[i], each[i])
		}
	}
	// The test means something only if it saw every path.
	if counts[engine.OutcomeStored] < 100 || counts[engine.OutcomeReinforced] < 100 {
		t.Fatalf("outcomes %v: want at least 100 stored and 100 reinforced", counts)
	}
	similar := 0
	for _, r := range seq {
		for _, d := range r.Trail {
			if strings.Contains(d.Reason, "(similarity ") {
				similar++
			}
		}
	}
	if similar < 20 {
		t.Fatalf("%d reinforcements by similarity, want at least 20", similar)
	}
	t.Logf("outcomes %v, %d by similarity", counts, similar)
}

// repetitiveMessages makes n user statements of which many repeat an
// earlier one exactly (other case, spacing), with one word changed, or
// with a change marker.
func repetitiveMessages(rng *rand.Rand, n int) []engine.Message {
	words := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa " +
		"사과 바나나 포도 딸기 수박 참외 귤 배 복숭아 자두")
	var base []string
	msgs := make([]engine.Message, n)
	for i := range msgs {
		var text string
		switch k := rng.IntN(10); {
		case len(base) < 20 || k < 4:
			ws := []string{"I", "noted", "that"}
			for range 10 + rng.IntN(6) {
				ws = append(ws, words[rng.IntN(len(words))])
			}
			text = strings.Join(ws, " ")
			base = append(base, text)
		case k < 6:
			text = "  " + strings.ToUpper(base[rng.IntN(len(base))]) + " "
		case k < 9:
			ws := strings.Fields(base[rng.IntN(len(base))])
			ws[3+rng.IntN(len(ws)-3)] = words[rng.IntN(len(words))]
			text = strings.Join(ws, " ")
		default:
			text = "I moved my " + words[rng.IntN(len(words))] + " to " + words[rng.IntN(len(words))] + " now"
		}
		msgs[i] = engine.Message{ID: fmt.Sprintf("r%05d", i), Session: fmt.Sprintf("s%d", i/50), Role: "user", Text: text,
			At: testNow.Add(-time.Duration(n-i) * time.Minute)}
	}
	return msgs
}

// TestParallelCaptureCancelled cancels a batch while its messages are
// being decided on every CPU: the batch fails and writes nothing, and the
// same batch captured again gives what it gives on a fresh store.
func TestParallelCaptureCancelled(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("SKIP: needs 2 CPUs to decide on several; this machine gives the test 1")
	}
	msgs := repetitiveMessages(rand.New(rand.NewPCG(9, 10)), 1200)
	want, err := capture.CaptureBatch(t.Context(), openCaptureEngine(t, nil), msgs)
	if err != nil {
		t.Fatal(err)
	}
	e := openCaptureEngine(t, nil)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(5*time.Millisecond, cancel)
	if _, err := capture.CaptureBatch(ctx, e, msgs); err == nil {
		t.Log("the batch finished before it was cancelled: only the re-run is checked")
	} else if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled batch: %v, want context.Canceled", err)
	}
	got, err := capture.CaptureBatch(t.Context(), e, msgs)
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for i := range got {
		if got[i].Outcome == capture.OutcomeSkipped {
			skipped++
			continue
		}
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("message %s after the cancelled batch\n%+v\non a fresh store\n%+v", msgs[i].ID, got[i], want[i])
		}
	}
	if skipped != 0 && skipped != len(msgs) {
		t.Fatalf("%d of %d messages skipped: the cancelled batch wrote part of itself", skipped, len(msgs))
	}
}
