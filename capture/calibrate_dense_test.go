package capture_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/engine/index"
)

// An embedder whose vectors crowd together — as a dense model's do: every
// sentence shares topic and form — gets a dedupe threshold above the
// near misses it scores, so a new fact does not "reinforce" an unrelated
// memory. The hashed embedder at 3 dimensions crowds like that (its terms
// collide): at the fixed 0.92 these facts would reinforce one another.
func TestCrowdedEmbedderReinforcesNothingUnrelated(t *testing.T) {
	ctx := context.Background()
	emb := engine.NewHashed(3)
	facts := []string{
		"My wife Sora teaches piano at a school in Incheon.",
		"I drive a blue Hyundai Ioniq to work every day.",
		"Our cat Dubu is afraid of the vacuum cleaner.",
		"I run the Chuncheon marathon every October.",
		"My manager prefers status updates by email.",
		"The build server is the old ThinkPad under my desk.",
		"I stopped drinking coffee after three in the afternoon.",
		"We keep the family photos on a NAS in the study.",
		"제 남편은 대전에서 소방관으로 일해요.",
		"저는 매주 토요일 아침에 수영을 해요.",
		"우리 집 강아지 이름은 보리예요.",
		"저는 오이를 싫어해요.",
		"회사 노트북은 맥북 프로 14인치예요.",
		"제 동생은 캐나다 밴쿠버에서 유학 중이에요.",
		"저는 겨울마다 강원도로 스키를 타러 가요.",
		"우리 팀 회의는 화요일 오후 두 시예요.",
	}
	vs, err := emb.Embed(ctx, facts)
	if err != nil {
		t.Fatal(err)
	}
	crowded := 0
	for i := range vs {
		for j := range i {
			if index.Cosine(vs[i], vs[j]) >= 0.92 {
				crowded++
			}
		}
	}
	if crowded == 0 {
		t.Fatal("no two facts reach 0.92 under the 3-dimensional hashed embedder: the test shows nothing")
	}
	cal, err := capture.CalibrateDedupe(ctx, emb, 0.92)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("3-d hashed: %d of %d fact pairs ≥ 0.92; calibrated threshold %.3f (near misses max %.3f, restatements median %.3f)",
		crowded, len(vs)*(len(vs)-1)/2, cal.Threshold, cal.Distinct[len(cal.Distinct)-1], cal.Duplicates[len(cal.Duplicates)/2])
	if cal.Threshold <= cal.Distinct[len(cal.Distinct)-1] {
		t.Fatalf("threshold %.3f not above the near misses' %.3f", cal.Threshold, cal.Distinct[len(cal.Distinct)-1])
	}

	db := openCaptureEngine(t, nil).Store()
	e, err := engine.Open(ctx, engine.Options{Store: db, Embedder: emb, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []engine.Message
	for i, f := range facts {
		msgs = append(msgs, engine.Message{ID: fmt.Sprintf("crowd-%02d", i), Session: "s1", Role: "user", Text: f, At: testNow})
	}
	rs, err := capture.CaptureBatch(ctx, e, msgs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Outcome == engine.OutcomeReinforced {
			t.Errorf("%s reinforced another memory: %+v", r.MessageID, r.Trail)
		}
	}
}

// An embedder that scores different facts as one (the hashed embedder at
// 2 dimensions) dedupes by content only: no cosine reinforces.
func TestDegenerateEmbedderDedupesByContentOnly(t *testing.T) {
	cal, err := capture.CalibrateDedupe(context.Background(), engine.NewHashed(2), 0.92)
	if err != nil {
		t.Fatal(err)
	}
	if !cal.VectorOff || cal.Threshold <= 1 {
		t.Fatalf("2-d hashed: %+v, want the vector dedupe off", cal)
	}
}
