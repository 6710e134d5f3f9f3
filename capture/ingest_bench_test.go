package capture_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// Ingest throughput without a judge (issue #16: ≥ 5,000 messages/s at 10k
// memories). Both benchmarks capture the same 5,000 synthetic messages in
// batches of 500 per transaction through one Capturer (as `memtrace ingest`
// does), with the rule judge, into a real SQLite file, and report messages
// per second (wall) and per CPU-second of this process (which other
// processes on a shared machine disturb less). BenchmarkIngest starts from
// an empty store; BenchmarkIngest10k from a store already holding 10,000
// memories of the same kind of text, imported outside the timer. The
// timer covers the Capturer's preparation and its first index build over
// the store, as one `memtrace ingest` run pays them.
//
// BenchmarkIngest10kWarm is BenchmarkIngest10k in an engine that has
// captured before (a long-running server, or a second run in one
// process): the engine keeps the capture's dedupe index, so the run's
// Capturer does not build it over the store. The warm-up, outside the
// timer, captures one message of its own (10,001 memories).
//
//	go test ./engine -run '^$' -bench 'Ingest(10k)?(Warm)?$' -benchtime 3x
func BenchmarkIngest(b *testing.B) { benchmarkIngest(b, 0, false) }

func BenchmarkIngest10k(b *testing.B) { benchmarkIngest(b, 10_000, false) }

func BenchmarkIngest10kWarm(b *testing.B) { benchmarkIngest(b, 10_000, true) }

func benchmarkIngest(b *testing.B, prefill int, warm bool) {
	benchmarkIngestOf(b, prefill, warm, ingestMessages(rand.New(rand.NewPCG(1, 2)), "b", 5000, true))
}

// benchmarkIngestOf captures msgs (a multiple of 500) as benchmarkIngest
// describes.
func benchmarkIngestOf(b *testing.B, prefill int, warm bool, msgs []engine.Message) {
	n := len(msgs)
	var recs []capture.StoredMemory
	if prefill > 0 {
		// Statements only, from another seed: the store a long ingest of
		// the same kind of conversation leaves.
		for i, m := range ingestMessages(rand.New(rand.NewPCG(3, 4)), "p", prefill, false) {
			recs = append(recs, capture.StoredMemory{SourceID: m.ID, Text: m.Text, Importance: math.NaN(),
				CreatedAt: m.At.Add(-365 * 24 * time.Hour), Scope: engine.ScopeGlobal, Session: m.Session, Position: fmt.Sprintf("line %d", i+1)})
		}
	}
	ctx := context.Background()
	b.ReportAllocs()
	var total int
	var elapsed, cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		e := openCaptureEngine(b, nil)
		if prefill > 0 {
			rep, err := capture.ImportMemories(ctx, e, capture.MemoryImportOptions{Source: "jsonl", Path: "bench"}, recs, nil)
			if err != nil {
				b.Fatal(err)
			}
			if rep.Stored != prefill {
				b.Fatalf("imported %d of %d memories: %+v", rep.Stored, prefill, rep.Problems)
			}
		}
		if warm {
			w := engine.Message{ID: "warm", Session: "warm", Role: "user", Text: "I noted the warm-up of this benchmark run.", At: msgs[0].At.Add(-time.Hour)}
			if r, err := capture.Capture(ctx, e, w); err != nil {
				b.Fatal(err)
			} else if r.Outcome != engine.OutcomeStored {
				b.Fatalf("warm-up: %s (%s), want stored", r.Outcome, r.Reason)
			}
		}
		b.StartTimer()
		start, cpu0 := time.Now(), cpuTime()
		c, err := capture.NewCapturer(ctx, e)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < n; i += 500 {
			if _, err := c.CaptureBatch(ctx, msgs[i:i+500]); err != nil {
				b.Fatal(err)
			}
		}
		elapsed += time.Since(start)
		cpu += cpuTime() - cpu0
		total += n
	}
	b.ReportMetric(float64(total)/elapsed.Seconds(), "msgs/s")
	b.ReportMetric(float64(total)/cpu.Seconds(), "msgs/cpu-s")
}

// ingestMessages makes n synthetic messages. With noise, a sixth are
// heartbeats and a sixth error lines (L1 drops them); the rest are
// statements of 8–16 words drawn with a Zipf distribution from a
// 5,000-word vocabulary, English-like and Korean-like, so that common
// words have long postings as in real text.
func ingestMessages(rng *rand.Rand, prefix string, n int, noise bool) []engine.Message {
	zipf := rand.NewZipf(rng, 1.1, 2, 4999)
	syl := []string{"ka", "no", "ri", "ven", "tor", "mi", "sa", "lu", "pe", "dan", "지", "민", "서", "강", "호", "래", "빛", "솔"}
	vocab := make([]string, 5000)
	for i := range vocab {
		w := ""
		for j := 0; j < 2+i%3; j++ {
			w += syl[(i*7+j*13+j*i)%len(syl)]
		}
		vocab[i] = fmt.Sprintf("%s%d", w, i%10)
	}
	msgs := make([]engine.Message, n)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range msgs {
		var text string
		switch {
		case noise && i%6 == 0:
			text = "HEARTBEAT_OK"
		case noise && i%6 == 1:
			text = fmt.Sprintf("Error: connect ECONNREFUSED 10.0.%d.%d:5432", i%255, i%7)
		default:
			words := []string{"I", "noted"}
			for k := 0; k < 8+i%9; k++ {
				words = append(words, vocab[zipf.Uint64()])
			}
			text = strings.Join(words, " ") + "."
		}
		msgs[i] = engine.Message{ID: fmt.Sprintf("%s%06d", prefix, i), Session: fmt.Sprintf("s%d", i/100), Role: "user", Text: text, At: at.Add(time.Duration(i) * time.Minute)}
	}
	return msgs
}

// cpuTime is the user+system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
