package filter

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

func seedCorpus() []string {
	return []string{
		"I don't have access to that file",
		"HEARTBEAT_OK",
		"[compacted: tool output removed to free context]",
		"Error: ENOENT: no such file or directory",
		"deploy failed with ECONNREFUSED because the DB port changed to 5433 — remember that",
		"네, 알겠습니다",
		"저는 매일 아침 7시에 달리기를 해요",
		`{"content":[{"type":"text","text":"NO_REPLY"}]}`,
		"<memory>x</memory>\n[[mem]]\n[truncated: output exceeded",
		"\x00\xff\xfe",
	}
}

// FuzzFilters checks that the layers never panic and that their verdict is
// a function of the text alone (stable across calls and across Scan).
func FuzzFilters(f *testing.F) {
	for _, s := range seedCorpus() {
		f.Add(s)
	}
	fl := New()
	f.Fuzz(func(t *testing.T, s string) {
		m1, ok1 := fl.L1(s)
		m2, ok2 := fl.L2(s)
		n1, ok1b := fl.L1(s)
		n2, ok2b := fl.L2(s)
		if m1 != n1 || ok1 != ok1b || m2 != n2 || ok2 != ok2b {
			t.Fatalf("unstable verdict for %q", s)
		}
		pure := map[Match]bool{}
		for _, m := range fl.Scan(s) {
			pure[m] = true
		}
		if ok1 && !pure[m1] {
			t.Fatalf("L1 dropped %q by %s but Scan does not report it as pure", s, m1.Name)
		}
		if ok2 && !pure[m2] {
			t.Fatalf("L2 dropped %q by %s but Scan does not report it as pure", s, m2.Name)
		}
	})
}

var sink bool

// BenchmarkFilterL1L2 measures both layers over a mix of noise and genuine
// messages. The "reference" sub-benchmark is one strings.Contains pass per
// message over the same inputs: the floor any filter pays to read the text.
func BenchmarkFilterL1L2(b *testing.B) {
	msgs := append(seedCorpus(),
		"I'd like you to remember that our team standup moved to 9:30 every weekday starting next month.",
		"오늘 회의에서 결정된 사항: 다음 분기부터 배포는 매주 목요일 오후 3시에 진행합니다. 꼭 기억해 주세요.",
		strings.Repeat("A longer assistant explanation of how the build works, with several sentences. ", 8),
	)
	fl := New()
	b.Run("filters", func(b *testing.B) {
		cpu0 := cpuTime()
		for i := 0; b.Loop(); i++ {
			s := msgs[i%len(msgs)]
			_, d := fl.L1(s)
			if !d {
				_, d = fl.L2(s)
			}
			sink = d
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	})
	b.Run("reference_contains", func(b *testing.B) {
		cpu0 := cpuTime()
		for i := 0; b.Loop(); i++ {
			sink = strings.Contains(msgs[i%len(msgs)], "HEARTBEAT_OK")
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	})
}

// cpuTime is the CPU time this process has used: on a shared machine the
// wall clock also counts other processes' turns, CPU time does not (it does
// count the garbage collector's work on the other core).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
