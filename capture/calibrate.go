package capture

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"memtrace/engine"
	"memtrace/engine/index"
)

// Thresholds per embedder. Config.DedupeSimilarity (0.92) and
// Config.GateSimilarity (0.50) were set on the offline hashed embedder,
// whose cosine measures shared words: two statements of different facts
// share few of them and score far below 0.92. A dense model reads topic
// and form: "I'm allergic to peanuts" and "I'm allergic to cats" may score
// above 0.92 there, and every new fact would "reinforce" an unrelated
// memory. So each Capturer calibrates both on its own embedder, with the
// gate exemplars in the same call:
//
//   - dedupe: the cosines of calibrationPairs — bilingual restatements of
//     one fact (duplicates) and statements of different facts in the same
//     words and topic (distinct) — give the threshold
//     max(Config.DedupeSimilarity, highest distinct cosine + dedupeMargin):
//     no distinct pair of the set reaches it. When that is above
//     dedupeCeiling the embedder cannot tell different facts apart, and
//     only the same content (its hash) reinforces.
//   - gates: the gate's similarity is relative to the embedder (the
//     exemplars' leave-one-out reference, gate.go), and its threshold is
//     read per centroid from two distributions in those units: each
//     exemplar held out of its centroid (10th percentile) and the plain
//     statements of calibrationPairs, none a declaration (90th). When the
//     first is above the second the configured Config.GateSimilarity
//     stands if it lies between them, else their midpoint replaces it;
//     when it is not, the embedder does not separate declarations from
//     plain statements (reported for the CI's tiny Ollama model: plain
//     statements above the exemplars), no threshold would, and the
//     configured one stays, the trail saying so (gateCutFor).
//
// Under the hashed embedder both stay at the configured 0.92 and 0.50
// (near misses reach 0.61, restatements 0.85–1.00; 8 of 10 gate centroids
// do not separate and the other two hold 0.50 between their percentiles:
// TestCalibrationHashedKeepsConfigured), so it captures as before;
// `memtrace help stages --embedder …` prints the distributions under any
// embedder.

const (
	dedupeMargin  = 0.03
	dedupeCeiling = 0.99
)

// calibrationPair is two statements and whether they state one fact.
type calibrationPair struct {
	a, b string
	dup  bool
}

// calibrationPairs: restatements (punctuation, politeness, word order,
// contraction) and near misses (the same template or topic, another fact),
// English and Korean.
func calibrationPairs() []calibrationPair {
	return []calibrationPair{
		{"I'm allergic to peanuts.", "I am allergic to peanuts", true},
		{"My favourite editor is Neovim.", "Neovim is my favourite editor.", true},
		{"We deploy on Fridays after the standup.", "We deploy on Fridays, after the standup", true},
		{"My daughter Minji starts school in Busan next March.", "Minji, my daughter, starts school in Busan next March.", true},
		{"The staging database runs PostgreSQL 16.", "the staging database runs PostgreSQL 16", true},
		{"저는 땅콩 알레르기가 있어요.", "저는 땅콩 알레르기가 있습니다.", true},
		{"우리 팀은 금요일마다 배포해요.", "우리 팀은 금요일마다 배포합니다.", true},
		{"제가 제일 좋아하는 편집기는 네오빔이에요.", "제가 제일 좋아하는 편집기는 네오빔입니다.", true},
		{"I'm allergic to peanuts.", "I'm allergic to cats.", false},
		{"My daughter Minji starts school in Busan next March.", "My son Jisoo starts university in Seoul next September.", false},
		{"The staging database runs PostgreSQL 16.", "The production database runs MySQL 8.", false},
		{"I prefer tabs over spaces.", "I prefer tea over coffee.", false},
		{"We deploy on Fridays after the standup.", "We review pull requests on Mondays before lunch.", false},
		{"My favourite editor is Neovim.", "My favourite band is Radiohead.", false},
		{"I live in Berlin near the river.", "I live in Lisbon near the sea.", false},
		{"My sister is a nurse in Daegu.", "My brother is a teacher in Gwangju.", false},
		{"저는 땅콩 알레르기가 있어요.", "저는 고양이 알레르기가 있어요.", false},
		{"저는 서울에 살아요.", "저는 부산에서 일해요.", false},
		{"우리 팀은 금요일마다 배포해요.", "우리 팀은 월요일마다 회의해요.", false},
		{"제가 제일 좋아하는 편집기는 네오빔이에요.", "제가 제일 좋아하는 음식은 김치찌개예요.", false},
		{"딸이 내년 3월에 부산에서 학교에 들어가요.", "아들이 올해 9월에 서울에서 대학에 들어가요.", false},
		{"저는 커피보다 차를 좋아해요.", "저는 여름보다 겨울을 좋아해요.", false},
	}
}

// DedupeCalibration is the dedupe threshold one embedder gets and the
// cosines it was chosen from (calibrationPairs).
type DedupeCalibration struct {
	Duplicates []float64 `json:"duplicates"` // cosines of the restatements, ascending
	Distinct   []float64 `json:"distinct"`   // cosines of the near misses, ascending
	Configured float64   `json:"configured"` // Config.DedupeSimilarity
	Threshold  float64   `json:"threshold"`  // what the capture uses
	// VectorOff: the near misses score above dedupeCeiling, so no cosine
	// dedupes; only the same content (its hash) reinforces.
	VectorOff bool `json:"vector_off,omitempty"`
}

// vectorDedupeOff is a threshold no cosine reaches.
const vectorDedupeOff = 2.0

// calibrationTexts are the texts of calibrationPairs, a then b.
func calibrationTexts() []string {
	var out []string
	for _, p := range calibrationPairs() {
		out = append(out, p.a, p.b)
	}
	return out
}

// calibrateDedupe reads vecs, the vectors of calibrationTexts in order.
func calibrateDedupe(vecs [][]float32, configured float64) DedupeCalibration {
	c := DedupeCalibration{Configured: configured, Threshold: configured}
	for i, p := range calibrationPairs() {
		sim := index.Cosine(vecs[2*i], vecs[2*i+1])
		if p.dup {
			c.Duplicates = append(c.Duplicates, sim)
		} else {
			c.Distinct = append(c.Distinct, sim)
		}
	}
	slices.Sort(c.Duplicates)
	slices.Sort(c.Distinct)
	hi := c.Distinct[len(c.Distinct)-1] + dedupeMargin
	switch {
	case hi > dedupeCeiling:
		// The embedder cannot tell these facts apart: only the same
		// content reinforces (the content hash); no cosine does.
		c.Threshold, c.VectorOff = vectorDedupeOff, true
	case hi > c.Threshold:
		c.Threshold = hi
	}
	return c
}

// gateCut is one gated centroid's threshold under an embedder and the two
// distributions it was read from (calibrated similarities, 1.0 = the
// leave-one-out reference).
type gateCut struct {
	exemplarP10 float64 // 10th percentile of the exemplars, each held out of its centroid
	plainP90    float64 // 90th percentile of plain statements of the script
	threshold   float64 // what the gate uses
	separates   bool    // exemplarP10 > plainP90
	// The similarity half at that threshold: how many held-out exemplars
	// it keeps (≥ threshold) and how many plain statements it stops (<).
	// A half that stops no plain statement, or keeps no exemplar, is void
	// whatever the reference (TestGateCentroidsNotVoid).
	kept, exemplars, stopped, plain int
}

// gateCutFor is the rule: the held-out exemplars' 10th percentile against
// plain statements' 90th. When the first is above the second the embedder
// separates declarations from plain statements; the configured threshold
// stands if it lies in that gap (plainP90 < configured ≤ exemplarP10),
// else the gap's midpoint replaces it. When it is not above, the embedder
// does not separate them — its similarity cannot tell a declaration from
// a plain statement — and the configured threshold (0.50 by default)
// stays; the trail and help stages say so.
func gateCutFor(exemplars, plain []float64, configured float64) gateCut {
	c := gateCut{exemplarP10: percentile(exemplars, 10), plainP90: percentile(plain, 90), threshold: configured}
	c.separates = len(exemplars) > 0 && len(plain) > 0 && c.exemplarP10 > c.plainP90
	if c.separates && (configured <= c.plainP90 || configured > c.exemplarP10) {
		c.threshold = (c.exemplarP10 + c.plainP90) / 2
	}
	c.exemplars, c.plain = len(exemplars), len(plain)
	for _, x := range exemplars {
		if x >= c.threshold {
			c.kept++
		}
	}
	for _, x := range plain {
		if x < c.threshold {
			c.stopped++
		}
	}
	return c
}

// why is what the trail adds to a gate decision about its threshold.
func (c gateCut) why(configured float64) string {
	switch {
	case !c.separates:
		return fmt.Sprintf("; threshold %.2f by default: under this embedder held-out exemplars (p10 %.2f) do not score above plain statements (p90 %.2f)", c.threshold, c.exemplarP10, c.plainP90)
	case c.threshold != configured:
		return fmt.Sprintf("; threshold calibrated for this embedder from %.2f: midway between plain statements' p90 %.2f and held-out exemplars' p10 %.2f", configured, c.plainP90, c.exemplarP10)
	}
	return ""
}

// percentile is the p-th percentile of xs (nearest rank below), 0 for none.
func percentile(xs []float64, p int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)*p/100]
}

// calibrateGates reads, for each centroid, its held-out exemplars' cosines
// (heldOut) and the plain statements of its script (calibrationTexts:
// facts and preferences, none a gated declaration; plain holds their
// vectors), both divided by the centroid's reference, into its gateCut.
func (g *gateSet) calibrateGates(keys []string, heldOut map[string][]float64, plain [][]float32) {
	g.cuts = map[string]gateCut{}
	texts := calibrationTexts()
	for _, k := range keys {
		script := k[strings.IndexByte(k, '/')+1:]
		var sims, ex []float64
		for i, v := range plain {
			if scriptOf(texts[i]) == script {
				sims = append(sims, index.Cosine(v, g.centroids[k])/g.reference[k])
			}
		}
		for _, c := range heldOut[k] {
			ex = append(ex, c/g.reference[k])
		}
		g.cuts[k] = gateCutFor(ex, sims, g.threshold)
	}
}

// CalibrateDedupe embeds calibrationPairs with emb and returns the dedupe
// threshold it gets from configured (Config.DedupeSimilarity) and the
// distributions (the store audit's census, help stages).
func CalibrateDedupe(ctx context.Context, emb engine.Embedder, configured float64) (DedupeCalibration, error) {
	vecs, err := emb.Embed(ctx, calibrationTexts())
	if err != nil {
		return DedupeCalibration{}, fmt.Errorf("embed the dedupe calibration pairs: %w", err)
	}
	return calibrateDedupe(vecs, configured), nil
}
