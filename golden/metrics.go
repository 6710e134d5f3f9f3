package golden

import (
	"math"
	"sort"
)

// Metric names of a probe result. They are part of the run JSON and of the
// baseline diff; extend, do not rename.
const (
	MetricSurvivors     = "survivors"      // budget survivors
	MetricGuaranteed    = "guaranteed"     // survivors from the guaranteed channel
	MetricPromptChars   = "prompt_chars"   // characters of the rendered memory block
	MetricPresentRecall = "present_recall" // fraction of `present` selectors found among the survivors
	// MetricStraySurvivors (precision probes, those with `only`): budget
	// survivors that match none of the `only` selectors.
	MetricStraySurvivors = "stray_survivors"
	// Ranking metrics over the survivors, in prompt order, against `relevant`.
	MetricRecallAtK = "recall_at_k"
	MetricMRR       = "mrr"
	MetricNDCG      = "ndcg"
	// The same over the pipeline's ranking before the character budget (the
	// merge stage, or mmr when merge has no items): tells a budget cut from
	// a retrieval miss.
	MetricPreBudgetRecallAtK = "pre_budget_recall_at_k"
	MetricPreBudgetMRR       = "pre_budget_mrr"
	MetricPreBudgetNDCG      = "pre_budget_ndcg"
)

// rankingMetrics are the graded-relevance scores of one ranking.
type rankingMetrics struct {
	RecallAtK float64 // relevant entries found in the top k / relevant entries
	MRR       float64 // 1 / rank of the first relevant item (0: none)
	NDCG      float64 // DCG@k / ideal DCG@k with gain 2^grade − 1
}

// scoreRanking matches each ranked item to at most one relevant entry (the
// highest-graded one it matches that no earlier item took), so a memory
// counts once however many selectors name it, and no entry counts twice.
// That keeps NDCG within 0..1.
func scoreRanking(ranked []item, relevant []Graded, k int) rankingMetrics {
	var m rankingMetrics
	if len(relevant) == 0 {
		return m
	}
	if k <= 0 {
		k = max(len(ranked), 1)
	}
	claimed := make([]bool, len(relevant))
	var dcg float64
	found := 0
	for rank, it := range ranked {
		best := -1
		for i, g := range relevant {
			if !claimed[i] && g.Selector.matches(it) && (best < 0 || g.Grade > relevant[best].Grade) {
				best = i
			}
		}
		if best < 0 {
			continue
		}
		claimed[best] = true
		if m.MRR == 0 {
			m.MRR = 1 / float64(rank+1)
		}
		if rank < k {
			found++
			dcg += gain(relevant[best].Grade) / math.Log2(float64(rank+2))
		}
	}
	m.RecallAtK = float64(found) / float64(len(relevant))
	grades := make([]float64, len(relevant))
	for i, g := range relevant {
		grades[i] = g.Grade
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(grades)))
	var ideal float64
	for rank := 0; rank < len(grades) && rank < k; rank++ {
		ideal += gain(grades[rank]) / math.Log2(float64(rank+2))
	}
	if ideal > 0 {
		m.NDCG = dcg / ideal
	}
	return m
}

func gain(grade float64) float64 { return math.Pow(2, grade) - 1 }

// round6 keeps run files stable and readable in code review.
func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }
