package cli

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/golden"
	"memtrace/internal/textable"
	"memtrace/recall"
	"memtrace/store"
)

// `memtrace bench scale --db postgres://…`: one PostgreSQL server filled
// with many spaces, measured beside SQLite files in the same run — the
// figures README's "Choosing a backend" quotes.

// scaleSide is one backend's figures.
type scaleSide struct {
	Backend string `json:"backend"`
	// Filled is how many memories the backend held in all (PostgreSQL:
	// every space of the run; SQLite: the measured file — its files do
	// not share anything).
	Filled       int     `json:"filled"`
	FillPerSec   float64 `json:"fill_per_sec"`
	OpenMS       float64 `json:"open_ms_p50"`
	RecallP50MS  float64 `json:"recall_p50_ms"`
	RecallP95MS  float64 `json:"recall_p95_ms"`
	IngestPerSec float64 `json:"ingest_4_writers_per_sec"`
	// WriteP50MS is one audited write (AddMemory's transaction, to its
	// commit); NotifyP50MS/P95MS run from the start of that write to the
	// other engine having the memory in its caches, AfterCommit… from the
	// commit (the notification's own latency: delivery, the reader's
	// query, its index update).
	WriteP50MS       float64 `json:"write_p50_ms,omitempty"`
	NotifyP50MS      float64 `json:"notify_p50_ms,omitempty"`
	NotifyP95MS      float64 `json:"notify_p95_ms,omitempty"`
	AfterCommitP50MS float64 `json:"notify_after_commit_p50_ms,omitempty"`
	AfterCommitP95MS float64 `json:"notify_after_commit_p95_ms,omitempty"`
	NotifyComment    string  `json:"notify,omitempty"`
}

type scaleResult struct {
	Spaces  int         `json:"spaces"`
	PerSpc  int         `json:"per_space"`
	Open    int         `json:"open_space"`
	Writers int         `json:"writers"`
	Sides   []scaleSide `json:"sides"`
}

func (r *scaleResult) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "bench scale: PostgreSQL filled with %d spaces of %d memories plus one of %d; SQLite: one file of %d\n", r.Spaces, r.PerSpc, r.Open, r.Open)
	t := textable.New("BACKEND", "FILLED", "FILL/S", "OPEN", "RECALL P50", "RECALL P95", "INGEST/S (4 WRITERS)", "NOTIFY P50/P95").AlignRight(1, 2, 3, 4, 5, 6)
	for _, s := range r.Sides {
		n := s.NotifyComment
		if s.NotifyP50MS > 0 {
			n = fmt.Sprintf("%.1f / %.1f ms (write %.1f ms, after commit %.1f / %.1f ms)", s.NotifyP50MS, s.NotifyP95MS, s.WriteP50MS,
				s.AfterCommitP50MS, s.AfterCommitP95MS)
		}
		t.Add(s.Backend, s.Filled, fmt.Sprintf("%.0f", s.FillPerSec), fmt.Sprintf("%.0f ms", s.OpenMS), fmt.Sprintf("%.2f ms", s.RecallP50MS),
			fmt.Sprintf("%.2f ms", s.RecallP95MS), fmt.Sprintf("%.0f", s.IngestPerSec), n)
	}
	t.Write(&b)
	return b.String()
}

func benchScale(fs *flag.FlagSet) runFunc {
	spaces := fs.Int("spaces", 100, "filler spaces on the PostgreSQL server")
	per := fs.Int("per", 10000, "memories in each filler space")
	open := fs.Int("open", 10000, "memories in the space that is opened and recalled")
	queries := fs.Int("queries", 100, "recalls in the open space")
	writes := fs.Int("writes", 250, "captures per writer in the ingest test")
	notifies := fs.Int("notifies", 50, "writes timed from one engine to another")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q", args[0])}
		}
		if !store.IsDSN(e.dbPath) {
			return usageError{"give the PostgreSQL server with --db postgres://USER@HOST/DB (its spaces scratch_…_scale_* are made there and dropped afterwards)"}
		}
		if *spaces < 0 || *per <= 0 || *open <= 0 || *queries <= 0 || *writes <= 0 || *notifies <= 0 {
			return usageError{"--spaces must not be negative, the other counts must be positive"}
		}
		r := &scaleRun{e: e, spaces: *spaces, per: *per, open: *open, queries: *queries, writes: *writes, notifies: *notifies}
		r.progress = func(f string, a ...any) {
			if !*asJSON {
				fmt.Fprintf(e.stderr, "bench scale: "+f+"\n", a...)
			}
		}
		tmp, err := os.MkdirTemp("", "memtrace-scale-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		r.tmp = tmp
		defer r.drop()
		res := &scaleResult{Spaces: *spaces, PerSpc: *per, Open: *open, Writers: 4}
		for _, pg := range []bool{true, false} {
			side, err := r.measure(pg)
			if err != nil {
				return err
			}
			res.Sides = append(res.Sides, side)
		}
		return printBench(e, *asJSON, res)
	}
}

// scaleRun is one `bench scale`: its counts, where it makes its databases
// and what it drops when it ends.
type scaleRun struct {
	e                                            *env
	spaces, per, open, queries, writes, notifies int
	progress                                     func(f string, a ...any)
	tmp                                          string   // the SQLite files' directory
	drops                                        []func() // the PostgreSQL scratch spaces
}

// at is the database called name: a scratch space on the server (pg), or
// a file in the run's directory.
func (r *scaleRun) at(name string, pg bool) string {
	if pg {
		path, drop, _ := scratchDatabase(r.e, "scale_"+name)
		r.drops = append(r.drops, drop)
		return path
	}
	return filepath.Join(r.tmp, name+".db")
}

// drop removes every scratch space the run made.
func (r *scaleRun) drop() {
	for _, d := range r.drops {
		d()
	}
}

// measure takes one backend's figures: fill, open, recall, notifications
// (PostgreSQL), 4-writer ingest.
func (r *scaleRun) measure(pg bool) (scaleSide, error) {
	side := scaleSide{Backend: "sqlite"}
	if pg {
		side.Backend = "postgres"
	}
	fillStart := time.Now()
	if pg {
		if err := r.fillFillers(); err != nil {
			return side, err
		}
		side.Filled += r.spaces * r.per
		r.progress("%s: %d filler spaces of %d memories in %s", side.Backend, r.spaces, r.per, time.Since(fillStart).Round(time.Second))
	}
	openPath := r.at("open", pg)
	if err := fillSpace(r.e.ctx, openPath, r.open, 1); err != nil {
		return side, err
	}
	side.Filled += r.open
	side.FillPerSec = float64(side.Filled) / time.Since(fillStart).Seconds()
	if err := r.measureReads(&side, openPath, pg); err != nil {
		return side, err
	}
	if err := r.measureIngest(&side, pg); err != nil {
		return side, err
	}
	return side, nil
}

// fillFillers fills the PostgreSQL filler spaces, as many at a time as
// there are cores: while one space's memories are prepared here, another's
// COPY runs on the server.
func (r *scaleRun) fillFillers() error {
	var wg sync.WaitGroup
	errs := make(chan error, r.spaces)
	sem := make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))
	for i := range r.spaces {
		path := r.at(fmt.Sprintf("filler%d", i), true)
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := fillSpace(r.e.ctx, path, r.per, uint64(i+10)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// measureReads times the open space's open (the median of three) and its
// recalls, then, on PostgreSQL, its notifications.
func (r *scaleRun) measureReads(side *scaleSide, openPath string, pg bool) error {
	var opens []float64
	var eng *engine.Engine
	var closeEng func()
	for i := range 3 {
		t0 := time.Now()
		en, _, c, err := openEngineAt(r.e.ctx, openPath, true, engine.Options{})
		if err != nil {
			return err
		}
		opens = append(opens, msSince(t0))
		if i < 2 {
			c()
		} else {
			eng, closeEng = en, c
		}
	}
	defer closeEng()
	side.OpenMS = median(opens)
	rng := rand.New(rand.NewPCG(7, 7))
	var lat []float64
	when := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(r.open)*time.Minute + 24*time.Hour)
	for range r.queries {
		t0 := time.Now()
		if _, err := recall.Recall(r.e.ctx, eng, engine.Query{Text: golden.SyntheticQuery(rng), At: when, ReadOnly: true}); err != nil {
			return err
		}
		lat = append(lat, msSince(t0))
	}
	slices.Sort(lat)
	side.RecallP50MS, side.RecallP95MS = lat[len(lat)/2], lat[len(lat)*95/100]
	r.progress("%s: open %.0f ms, recall p50 %.2f ms", side.Backend, side.OpenMS, side.RecallP50MS)
	if !pg {
		side.NotifyComment = "none: a reader sees a write at its next Refresh"
		return nil
	}
	return r.measureNotify(side, eng, openPath)
}

// measureNotify times writes through a second engine until eng has them
// in its caches without being asked.
func (r *scaleRun) measureNotify(side *scaleSide, eng *engine.Engine, openPath string) error {
	ctx := r.e.ctx
	other, _, closeOther, err := openEngineAt(ctx, openPath, true, engine.Options{})
	if err != nil {
		return err
	}
	defer closeOther()
	var nl, cl, wl []float64
	for i := range r.notifies {
		m := &engine.Memory{Key: fmt.Sprintf("notify-%d", i), Content: fmt.Sprintf("notification probe %d", i), Kind: engine.KindFact, Type: "note", Importance: 0.5}
		// AddMemory in its two steps, to time the commit: the
		// write, then the writer's own refresh.
		w0 := time.Now()
		err := other.PrepareMemory(ctx, m)
		if err == nil {
			err = other.Store().Update(ctx, func(q engine.Queries) error { return q.InsertMemory(ctx, m, engine.Actor{Name: "bench"}) })
		}
		c0 := time.Now()
		if err == nil {
			err = other.Refresh(ctx)
		}
		if err != nil {
			return err
		}
		wl = append(wl, float64(c0.Sub(w0).Microseconds())/1000)
		// Until the other engine has it (it may have it before
		// the writer's own refresh has returned).
		for {
			if _, ok := eng.Memory(m.ID); ok {
				break
			}
			if time.Since(w0) > 10*time.Second {
				return engine.Errorf(engine.EINTERNAL, "bench scale: a write was not seen by the other engine within 10 s")
			}
			time.Sleep(100 * time.Microsecond)
		}
		nl, cl = append(nl, msSince(w0)), append(cl, msSince(c0))
	}
	side.NotifyP50MS, side.NotifyP95MS = percentiles(nl)
	side.AfterCommitP50MS, side.AfterCommitP95MS = percentiles(cl)
	side.WriteP50MS = median(wl)
	return nil
}

// measureIngest times four writers, each its own engine (as four agents'
// processes), capturing into one new space.
func (r *scaleRun) measureIngest(side *scaleSide, pg bool) error {
	ingPath := r.at("ingest", pg)
	if err := fillSpace(r.e.ctx, ingPath, 1, 99); err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	t0 := time.Now()
	for w := range 4 {
		wg.Go(func() {
			en, _, c, err := openEngineAt(r.e.ctx, ingPath, true, engine.Options{})
			if err != nil {
				errs <- err
				return
			}
			defer c()
			ms := golden.SyntheticMemories(r.writes, uint64(100+w), time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC))
			for i, m := range ms {
				if _, err := capture.Capture(r.e.ctx, en, engine.Message{ID: fmt.Sprintf("w%d-%d", w, i), Session: m.Session, Role: "user", Text: m.Content, At: m.CreatedAt}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	side.IngestPerSec = float64(4*r.writes) / time.Since(t0).Seconds()
	r.progress("%s: 4 writers %.0f captures/s", side.Backend, side.IngestPerSec)
	return nil
}

// fillSpace writes n synthetic memories into a new database at path: each
// prepared by the engine (hash, vector) and written with its audit row
// under one batch, by store.LoadMemories — on PostgreSQL by COPY, which
// makes a million memories a matter of minutes. The fill is the set-up,
// not a figure: the ingest figure goes through the capture pipeline.
func fillSpace(ctx context.Context, path string, n int, seed uint64) error {
	// The engine only prepares: it does not listen (it would load back
	// what it wrote).
	db, now, err := openStoreAt(ctx, path, false)
	if err != nil {
		return err
	}
	defer db.Close()
	eng, err := engine.Open(ctx, engine.Options{Store: db, Now: now})
	if err != nil {
		return err
	}
	ms := golden.SyntheticMemories(n, seed, time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC))
	const part = 10000 // one transaction each: a bounded COPY
	for i := 0; i < len(ms); i += part {
		chunk := ms[i:min(i+part, len(ms))]
		for _, m := range chunk {
			if err := eng.PrepareMemory(ctx, m); err != nil {
				return err
			}
		}
		if err := db.LoadMemories(ctx, chunk, engine.Actor{Name: "bench", Batch: "synthetic"}); err != nil {
			return fmt.Errorf("write synthetic memories: %w", err)
		}
	}
	// Vacuumed and analysed, as a server that has run a while: otherwise
	// autovacuum would start on a hundred fresh spaces during the
	// measurements (PostgreSQL's, which run first).
	return db.Vacuum(ctx)
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// percentiles are the p50 and p95 of xs.
func percentiles(xs []float64) (p50, p95 float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2], s[len(s)*95/100]
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
