package golden

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"

	"memtrace/engine"
)

// The open benchmark: n synthetic memories written to a fresh database and
// the store closed, then the database opened again and again as a new
// process opens it — every row read, every index rebuilt — and, beside it,
// the read floor: one pass over every row with no engine, measured in the
// same run on the same file. The first open is reported apart: it is the
// one that grows the process's heap (as far as writing the memories did
// not), and on a machine whose memory is slow to fault in — a virtual
// machine its host backs lazily — it costs more. A new process pays more
// still: time `memtrace --db FILE recall …` for that.

// OpenBenchDB is one database of the open benchmark. golden never opens
// databases itself: the caller wires the store and the engine.
type OpenBenchDB interface {
	// Fill writes the memories through an engine and closes it: the
	// database is at rest afterwards.
	Fill(ctx context.Context, ms []*engine.Memory) error
	// ReadFloor reads every memory row once, with no engine, and returns
	// how many it read.
	ReadFloor(ctx context.Context) (int, error)
	// Open opens an engine over the database and returns how many memories
	// it holds; close releases it.
	Open(ctx context.Context) (n int, close func() error, err error)
}

// OpenBenchFactory creates an empty database named name; remove deletes it.
type OpenBenchFactory func(ctx context.Context, name string) (db OpenBenchDB, remove func() error, err error)

// OpenBenchOptions configure RunOpenBench.
type OpenBenchOptions struct {
	Sizes []int // store sizes; default 10000, 100000
	Opens int   // opens per size; default 5
	// Progress, when set, is told what the run is doing.
	Progress func(stage string, n int)
}

// OpenRun is one store size; its JSON is the `bench open --json` row.
type OpenRun struct {
	N           int     `json:"n"`
	Opens       int     `json:"opens"`
	FirstMS     float64 `json:"first_ms"` // the first open of this size
	P50MS       float64 `json:"p50_ms"`   // over every open, the first included
	P95MS       float64 `json:"p95_ms"`
	ReadFloorMS float64 `json:"read_floor_ms"` // median of three passes
	Ratio       float64 `json:"ratio"`         // p50 / read floor
	HeapMB      float64 `json:"heap_mb"`       // live heap with the engine open: its resident cost
	FillMS      float64 `json:"fill_ms"`
}

// OpenBenchResult is the `bench open --json` document.
type OpenBenchResult struct {
	Runs []OpenRun `json:"runs"`
}

// RunOpenBench runs the open benchmark for every size.
func RunOpenBench(ctx context.Context, create OpenBenchFactory, o OpenBenchOptions) (*OpenBenchResult, error) {
	sizes := o.Sizes
	if len(sizes) == 0 {
		sizes = []int{10000, 100000}
	}
	opens := o.Opens
	if opens <= 0 {
		opens = 5
	}
	res := &OpenBenchResult{Runs: []OpenRun{}}
	for _, n := range sizes {
		run, err := openBenchSize(ctx, create, n, opens, o)
		if err != nil {
			return nil, err
		}
		res.Runs = append(res.Runs, run)
	}
	return res, nil
}

func openBenchSize(ctx context.Context, create OpenBenchFactory, n, opens int, o OpenBenchOptions) (run OpenRun, err error) {
	progress := func(stage string) {
		if o.Progress != nil {
			o.Progress(stage, n)
		}
	}
	db, remove, err := create(ctx, fmt.Sprintf("open-%d", n))
	if err != nil {
		return run, fmt.Errorf("bench open n=%d: %w", n, err)
	}
	defer func() {
		if rerr := remove(); rerr != nil && err == nil {
			err = fmt.Errorf("bench open n=%d: remove: %w", n, rerr)
		}
	}()
	progress("writing memories")
	start := time.Now()
	base := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)
	if err := db.Fill(ctx, SyntheticMemories(n, 1, base)); err != nil {
		return run, fmt.Errorf("bench open n=%d: %w", n, err)
	}
	run.FillMS = round4(msSince(start))
	progress("reading the rows alone")
	var floor []float64
	for range 3 {
		runtime.GC()
		t0 := time.Now()
		got, err := db.ReadFloor(ctx)
		if err != nil {
			return run, fmt.Errorf("bench open n=%d: read floor: %w", n, err)
		}
		floor = append(floor, msSince(t0))
		if got != n {
			return run, fmt.Errorf("bench open n=%d: the read floor saw %d rows", n, got)
		}
	}
	progress("opening")
	var lat []float64
	for i := range opens {
		runtime.GC() // each open starts from the same clean heap
		t0 := time.Now()
		got, closeFn, err := db.Open(ctx)
		if err != nil {
			return run, fmt.Errorf("bench open n=%d: %w", n, err)
		}
		lat = append(lat, msSince(t0))
		if i == 0 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			run.HeapMB = round4(float64(ms.HeapAlloc) / (1 << 20))
		}
		if err := closeFn(); err != nil {
			return run, fmt.Errorf("bench open n=%d: close: %w", n, err)
		}
		if got != n {
			return run, fmt.Errorf("bench open n=%d: the engine holds %d memories", n, got)
		}
	}
	sort.Float64s(floor)
	run.N, run.Opens = n, opens
	run.FirstMS = round4(lat[0])
	run.P50MS, run.P95MS = round4(percentile(lat, 0.50)), round4(percentile(lat, 0.95))
	run.ReadFloorMS = round4(floor[1])
	if run.ReadFloorMS > 0 {
		run.Ratio = round4(run.P50MS / run.ReadFloorMS)
	}
	return run, nil
}

// Text renders the runs as a table.
func (r *OpenBenchResult) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%9s %9s %9s %9s %14s %7s %8s\n", "n", "first_ms", "p50_ms", "p95_ms", "read_floor_ms", "ratio", "heap_mb")
	for _, x := range r.Runs {
		fmt.Fprintf(&b, "%9d %9.1f %9.1f %9.1f %14.1f %7.2f %8.1f\n", x.N, x.FirstMS, x.P50MS, x.P95MS, x.ReadFloorMS, x.Ratio, x.HeapMB)
	}
	return b.String()
}
