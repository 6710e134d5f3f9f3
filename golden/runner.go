package golden

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"memtrace/internal/outfile"

	"memtrace/engine"
)

// Recaller runs one recall; *engine.Engine satisfies it.
type Recaller interface {
	Recall(ctx context.Context, q engine.Query) (*engine.Trace, error)
}

// Runner runs golden sets.
type Runner struct {
	// Now is the clock for probes whose set has no defaults.at; nil: time.Now.
	Now func() time.Time
	// Config supplies k and budget for probes and sets that name neither;
	// zero fields take engine.DefaultConfig().
	Config engine.Config
}

// Summary aggregates a run; its JSON is part of the `golden run --json`
// contract.
type Summary struct {
	Probes   int     `json:"probes"`
	Passed   int     `json:"passed"`
	Failed   int     `json:"failed"`
	Errors   int     `json:"errors"` // probes whose recall returned an error (counted as failed too)
	PassRate float64 `json:"pass_rate"`
	// PresentRecall is the fraction of all `present` selectors of the set
	// found among their probe's survivors (1 when the set has none).
	PresentRecall   float64 `json:"present_recall"`
	MeanGuaranteed  float64 `json:"mean_guaranteed"`
	MeanPromptChars float64 `json:"mean_prompt_chars"`
	// Means over the probes that grade relevance; absent when none does.
	MeanRecallAtK *float64 `json:"mean_recall_at_k,omitempty"`
	MeanMRR       *float64 `json:"mean_mrr,omitempty"`
	MeanNDCG      *float64 `json:"mean_ndcg,omitempty"`
	// Precision: over the probes with `only` (PrecisionProbes of them), the
	// survivors that match none of their probe's `only` selectors, in all
	// and per probe; the mean is absent when no probe has `only`.
	PrecisionProbes    int      `json:"precision_probes"`
	StraySurvivors     int      `json:"stray_survivors"`
	MeanStraySurvivors *float64 `json:"mean_stray_survivors,omitempty"`
}

// RunResult is one run of a set: the `golden run --json` output and the
// baseline file format. It holds no timings or timestamps of the run
// itself, so a baseline only changes when behaviour does.
type RunResult struct {
	Set     string        `json:"set"`
	Summary Summary       `json:"summary"`
	Probes  []ProbeResult `json:"probes"`
}

// Run recalls every probe of the set in file order (read-only) and
// evaluates it. A recall error fails that probe and the run goes on; a
// cancelled context stops the run. progress, when not nil, is called after
// each probe.
func (r *Runner) Run(ctx context.Context, set *Set, rec Recaller, progress func(done, total int)) (*RunResult, error) {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	cfg := engine.DefaultConfig()
	if r.Config.K > 0 {
		cfg.K = r.Config.K
	}
	if r.Config.Budget > 0 {
		cfg.Budget = r.Config.Budget
	}
	res := &RunResult{Set: set.Name, Probes: make([]ProbeResult, 0, len(set.Probes))}
	start := now()
	for i, pr := range set.Probes {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("golden run %s: stopped after %d of %d probes: %w", set.Name, i, len(set.Probes), err)
		}
		q := set.Query(pr, start, cfg)
		t, err := rec.Recall(ctx, q)
		var pres ProbeResult
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, fmt.Errorf("golden run %s: stopped at probe %s: %w", set.Name, pr.ID, ctx.Err())
		case err != nil:
			pres = errorResult(pr, q, err)
		case t == nil:
			pres = errorResult(pr, q, fmt.Errorf("the recaller returned no trace"))
		default:
			pres = Evaluate(pr, t)
		}
		res.Probes = append(res.Probes, pres)
		if progress != nil {
			progress(i+1, len(set.Probes))
		}
	}
	res.Summary = summarize(res.Probes)
	return res, nil
}

// Query builds the recall request of a probe: its own fields, else the
// set's defaults, else cfg's. Golden recalls are always read-only.
func (s *Set) Query(pr Probe, now time.Time, cfg engine.Config) engine.Query {
	q := engine.Query{
		Text:     pr.Query,
		At:       pr.Time(s.Defaults, now),
		Session:  firstNonEmpty(pr.Session, s.Defaults.Session),
		Project:  firstNonEmpty(pr.Project, s.Defaults.Project),
		K:        firstPositive(pr.K, s.Defaults.K, cfg.K),
		Budget:   firstPositive(pr.Budget, s.Defaults.Budget, cfg.Budget),
		ReadOnly: true,
	}
	return q
}

func errorResult(pr Probe, q engine.Query, err error) ProbeResult {
	return ProbeResult{
		ID: pr.ID, Query: pr.Query, At: q.At,
		Error:        clip(err.Error(), 200),
		Failures:     []string{"recall failed: " + clip(err.Error(), 200)},
		Survivors:    []SurvivorRef{},
		Metrics:      map[string]float64{},
		presentTotal: len(pr.Expect.Present),
	}
}

func summarize(probes []ProbeResult) Summary {
	s := Summary{Probes: len(probes), PresentRecall: 1}
	var found, total int
	var guaranteed, chars float64
	var rk, mrr, ndcg, strays []float64
	for _, p := range probes {
		if v, ok := p.Metrics[MetricStraySurvivors]; ok {
			strays = append(strays, v)
			s.PrecisionProbes++
			s.StraySurvivors += int(v)
		}
		if p.Pass {
			s.Passed++
		} else {
			s.Failed++
		}
		if p.Error != "" {
			s.Errors++
		}
		found += p.presentFound
		total += p.presentTotal
		guaranteed += p.Metrics[MetricGuaranteed]
		chars += p.Metrics[MetricPromptChars]
		if v, ok := p.Metrics[MetricRecallAtK]; ok {
			rk = append(rk, v)
			mrr = append(mrr, p.Metrics[MetricMRR])
			ndcg = append(ndcg, p.Metrics[MetricNDCG])
		}
	}
	if s.Probes > 0 {
		s.PassRate = round6(float64(s.Passed) / float64(s.Probes))
		s.MeanGuaranteed = round6(guaranteed / float64(s.Probes))
		s.MeanPromptChars = round6(chars / float64(s.Probes))
	}
	if total > 0 {
		s.PresentRecall = round6(float64(found) / float64(total))
	}
	s.MeanRecallAtK, s.MeanMRR, s.MeanNDCG = mean(rk), mean(mrr), mean(ndcg)
	s.MeanStraySurvivors = mean(strays)
	return s
}

func mean(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	m := round6(sum / float64(len(xs)))
	return &m
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func firstPositive(ns ...int) int {
	for _, n := range ns {
		if n > 0 {
			return n
		}
	}
	return 0
}

// WriteJSON writes the run as indented JSON, the format of baseline files.
func (r *RunResult) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// Save writes the run to path (a baseline meant for code review).
func (r *RunResult) Save(path string, perm os.FileMode) error {
	f, err := outfile.Create(path, perm)
	if err != nil {
		return fmt.Errorf("save golden run: %w", err)
	}
	if err := r.WriteJSON(f); err != nil {
		f.Close()
		return fmt.Errorf("save golden run: %w", err)
	}
	return f.Close()
}

// LoadRun reads a run file written by Save, e.g. a baseline.
func LoadRun(path string) (*RunResult, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read golden run: %w", err)
	}
	var r RunResult
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("read golden run %s: not a golden run JSON file: %w", path, err)
	}
	for i := range r.Probes {
		if r.Probes[i].Failures == nil {
			r.Probes[i].Failures = []string{}
		}
		if r.Probes[i].Metrics == nil {
			r.Probes[i].Metrics = map[string]float64{}
		}
	}
	return &r, nil
}
