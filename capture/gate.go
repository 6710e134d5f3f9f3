package capture

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"memtrace/engine"
	"memtrace/engine/index"
)

// Extraction gates (seed 001, Fix A). A declaration-like label — milestone,
// habit, achievement, gift, shared_thing — is kept only when
//
//  1. the message is not role-play or a joke (stage directions "*smiles*",
//     "(laughs)", "(웃음)", third-person narration "she whispers", ㅋㅋ
//     joking), and
//  2. it holds one of the type's declaration keywords (EN + KO lists below):
//     in the seed this alone stopped 94% of the old noise and passed every
//     positive control, and
//  3. its similarity to the type's exemplar centroid is at least the
//     threshold calibrated on the embedder (calibrate.go: Config.GateSimilarity,
//     0.50, unless the embedder separates exemplars from plain statements
//     elsewhere). The similarity is the better of the whole
//     message and the sentence that holds the keyword, so a genuine
//     declaration inside a long message is not diluted by the rest.
//
// The similarity is calibrated to the embedder: the raw cosine to the
// centroid divided by the reference cosine, which is the mean cosine of each
// exemplar to the centroid of the other exemplars (leave-one-out) — what a
// genuine declaration the gate has never seen scores. Centroids are kept per
// script (English, Korean): a lexical embedder has nothing to compare across
// scripts. The seed's 0.50 was a
// raw cosine under a sentence-transformer; the offline hashed embedder
// measures word and n-gram overlap, so two genuine declarations in other
// words score ~0.2 raw, and a raw 0.50 would stop every one of them. The
// calibrated score reads the same under either embedder: 1.0 is "as close as
// a typical held-out exemplar", 0.50 is half that. The trail shows both.
//
// Two readings of the keyword come before the similarity: a keyword right
// after a number is a unit or currency, not a declaration ("Museum entry
// was 3,000 won" is no achievement), and a milestone or achievement told
// as a lasting state with a duration ("3년째 사귀는 중") is a standing fact,
// not an event. The exemplar sets are sized so that every type's
// leave-one-out reference is well above minReference in both scripts
// (`memtrace help stages` lists them; TestGateCentroidsNotVoid holds it).
//
// A label that fails falls back to note — the memory may still be stored —
// and the trail says why. A message gets exactly one label: the judge
// proposes one type and the gate confirms or replaces it.

// gateSet holds the embedded exemplar centroids of the gated types for one
// embedder, and the role-play guard.
type gateSet struct {
	embedder  string
	centroids map[string][]float32 // by type + "/" + script (en, ko)
	reference map[string]float64   // leave-one-out mean cosine of the exemplars
	guards    []namedPattern
	threshold float64            // Config.GateSimilarity
	cuts      map[string]gateCut // the threshold each centroid gets under this embedder (calibrate.go)
	dedupe    DedupeCalibration  // the dedupe threshold under this embedder
	// unavailable: the exemplars could not be embedded (the embedder is
	// away); the gates hold every statement instead (holdUnembedded).
	unavailable string
}

type namedPattern struct {
	name string
	re   *regexp.Regexp
}

// newGateSet embeds the exemplars with emb once.
// With them it embeds the dedupe calibration pairs and calibrates both
// thresholds (calibrate.go) from the configured ones: threshold is
// Config.GateSimilarity, dedupe Config.DedupeSimilarity.
func newGateSet(ctx context.Context, emb engine.Embedder, threshold, dedupe float64) (*gateSet, error) {
	g := &gateSet{embedder: emb.Name(), centroids: map[string][]float32{}, reference: map[string]float64{}, guards: roleplayPatterns(), threshold: threshold}
	// Every exemplar in one call: an embedder on a server answers them in
	// a few requests, not one per type and script.
	var keys []string
	var all []string
	groups := map[string][2]int{} // key → [lo, hi) in all
	for _, typ := range declarationTypes() {
		byScript := map[string][]string{}
		var scripts []string
		for _, x := range gateExemplars(typ) {
			if byScript[scriptOf(x)] == nil {
				scripts = append(scripts, scriptOf(x))
			}
			byScript[scriptOf(x)] = append(byScript[scriptOf(x)], x)
		}
		for _, script := range scripts {
			k := typ + "/" + script
			keys = append(keys, k)
			groups[k] = [2]int{len(all), len(all) + len(byScript[script])}
			all = append(all, byScript[script]...)
		}
	}
	vecs, err := emb.Embed(ctx, append(all, calibrationTexts()...))
	if err != nil {
		return nil, fmt.Errorf("embed the gate exemplars: %w", err)
	}
	g.dedupe = calibrateDedupe(vecs[len(all):], dedupe)
	heldOut := map[string][]float64{} // each exemplar's cosine to the others' centroid
	for _, k := range keys {
		vs := vecs[groups[k][0]:groups[k][1]]
		g.centroids[k] = centroid(vs, -1)
		ref := 0.0
		for i, v := range vs {
			c := index.Cosine(v, centroid(vs, i))
			heldOut[k] = append(heldOut[k], c)
			ref += c
		}
		g.reference[k] = max(ref/float64(len(vs)), minReference)
	}
	g.calibrateGates(keys, heldOut, vecs[len(all):])
	return g, nil
}

// GateCentroid is one gated type's exemplar centroid for one script, as
// the gate calibrates against it: how many exemplars it averages and their
// leave-one-out reference cosine. Floored is set when the reference sits
// at minReference — the similarity half of that gate would be void.
type GateCentroid struct {
	Type      string  `json:"type"`
	Script    string  `json:"script"`
	Exemplars int     `json:"exemplars"`
	Reference float64 `json:"reference"`
	Floored   bool    `json:"floored"`
	// Plain is the 90th percentile of the calibrated similarity of plain
	// statements (same script, none a declaration) to this centroid,
	// Exemplars10 the 10th of the exemplars held out of it; Threshold is
	// what the gate uses, read from the two (calibrate.go): Configured
	// where it lies between them or where they do not separate
	// (Separates false), else their midpoint.
	Plain       float64 `json:"plain_p90"`
	Threshold   float64 `json:"threshold"`
	Exemplars10 float64 `json:"exemplar_p10"`
	Separates   bool    `json:"separates"`
	Configured  float64 `json:"configured"`
	// At Threshold, the similarity half keeps Kept of the exemplars, each
	// held out of the centroid, and stops Stopped of PlainN plain
	// statements of the script: a half that keeps none or stops none is
	// void (TestGateCentroidsNotVoid holds every one above half of both).
	Kept    int `json:"exemplars_kept"`
	Stopped int `json:"plain_stopped"`
	PlainN  int `json:"plain"`
}

// GateCalibration reports every gated type's centroids under emb, in
// declarationTypes order, English before Korean (help stages shows it).
func GateCalibration(ctx context.Context, emb engine.Embedder) ([]GateCentroid, error) {
	g, err := newGateSet(ctx, emb, engine.DefaultConfig().GateSimilarity, engine.DefaultConfig().DedupeSimilarity)
	if err != nil {
		return nil, err
	}
	var out []GateCentroid
	for _, typ := range declarationTypes() {
		n := map[string]int{}
		for _, x := range gateExemplars(typ) {
			n[scriptOf(x)]++
		}
		for _, script := range []string{"en", "ko"} {
			ref, ok := g.reference[typ+"/"+script]
			if !ok {
				continue
			}
			k := typ + "/" + script
			c := g.cuts[k]
			out = append(out, GateCentroid{Type: typ, Script: script, Exemplars: n[script], Reference: ref, Floored: ref <= minReference,
				Plain: c.plainP90, Threshold: c.threshold, Exemplars10: c.exemplarP10, Separates: c.separates, Configured: g.threshold,
				Kept: c.kept, Stopped: c.stopped, PlainN: c.plain})
		}
	}
	return out, nil
}

// minReference keeps the calibration finite for exemplars that share
// almost nothing.
const minReference = 0.05

// scriptOf is "ko" when most letters of text are Hangul, else "en".
func scriptOf(text string) string {
	letters, hangul := 0, 0
	for _, r := range text {
		switch {
		case r >= 0xAC00 && r <= 0xD7A3:
			hangul++
			letters++
		case r < 0x80 && (r|0x20 >= 'a' && r|0x20 <= 'z'):
			letters++
		}
	}
	if hangul*2 >= letters && hangul > 0 {
		return "ko"
	}
	return "en"
}

// centroid is the mean of vs, leaving out index skip (-1: none).
func centroid(vs [][]float32, skip int) []float32 {
	c := make([]float32, len(vs[0]))
	for j, v := range vs {
		if j == skip {
			continue
		}
		for i := range c {
			c[i] += v[i]
		}
	}
	return c
}

// roleplayPatterns recognise stage directions, narration and joking.
func roleplayPatterns() []namedPattern {
	return []namedPattern{
		{"roleplay_action", regexp.MustCompile(`\*[^*\n]{1,60}\*`)},
		{"roleplay_stage_direction", regexp.MustCompile(`(?i)[(\[](?:laughs?|laughing|smiles?|smiling|sighs?|winks?|giggles?|blushes|whispers?|grins?|nods?|hugs?|cries|crying|chuckles?|sobs?|kisses?|웃음|웃으며|웃는|미소|한숨|윙크|속삭|끄덕|포옹|울음|눈물)[^)\]\n]{0,30}[)\]]`)},
		{"roleplay_narration", regexp.MustCompile(`(?i)\b(?:she|he|they)\s+(?:\w+ly\s+)?(?:smiles|smiled|whispers|whispered|laughs|laughed|sighs|sighed|blushes|blushed|leans|leaned|looks|looked|gazes|gazed|hugs|hugged|kisses|kissed|grins|grinned|nods|nodded|bows|bowed|takes\s+(?:your|his|her)\s+hand)\b|(?:그녀는|그는|[가-힣]{1,4}(?:는|은))\s[^.!?\n]{0,40}(?:속삭였다|속삭이며|미소 지었다|바라보았다|끌어안았다|고백했다|맹세했다)`)},
		{"roleplay_joke", regexp.MustCompile(`ㅋㅋ|ㅎㅎㅎ|(?i)\b(?:lol|lmao|haha+|jk|just kidding|kidding)\b|농담`)},
	}
}

// roleplay returns the name of the first role-play pattern text matches.
func (g *gateSet) roleplay(text string) string {
	for _, p := range g.guards {
		if p.re.MatchString(text) {
			return p.name
		}
	}
	return ""
}

// check runs the gates for a proposed type. It returns the type to store
// (the proposal, or note) and the decisions for the trail.
func (g *gateSet) check(ctx context.Context, emb engine.Embedder, text string, vec []float32, typ string) (string, []engine.Decision, error) {
	if !isDeclaration(typ) {
		return typ, []engine.Decision{{Layer: engine.LayerGate, Verdict: "label", Reason: typ + " is not a gated type"}}, nil
	}
	if p := g.roleplay(text); p != "" {
		return "note", []engine.Decision{{Layer: engine.LayerGate, Verdict: "unlabel", Pattern: p,
			Reason: fmt.Sprintf("%s → note: role-play or joking never becomes a declaration", typ)}}, nil
	}
	if statementText(readActs(text)) == "" {
		return "note", []engine.Decision{{Layer: engine.LayerGate, Verdict: "unlabel", Pattern: "question_or_request",
			Reason: fmt.Sprintf("%s → note: a question or request declares nothing", typ)}}, nil
	}
	norm := lexNorm(text)
	kw := kwFind(norm, gateKeywords(typ))
	if kw == "" {
		return "note", []engine.Decision{{Layer: engine.LayerGate, Verdict: "unlabel", Pattern: "no_keyword",
			Reason: fmt.Sprintf("%s → note: no %s keyword", typ, typ)}}, nil
	}
	if unitAfterNumber(norm, kw) {
		return "note", []engine.Decision{{Layer: engine.LayerGate, Verdict: "unlabel", Pattern: "unit_not_keyword",
			Reason: fmt.Sprintf("%s → note: %q follows a number — a unit or currency (3,000 won), not a declaration", typ, kw)}}, nil
	}
	if (typ == "milestone" || typ == "achievement") && ongoingState.MatchString(norm) {
		return "note", []engine.Decision{{Layer: engine.LayerGate, Verdict: "unlabel", Pattern: "ongoing_state",
			Reason: fmt.Sprintf("%s → note: %q in a lasting state with a duration (3년째 …중, for three years) — a standing fact, not an event", typ, kw)}}, nil
	}
	k := typ + "/" + scriptOf(text)
	sim := index.Cosine(vec, g.centroids[k])
	if s := keywordSentence(text, kw); s != "" && s != text {
		vs, err := emb.Embed(ctx, []string{s})
		if err != nil {
			return "", nil, fmt.Errorf("embed gate sentence: %w", err)
		}
		sim = max(sim, index.Cosine(vs[0], g.centroids[k]))
	}
	ref := g.reference[k]
	cal := sim / ref
	cut := g.cut(k)
	thr := cut.threshold
	if cal < thr {
		return "note", []engine.Decision{{Layer: engine.LayerGate, Verdict: "unlabel", Pattern: "low_similarity",
			Reason: fmt.Sprintf("%s → note: keyword %q but similarity %.2f < %.2f to the %s exemplars (raw cosine %.2f, reference %.2f%s)", typ, kw, cal, thr, typ, sim, ref, cut.why(g.threshold))}}, nil
	}
	return typ, []engine.Decision{{Layer: engine.LayerGate, Verdict: "label", Pattern: kw,
		Reason: fmt.Sprintf("%s: keyword %q, similarity %.2f ≥ %.2f (raw cosine %.2f, reference %.2f%s)", typ, kw, cal, thr, sim, ref, cut.why(g.threshold))}}, nil
}

// cut is the calibrated threshold of centroid k; a centroid calibrateGates
// did not see keeps the configured one.
func (g *gateSet) cut(k string) gateCut {
	if c, ok := g.cuts[k]; ok {
		return c
	}
	return gateCut{threshold: g.threshold, separates: true} // nothing measured: the configured threshold, with no note
}

// unitAfterNumber reports whether keyword kw stands right after a number
// in norm (from lexNorm): "3 000 won" is a price, "2 completed" a count.
func unitAfterNumber(norm, kw string) bool {
	kw = strings.TrimSuffix(kw, "*")
	for from := 0; ; {
		i := strings.Index(norm[from:], " "+kw)
		if i < 0 {
			return false
		}
		i += from
		j := strings.LastIndexByte(norm[:i], ' ')
		if prev := norm[j+1 : i]; prev != "" && strings.Trim(prev, "0123456789") == "" {
			return true
		}
		from = i + 1
	}
}

// ongoingState marks a lasting state measured by its duration: the
// relationship or condition has been going on, nothing happened at one
// point in time ("3년째 사귀는 중", "사귄 지 2년", "been together for three
// years").
var ongoingState = regexp.MustCompile(`[0-9]+\s?(?:년|개월|달)\s?째|(?:는|고 있는) 중|[가-힣]+ 지 [0-9]+\s?(?:년|개월)|\bbeen \w+(?: \w+)? for (?:[0-9]+|a|one|two|three|four|five|six|seven|eight|nine|ten|many|several) (?:years?|months?)\b`)

// keywordSentence returns the sentence of text that holds kw.
func keywordSentence(text, kw string) string {
	kw = strings.TrimSuffix(kw, "*")
	for _, s := range splitSentences(text) {
		if strings.Contains(lexNorm(s), kw) {
			return strings.TrimSpace(s)
		}
	}
	return ""
}
