package golden

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"memtrace/engine"
)

// The recall latency benchmark: n synthetic bilingual memories in a fresh
// database, traced read-only recalls timed end to end, and beside them the
// brute-force scan floor — one similarity pass over every stored vector
// (engine.ScanFloor) — measured in the same run on the same machine, so the
// ratio says what a recall costs against touching every memory's vector
// once. It can be below 1: the recall's own vector search reads only the
// pair postings of the query's nonzero coordinates (engine/vector), not
// every vector.

// RecallBenchOptions configure RunRecallBench.
type RecallBenchOptions struct {
	Sizes   []int // store sizes; default 10000, 100000
	Queries int   // traced recalls per size; default 200
	// RSS reports the process's resident memory in MiB (nil: reported as 0).
	RSS func() float64
	// Progress, when set, is told what the run is doing.
	Progress func(stage string, n int)
}

// RecallRun is one store size; its JSON is the `bench recall --json` row.
type RecallRun struct {
	N           int     `json:"n"`
	P50MS       float64 `json:"p50_ms"`
	P95MS       float64 `json:"p95_ms"`
	ScanFloorMS float64 `json:"scan_floor_ms"`
	Ratio       float64 `json:"ratio"` // p50 / scan floor
	RSSMB       float64 `json:"rss_mb"`
	Queries     int     `json:"queries"`
	IngestMS    float64 `json:"ingest_ms"`
	// The vector side (bench_recall_vectors.go): process CPU per traced
	// recall, the vector search's and the exact scan's CPU (top 50), their
	// ratio, the search's recall@50 against exact, and bytes per memory.
	Dim                  int     `json:"dim"`
	CPUP50MS             float64 `json:"cpu_p50_ms"`
	CPUP95MS             float64 `json:"cpu_p95_ms"`
	VectorCPUMS          float64 `json:"vector_cpu_p50_ms"`
	ExactCPUMS           float64 `json:"exact_cpu_p50_ms"`
	VectorRatio          float64 `json:"vector_ratio"` // vector search / exact scan
	RecallAt50           float64 `json:"recall_at_50"`
	HeapBytesPerMemory   int     `json:"heap_bytes_per_memory"`
	VectorBytesPerMemory int     `json:"vector_bytes_per_memory"`
}

// RecallBenchResult is the `bench recall --json` document.
type RecallBenchResult struct {
	Runs     []RecallRun `json:"runs"`
	Embedder string      `json:"embedder,omitempty"` // Name() of the embedder the stores used
}

// RunRecallBench runs the latency benchmark for every size.
func RunRecallBench(ctx context.Context, open EngineFactory, o RecallBenchOptions) (*RecallBenchResult, error) {
	sizes := o.Sizes
	if len(sizes) == 0 {
		sizes = []int{10000, 100000}
	}
	queries := o.Queries
	if queries <= 0 {
		queries = 200
	}
	res := &RecallBenchResult{Runs: []RecallRun{}}
	for _, n := range sizes {
		run, err := recallBenchSize(ctx, open, n, queries, o)
		if err != nil {
			return nil, err
		}
		res.Runs = append(res.Runs, run)
	}
	return res, nil
}

func recallBenchSize(ctx context.Context, open EngineFactory, n, queries int, o RecallBenchOptions) (run RecallRun, err error) {
	progress := func(stage string) {
		if o.Progress != nil {
			o.Progress(stage, n)
		}
	}
	e, closeFn, err := open(ctx, fmt.Sprintf("recall-%d", n))
	if err != nil {
		return run, fmt.Errorf("bench recall n=%d: open: %w", n, err)
	}
	defer func() {
		if cerr := closeFn(); cerr != nil && err == nil {
			err = fmt.Errorf("bench recall n=%d: close: %w", n, cerr)
		}
	}()
	progress("writing memories")
	start := time.Now()
	base := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)
	if err := AddSynthetic(ctx, e, SyntheticMemories(n, 1, base)); err != nil {
		return run, fmt.Errorf("bench recall n=%d: %w", n, err)
	}
	run.IngestMS = msSince(start)
	progress("recalling")
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	at := base.Add(time.Duration(n) * time.Minute).Add(24 * time.Hour)
	var lat, floor []float64
	var vecs vectorSample
	dim := 0
	for i := 0; i < queries; i++ {
		q := SyntheticQuery(rng)
		c0, _ := processCPU()
		t0 := time.Now()
		if _, err := e.Recall(ctx, engine.Query{Text: q, At: at, ReadOnly: true}); err != nil {
			return run, fmt.Errorf("bench recall n=%d: %w", n, err)
		}
		lat = append(lat, msSince(t0))
		vecs.cpu = append(vecs.cpu, cpuSince(c0))
		vs, err := e.Embed(ctx, q)
		if err != nil {
			return run, err
		}
		t1 := time.Now()
		e.ScanFloor(vs[0])
		floor = append(floor, msSince(t1))
		vecs.measureVectors(e, vs[0])
		dim = len(vs[0])
	}
	vecs.fill(&run, e, n, dim)
	run.N, run.Queries = n, queries
	run.P50MS, run.P95MS = round4(percentile(lat, 0.50)), round4(percentile(lat, 0.95))
	run.ScanFloorMS = round4(percentile(floor, 0.50))
	if run.ScanFloorMS > 0 {
		run.Ratio = round4(run.P50MS / run.ScanFloorMS)
	}
	if o.RSS != nil {
		run.RSSMB = o.RSS()
	}
	return run, nil
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// percentile is the nearest-rank percentile of xs (0 for none).
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(p*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

// Text renders the runs as a table.
func (r *RecallBenchResult) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%9s %9s %9s %14s %7s %8s %7s %7s %10s %9s %8s %9s %9s\n", "n", "p50_ms", "p95_ms", "scan_floor_ms", "ratio", "rss_mb",
		"cpu_p50", "cpu_p95", "vector_cpu", "exact_cpu", "recall50", "heap_B/m", "vec_B/m")
	for _, x := range r.Runs {
		fmt.Fprintf(&b, "%9d %9.2f %9.2f %14.3f %7.1f %8.1f %7.2f %7.2f %10.3f %9.3f %8.4f %9d %9d\n", x.N, x.P50MS, x.P95MS, x.ScanFloorMS, x.Ratio, x.RSSMB,
			x.CPUP50MS, x.CPUP95MS, x.VectorCPUMS, x.ExactCPUMS, x.RecallAt50, x.HeapBytesPerMemory, x.VectorBytesPerMemory)
	}
	return b.String()
}

// AddSynthetic writes memories in transactions of 5,000, bypassing capture.
func AddSynthetic(ctx context.Context, e BenchEngine, ms []*engine.Memory) error {
	const batch = 5000
	actor := engine.Actor{Name: "bench", Batch: "synthetic"}
	for i := 0; i < len(ms); i += batch {
		part := ms[i:min(i+batch, len(ms))]
		for _, m := range part {
			if err := e.PrepareMemory(ctx, m); err != nil {
				return err
			}
		}
		err := e.Update(ctx, func(q engine.Queries) error {
			for _, m := range part {
				if err := q.InsertMemory(ctx, m, actor); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("write synthetic memories: %w", err)
		}
	}
	return nil
}

// Synthetic text: a person, a place, a thing and a time in English and
// Korean templates, so every store size has the same mix of languages and
// a realistic spread of term frequencies.
var (
	synPeople = []string{"Mina", "Jisoo", "Alex", "Sam", "Haeun", "Tom", "Yuna", "Chris", "엄마", "아빠", "민준", "서연", "팀장님", "동생"}
	synPlaces = []string{"Busan", "Seoul", "Chungju", "Jeju", "Paris", "the office", "the gym", "the clinic", "충주", "부산", "제주", "강남", "회사", "병원"}
	synThings = []string{"apples", "coffee", "the garden app", "a new laptop", "running shoes", "the release", "blood pressure", "a piano lesson",
		"사과", "커피", "프로젝트", "마라톤", "노트북", "피아노", "혈압약", "여행 계획", "생일 선물", "이사"}
	synWhen   = []string{"yesterday", "last week", "on Monday", "this morning", "in March", "어제", "지난주", "월요일에", "오늘 아침", "3월에"}
	synEnglsh = []string{
		"%[1]s and I talked about %[3]s in %[2]s %[4]s.",
		"I bought %[3]s for %[1]s %[4]s.",
		"Remember that %[1]s prefers %[3]s over anything else.",
		"We visited %[2]s %[4]s and the %[3]s there were great.",
		"My doctor in %[2]s said to keep an eye on %[3]s.",
		"%[1]s is working on %[3]s and wants it done before the trip to %[2]s.",
	}
	synKorean = []string{
		"%[4]s %[1]s랑 %[2]s에서 %[3]s 얘기를 했어.",
		"%[1]s한테 %[3]s 사줬어, %[4]s.",
		"%[1]s는 %[3]s 제일 좋아한다고 했어.",
		"%[4]s %[2]s에 갔는데 %[3]s 정말 좋았어.",
		"%[2]s 의사 선생님이 %[3]s 신경 쓰라고 했어.",
		"%[1]s가 %[2]s 가기 전에 %[3]s 끝내고 싶대.",
	}
	synQueries = []string{
		"What did %[1]s say about %[3]s?", "When did we go to %[2]s?", "%[1]s likes what?",
		"%[3]s 얘기 뭐였지?", "%[2]s에서 뭐 했어?", "%[1]s 선물 뭐 샀지?",
	}
)

func pick(r *rand.Rand, xs []string) string { return xs[r.IntN(len(xs))] }

// SyntheticMemories returns n deterministic bilingual memories (seed picks
// the sequence): sessions of 20, one minute apart from base, a third of
// them facts.
func SyntheticMemories(n int, seed uint64, base time.Time) []*engine.Memory {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	out := make([]*engine.Memory, n)
	for i := range out {
		tmpl := synEnglsh
		if r.IntN(2) == 0 {
			tmpl = synKorean
		}
		text := fmt.Sprintf(pick(r, tmpl), pick(r, synPeople), pick(r, synPlaces), pick(r, synThings), pick(r, synWhen))
		kind := engine.KindEpisode
		if i%3 == 0 {
			kind = engine.KindFact
		}
		out[i] = &engine.Memory{
			Key: fmt.Sprintf("syn-%d", i), Content: text, Kind: kind, Type: "note",
			Importance: 0.3 + 0.6*r.Float64(), Role: "user",
			Session:   fmt.Sprintf("syn-session-%d", i/20),
			CreatedAt: base.Add(time.Duration(i) * time.Minute),
		}
	}
	return out
}

// SyntheticQuery is one query over the synthetic vocabulary.
func SyntheticQuery(r *rand.Rand) string {
	return fmt.Sprintf(pick(r, synQueries), pick(r, synPeople), pick(r, synPlaces), pick(r, synThings))
}
