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
//   - gates: the gate's similarity is already relative to the embedder
//     (the exemplars' leave-one-out reference, gate.go), and its threshold
//     stays Config.GateSimilarity; help stages shows, beside it, the 90th
//     percentile of plain statements' similarity to each centroid, which
//     says how much the similarity half adds to the keyword under an
//     embedder (under the hashed one: 0.29–0.90, so mostly the keyword
//     gates).
//
// Under the hashed embedder the dedupe stays at the configured 0.92 (near
// misses reach 0.61, restatements 0.85–1.00; TestCalibrationHashedKeeps-
// Configured); `memtrace help stages --embedder …` prints the
// distributions under any embedder.

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

// calibrateGates measures how close plain statements of each centroid's
// script (calibrationTexts: facts and preferences, none a gated
// declaration; vecs[len(all):]) come to it: the 90th percentile of their
// calibrated similarity, shown by help stages beside the threshold.
func (g *gateSet) calibrateGates(keys []string, plain [][]float32) {
	g.others = map[string]float64{}
	texts := calibrationTexts()
	for _, k := range keys {
		script := k[strings.IndexByte(k, '/')+1:]
		var sims []float64
		for i, v := range plain {
			if scriptOf(texts[i]) == script {
				sims = append(sims, index.Cosine(v, g.centroids[k])/g.reference[k])
			}
		}
		slices.Sort(sims)
		hi := 0.0
		if len(sims) > 0 {
			hi = sims[len(sims)*9/10]
		}
		g.others[k] = hi
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
