package capture_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/importer"
	"memtrace/internal/testdata/storetest"
)

// The per-capture cost of supersession detection, measured in the same run
// against the same captures with the rule turned off: a store of n
// memories (a quarter of them about a phone, a car, a home or an employer,
// the subjects the rule indexes), then 2,000 statements captured in
// batches of 500, half of them updates with a change marker about one of
// those subjects. Reported: µs per capture with and without detection
// (wall clock, and CPU time of this process, which other processes on a
// shared machine disturb less), their ratios, and messages per second
// with detection.
//
//	go test ./engine -run '^$' -bench SupersedeDetection -benchtime 1x
func BenchmarkSupersedeDetection10k(b *testing.B)  { benchmarkSupersede(b, 10_000) }
func BenchmarkSupersedeDetection100k(b *testing.B) { benchmarkSupersede(b, 100_000) }

func benchmarkSupersede(b *testing.B, n int) {
	subjects := []string{"my phone is a Galaxy S%d", "I drive a %d Avante", "I live in district %d of Seoul", "I work at company number %d"}
	var src strings.Builder
	for i := range n {
		text := fmt.Sprintf("Memory %d: my colleague number %d prefers %s tea in the morning.", i, i%977, []string{"green", "black", "barley", "oolong"}[i%4])
		if i%4 == 0 {
			text = fmt.Sprintf(subjects[(i/4)%4], i) + fmt.Sprintf(", note %d for the benchmark.", i)
		}
		fmt.Fprintf(&src, `{"id":"m-%d","text":%q,"created_at":"2026-01-%02dT09:00:00Z"}`+"\n", i, text, 1+i%28)
	}
	updates := []string{"I switched my phone to a Pixel %d last week, finally.", "차를 테슬라 %d로 바꿨어, 아반떼는 팔았고.", "I moved to Busan block %d in April this year.", "I joined Kakao team %d last month as a backend engineer."}
	msgs := func(prefix string) []engine.Message {
		ms := make([]engine.Message, 2000)
		at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		for i := range ms {
			text := fmt.Sprintf("The garden plot number %d gets watered on Tuesday %s evenings.", i, prefix)
			if i%2 == 0 {
				text = fmt.Sprintf(updates[(i/2)%4], i)
			}
			ms[i] = engine.Message{ID: fmt.Sprintf("%s-%d", prefix, i), Session: fmt.Sprintf("%s-s%d", prefix, i/50), Role: "user", Text: text, At: at.Add(time.Duration(i) * time.Minute)}
		}
		return ms
	}
	at := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { return at }
	ctx := context.Background()
	var with, without, withCPU, withoutCPU time.Duration
	var captured, superseded int
	b.StopTimer()
	for range b.N {
		// Each run on a store of its own, so that neither sees the
		// other's captures.
		run := func(prefix string, detect bool) (time.Duration, time.Duration, int) {
			e, err := engine.Open(ctx, engine.Options{Store: storetest.MustOpenClock(b, now), Now: now})
			if err != nil {
				b.Fatal(err)
			}
			recs, bad, err := importer.ReadStoredJSONL(strings.NewReader(src.String()))
			if err != nil || len(bad) > 0 {
				b.Fatal(err, bad)
			}
			if _, err := capture.ImportMemories(ctx, e, capture.MemoryImportOptions{Source: importer.SourceJSONL, Path: "bench"}, recs, bad); err != nil {
				b.Fatal(err)
			}
			c, err := capture.NewCapturer(ctx, e)
			if err != nil {
				b.Fatal(err)
			}
			if !detect {
				capture.WithoutSupersession(c)
			}
			// The first write builds the dedupe and subject indexes over
			// the whole store, once per Capturer: not part of the
			// per-capture cost.
			if _, err := c.CaptureBatch(ctx, msgs(prefix + "-warm")[1:2]); err != nil {
				b.Fatal(err)
			}
			ms := msgs(prefix)
			n := 0
			b.StartTimer()
			start, cpu0 := time.Now(), cpuTime()
			for i := 0; i < len(ms); i += 500 {
				rs, err := c.CaptureBatch(ctx, ms[i:i+500])
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range rs {
					n += len(r.Supersedes)
				}
			}
			d, cpu := time.Since(start), cpuTime()-cpu0
			b.StopTimer()
			return d, cpu, n
		}
		d, cpu, _ := run("off", false)
		without, withoutCPU = without+d, withoutCPU+cpu
		d, cpu, s := run("on", true)
		with, withCPU = with+d, withCPU+cpu
		superseded += s
		captured += 2000
	}
	b.ReportMetric(float64(with.Microseconds())/float64(captured), "µs/capture")
	b.ReportMetric(float64(without.Microseconds())/float64(captured), "µs/capture_without")
	b.ReportMetric(float64(with)/float64(without), "with/without")
	b.ReportMetric(float64(withCPU.Microseconds())/float64(captured), "cpu-µs/capture")
	b.ReportMetric(float64(withoutCPU.Microseconds())/float64(captured), "cpu-µs/capture_without")
	b.ReportMetric(float64(withCPU)/float64(withoutCPU), "cpu_with/without")
	b.ReportMetric(float64(captured)/with.Seconds(), "msgs/s")
	b.ReportMetric(float64(superseded)/float64(b.N), "superseded")
}
