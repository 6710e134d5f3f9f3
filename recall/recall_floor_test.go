package recall

import "testing"

// The floor is the absolute RelevanceFloor unless the best candidate is
// weak; then relativeFloorShare (0.4) of the best one's relevance.
func TestRelevanceFloorRelative(t *testing.T) {
	cs := func(rs ...float64) []*candidate {
		out := make([]*candidate, len(rs))
		for i, r := range rs {
			out[i] = &candidate{relevance: r}
		}
		return out
	}
	for _, tc := range []struct {
		rs   []float64
		want float64
	}{
		{[]float64{0.9, 0.3, 0.1}, 0.2},    // a strong best match: the absolute floor
		{[]float64{0.5, 0.3}, 0.2},         // exactly the floor ÷ 0.4
		{[]float64{0.3, 0.16, 0.14}, 0.12}, // a long question: 0.4 of the best
		{nil, 0.2},
	} {
		if got := relevanceFloor(cs(tc.rs...), 0.2); got != tc.want {
			t.Errorf("relevanceFloor(%v) = %v, want %v", tc.rs, got, tc.want)
		}
	}
}
