package capture

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"memtrace/engine"
)

// Cases of my own, not from the held-out set: each speech act in both
// languages, and the statements that must survive around them.
func TestReadActs(t *testing.T) {
	for _, c := range []struct {
		text string
		said bool // at least one statement
	}{
		{"which terminal font do people use for ligatures", false},
		{"서울에서 부산까지 KTX 몇 시간 걸려?", false},
		{"do you know a good ramen place near Hongdae", false},
		{"convert this CSV to a markdown table please", false},
		{"이 에러 메시지 무슨 뜻인지 설명해줘", false},
		{"cheers, all sorted now", false},
		{"잘 자~ 내일 봐", false},
		{"what if I quit and opened a cafe", false},
		{"만일 내가 고양이라면 하루종일 잘 거야", false},
		{"```sql\nSELECT * FROM users;\n```", false},
		{"can you review it?\n- step one: build\n- step two: test\n- step three: deploy", false},
		{"I moved to Incheon last spring and I work from home now.", true},
		{"우리 할머니는 여수에 사셔", true},
		{"My blood type is O, in case you ever help me fill in a form.", true},
		{"keep commit subjects under 50 characters from now on", true},
		{"답장할 때 항상 존댓말 써줘", true},
		{"I can't eat gluten. anyway, can you suggest a bakery?", true},
	} {
		acts := readActs(c.text)
		if got := statementText(acts) != ""; got != c.said {
			t.Errorf("%q: statement %v, want %v (acts %+v)", c.text, got, c.said, acts)
		}
	}
}

// No gated type's similarity half may be void: every exemplar centroid's
// leave-one-out reference is clear of the floor, in both scripts.
func TestGateCentroidsNotVoid(t *testing.T) {
	cs, err := GateCalibration(context.Background(), engine.NewHashed(engine.HashedDim))
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2*len(declarationTypes()) {
		t.Fatalf("%d centroids, want one per type and script: %+v", len(cs), cs)
	}
	for _, c := range cs {
		t.Logf("%s/%s: %d exemplars, reference %.3f, keeps %d, stops %d of %d plain at %.2f", c.Type, c.Script, c.Exemplars, c.Reference, c.Kept, c.Stopped, c.PlainN, c.Threshold)
		if c.Reference < 2*minReference {
			t.Errorf("%s/%s reference %.3f is near the floor %.2f", c.Type, c.Script, c.Reference, minReference)
		}
		// Clear of the floor is not enough: at its threshold the half
		// must keep most exemplars it has not seen and stop most plain
		// statements, or it decides nothing the keyword did not.
		if c.Exemplars < 3 {
			t.Errorf("%s/%s: %d exemplars, a leave-one-out reference needs 3", c.Type, c.Script, c.Exemplars)
		}
		if 2*c.Kept <= c.Exemplars || 2*c.Stopped <= c.PlainN {
			t.Errorf("%s/%s similarity half void: keeps %d of %d held-out exemplars, stops %d of %d plain statements at %.2f", c.Type, c.Script, c.Kept, c.Exemplars, c.Stopped, c.PlainN, c.Threshold)
		}
	}
}

func TestGateKeywordReading(t *testing.T) {
	for _, c := range []struct {
		text, kw string
		unit     bool
	}{
		{"the taxi was 12,500 won", "won", true},
		{"we won 3 0 at the derby", "won", false},
		{"택시비 8000 완주", "완주", true},
	} {
		if got := unitAfterNumber(lexNorm(c.text), c.kw); got != c.unit {
			t.Errorf("%q: unit %v, want %v", c.text, got, c.unit)
		}
	}
	for text, lasting := range map[string]bool{
		"여자친구랑 2년째 연애 중":                   true,
		"we've been married for ten years": true,
		"we got married in May":            false,
	} {
		if got := ongoingState.MatchString(lexNorm(text)); got != lasting {
			t.Errorf("%q: lasting %v, want %v", text, got, lasting)
		}
	}
}

func TestKindOfConditions(t *testing.T) {
	for _, text := range []string{"Got diagnosed with asthma last week", "어릴 때부터 고소공포증 있어", "I'm scared of deep water since I nearly drowned"} {
		if k := kindOf("note", text, lexNorm(text)); k != engine.KindFact {
			t.Errorf("%q: kind %s, want fact", text, k)
		}
	}
}

func TestBoundedContent(t *testing.T) {
	long := strings.Repeat("My notes from the offsite were long and detailed. ", 200)
	got := boundedContent(long)
	if n := utf8.RuneCountInString(got); n > MaxMemoryRunes || !strings.HasSuffix(got, " …") {
		t.Errorf("bounded content has %d runes (max %d): %q…", n, MaxMemoryRunes, got[:40])
	}
	if short := "I live in Suwon."; boundedContent(short) != short {
		t.Errorf("a short message changed: %q", boundedContent(short))
	}
}
