package golden

import (
	"context"
	"fmt"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/policy"
)

// The LoCoMo benchmark through the full recall pipeline.
//
// Each conversation goes into a fresh database: every turn becomes an
// episode memory (no noise filter — the benchmark measures recall, not
// capture) keyed "<sample_id>:<dia_id>", in session "<sample_id>:session_N",
// created at its session's date plus one second per turn so the
// conversation order is the time order. Every question with evidence is
// recalled read-only at one day after the conversation's last session, with
// k = the deepest cut-off, and three rankings are scored:
//
//   - pipeline: the items of the `merge` stage, in order — the pipeline's
//     full ranking (relevance × retention, MMR) just before the budget; at most
//     k items, so R@k for every reported k is measured on it;
//   - final: the budget survivors, what the agent would receive;
//   - bm25: the plain BM25 reference (ReferenceRecall) on the same data.
//
// A fourth row, rerank, is the `rerank` stage's relevance order (lexical +
// vector, before time decay): the retrieval part of the pipeline alone.

// BenchEngine is what the benchmarks need of an engine; *engine.Engine is
// one.
type BenchEngine interface {
	Recaller
	PrepareMemory(ctx context.Context, m *engine.Memory) error
	Update(ctx context.Context, fn func(q engine.Queries) error) error
	Embed(ctx context.Context, texts ...string) ([][]float32, error)
	ScanFloor(vec []float32) int
}

// EngineFactory opens a fresh, empty engine named name; close releases it
// (and its temporary database). golden never opens databases itself: the
// caller wires the store.
type EngineFactory func(ctx context.Context, name string) (e BenchEngine, close func() error, err error)

// LoCoMoOptions configure a benchmark run.
type LoCoMoOptions struct {
	Ks []int // cut-offs; default 5, 10, 25, 50
	// Conversations limits the run to the first n conversations (0: all).
	Conversations int
	// Budget is the character budget of each recall (0: the engine's).
	Budget int
	// Kind and Importance of the turn memories (defaults: episode, 0.5).
	Kind       engine.Kind
	Importance float64
	// Progress, when set, is called after each conversation.
	Progress func(done, total int, sampleID string)
}

// LoCoMoResult is the `bench locomo --json` document.
type LoCoMoResult struct {
	Questions     int                                      `json:"questions"`
	Conversations int                                      `json:"conversations"`
	Ks            []int                                    `json:"ks"`
	Results       map[string]map[string]map[string]float64 `json:"results"`
	// Systems are the rows of Results in report order.
	Systems []string `json:"systems"`
	// Counts is how many questions each category has.
	Counts   map[string]int `json:"counts"`
	Seconds  float64        `json:"seconds"`
	Ranking  string         `json:"ranking"` // what "pipeline" measures
	Budget   int            `json:"budget"`
	Recalled int            `json:"recalls"`
	// Precision is, per system of Results, what its ranking puts into a
	// prompt of the recall's budget (bench_precision.go).
	Precision map[string]LoCoMoPrecision `json:"precision"`
	// Policy is the --policy the engines ran under (absent: the defaults).
	Policy *BenchPolicy `json:"policy,omitempty"`
}

// BenchPolicy is the policy file a benchmark ran under and the keys in
// which it differs from the defaults.
type BenchPolicy struct {
	File    string          `json:"file"`
	Changes []policy.Change `json:"changes"`
}

// The rows of a LoCoMoResult.
const (
	SystemPipeline = "pipeline"
	SystemFinal    = "final"
	SystemRerank   = "rerank"
	SystemBM25     = "bm25"
)

// DRAGON holds the published DRAGON turn-level recall@k on LoCoMo
// (Maharana et al. 2024, Table 3).
var DRAGON = map[int]float64{5: 0.567, 10: 0.662, 25: 0.767, 50: 0.827}

// LoCoMoMemories turns a conversation into the memories the benchmark
// ingests, in conversation order.
func LoCoMoMemories(c *Conversation, kind engine.Kind, importance float64) []*engine.Memory {
	if kind == "" {
		kind = engine.KindEpisode
	}
	if importance <= 0 {
		importance = 0.5
	}
	var out []*engine.Memory
	for _, s := range c.Sessions {
		at := s.At
		if at.IsZero() {
			at = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, s.Number)
		}
		for i, t := range s.Turns {
			out = append(out, &engine.Memory{
				Key:        c.SampleID + ":" + t.DiaID,
				Content:    TurnDocument(t),
				Kind:       kind,
				Type:       "note",
				Importance: importance,
				Role:       "user",
				Session:    fmt.Sprintf("%s:session_%d", c.SampleID, s.Number),
				CreatedAt:  at.Add(time.Duration(i) * time.Second),
			})
		}
	}
	return out
}

// IngestLoCoMo writes the conversation's turns into e in one transaction,
// bypassing the capture pipeline's filters.
func IngestLoCoMo(ctx context.Context, e BenchEngine, c *Conversation, kind engine.Kind, importance float64) error {
	ms := LoCoMoMemories(c, kind, importance)
	for _, m := range ms {
		if err := e.PrepareMemory(ctx, m); err != nil {
			return fmt.Errorf("ingest %s: %w", m.Key, err)
		}
	}
	actor := engine.Actor{Name: "bench", Batch: "locomo-" + c.SampleID}
	return e.Update(ctx, func(q engine.Queries) error {
		for _, m := range ms {
			if err := q.InsertMemory(ctx, m, actor); err != nil {
				return fmt.Errorf("ingest %s: %w", m.Key, err)
			}
		}
		return nil
	})
}

// lastSession is the time of the conversation's last dated session.
func lastSession(c *Conversation) time.Time {
	var last time.Time
	for _, s := range c.Sessions {
		if s.At.After(last) {
			last = s.At
		}
	}
	return last
}

// RunLoCoMo runs the benchmark.
func RunLoCoMo(ctx context.Context, l *LoCoMo, open EngineFactory, o LoCoMoOptions) (*LoCoMoResult, error) {
	ks := o.Ks
	if len(ks) == 0 {
		ks = []int{5, 10, 25, 50}
	}
	depth := 0
	for _, k := range ks {
		if k <= 0 {
			return nil, fmt.Errorf("bench locomo: cut-off %d: every k must be positive", k)
		}
		depth = max(depth, k)
	}
	convs := l.Conversations
	if o.Conversations > 0 && o.Conversations < len(convs) {
		convs = convs[:o.Conversations]
	}
	start := time.Now()
	acc := map[string]*RecallAtK{
		SystemPipeline: NewRecallAtK(ks...), SystemFinal: NewRecallAtK(ks...),
		SystemRerank: NewRecallAtK(ks...),
	}
	recalls := 0
	budget := o.Budget
	prec := map[string]*precisionAcc{}
	for _, s := range []string{SystemPipeline, SystemFinal, SystemRerank, SystemBM25} {
		prec[s] = &precisionAcc{}
	}
	for i := range convs {
		c := &convs[i]
		n, err := benchConversation(ctx, c, open, depth, budget, o, acc, prec)
		if err != nil {
			return nil, err
		}
		recalls += n
		if o.Progress != nil {
			o.Progress(i+1, len(convs), c.SampleID)
		}
	}
	ref, err := ReferenceRecall(ctx, &LoCoMo{Conversations: convs}, ks...)
	if err != nil {
		return nil, err
	}
	acc[SystemBM25] = ref
	res := &LoCoMoResult{
		Questions: ref.Questions(), Conversations: len(convs), Ks: NewRecallAtK(ks...).Ks(),
		Results: map[string]map[string]map[string]float64{}, Counts: map[string]int{},
		Systems: []string{SystemPipeline, SystemFinal, SystemRerank, SystemBM25},
		Ranking: "pipeline = the merge stage's items in order (relevance × retention, MMR; k = " +
			fmt.Sprint(depth) + "), before the character budget; final = the budget survivors; " +
			"rerank = the rerank stage's relevance order (before time decay); bm25 = the plain BM25 reference",
		Budget: budget, Recalled: recalls, Precision: map[string]LoCoMoPrecision{},
	}
	for name, p := range prec {
		res.Precision[name] = p.figures()
	}
	for name, r := range acc {
		res.Results[name] = r.Table()
	}
	for _, cat := range Categories {
		if n := ref.Count(cat); n > 0 {
			res.Counts[cat.String()] = n
		}
	}
	res.Seconds = round4(time.Since(start).Seconds())
	return res, nil
}

func benchConversation(ctx context.Context, c *Conversation, open EngineFactory, depth, budget int, o LoCoMoOptions,
	acc map[string]*RecallAtK, prec map[string]*precisionAcc) (recalls int, err error) {
	e, closeFn, err := open(ctx, c.SampleID)
	if err != nil {
		return 0, fmt.Errorf("bench locomo %s: open: %w", c.SampleID, err)
	}
	defer func() {
		if cerr := closeFn(); cerr != nil && err == nil {
			err = fmt.Errorf("bench locomo %s: close: %w", c.SampleID, cerr)
		}
	}()
	if err := IngestLoCoMo(ctx, e, c, o.Kind, o.Importance); err != nil {
		return 0, fmt.Errorf("bench locomo %s: %w", c.SampleID, err)
	}
	prefix := c.SampleID + ":"
	at := lastSession(c).Add(24 * time.Hour)
	lines := turnLineChars(LoCoMoMemories(c, o.Kind, o.Importance), prefix)
	ref := NewReferenceBM25(c)
	for _, q := range c.QA {
		if len(q.Evidence) == 0 {
			continue
		}
		tr, err := e.Recall(ctx, engine.Query{Text: q.Question, At: at, K: depth, Budget: budget, ReadOnly: true})
		if err != nil {
			return recalls, fmt.Errorf("bench locomo %s: recall %q: %w", c.SampleID, q.Question, err)
		}
		recalls++
		pipeline, rerank := stageKeys(tr, "merge", prefix), stageKeys(tr, "rerank", prefix)
		acc[SystemPipeline].Add(q.Category, q.Evidence, pipeline)
		acc[SystemRerank].Add(q.Category, q.Evidence, rerank)
		final := make([]string, 0, len(tr.Survivors))
		for _, s := range tr.Survivors {
			final = append(final, strings.TrimPrefix(s.Key, prefix))
		}
		acc[SystemFinal].Add(q.Category, q.Evidence, final)
		prec[SystemPipeline].add(pipeline, q.Evidence, lines, tr.Budget)
		prec[SystemFinal].add(final, q.Evidence, lines, tr.Budget)
		prec[SystemRerank].add(rerank, q.Evidence, lines, tr.Budget)
		prec[SystemBM25].add(ref.Rank(q.Question, depth), q.Evidence, lines, tr.Budget)
	}
	return recalls, nil
}

// budgetLabel names the budget of a run: its characters, or the engine's.
func budgetLabel(budget int) string {
	if budget <= 0 {
		return fmt.Sprint(engine.DefaultConfig().Budget)
	}
	return fmt.Sprint(budget)
}

// stageKeys are the dia_ids of the items a stage kept, in its order.
func stageKeys(tr *engine.Trace, stage, prefix string) []string {
	st := tr.Stage(stage)
	if st == nil {
		return nil
	}
	out := make([]string, 0, len(st.Items))
	for _, it := range st.Items {
		if it.Dropped == "" {
			out = append(out, strings.TrimPrefix(it.Key, prefix))
		}
	}
	return out
}

// Text renders the result as a table beside DRAGON's published figures.
func (r *LoCoMoResult) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "LoCoMo turn-level recall@k: %d questions, %d conversations, %d recalls in %.1fs\n",
		r.Questions, r.Conversations, r.Recalled, r.Seconds)
	if r.Policy != nil {
		fmt.Fprintf(&b, "policy %s: %s\n", safetext.SanitizeLine(r.Policy.File), policyChanges(r.Policy.Changes))
	}
	fmt.Fprintf(&b, "%-12s", "system")
	for _, k := range r.Ks {
		fmt.Fprintf(&b, " %7s", fmt.Sprintf("R@%d", k))
	}
	b.WriteString("   survivors  evidence\n")
	row := func(name string, get func(k int) (float64, bool)) {
		fmt.Fprintf(&b, "%-12s", name)
		for _, k := range r.Ks {
			if v, ok := get(k); ok {
				fmt.Fprintf(&b, " %7.3f", v)
			} else {
				fmt.Fprintf(&b, " %7s", "—")
			}
		}
	}
	for _, s := range r.Systems {
		row(s, func(k int) (float64, bool) {
			v, ok := r.Results[s][fmt.Sprintf("R@%d", k)]["overall"]
			return v, ok
		})
		if p, ok := r.Precision[s]; ok {
			fmt.Fprintf(&b, "   %9.2f  %7.1f%%", p.MeanBudgetSurvivors, 100*p.EvidenceCharShare)
		}
		b.WriteString("\n")
	}
	row("DRAGON", func(k int) (float64, bool) { v, ok := DRAGON[k]; return v, ok })
	b.WriteString("\n")
	b.WriteString("\nper category (" + SystemPipeline + "):\n")
	for _, cat := range Categories {
		name := cat.String()
		if r.Counts[name] == 0 {
			continue
		}
		row(name, func(k int) (float64, bool) {
			v, ok := r.Results[SystemPipeline][fmt.Sprintf("R@%d", k)][name]
			return v, ok
		})
		b.WriteString("\n")
	}
	b.WriteString("\n" + r.Ranking + "\n")
	fmt.Fprintf(&b, "survivors = turns each ranking puts into a %s-character prompt (the budget stage's fill), mean per question; "+
		"evidence = share of those prompt lines' characters on the question's evidence turns\n", budgetLabel(r.Budget))
	return b.String()
}

// policyChanges names each changed key with its default and its value,
// "the defaults" when none differs.
func policyChanges(cs []policy.Change) string {
	if len(cs) == 0 {
		return "the defaults"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Key + " " + c.A + " → " + c.B
	}
	return strings.Join(parts, ", ")
}
