package golden

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"
)

const locomoPath = "../../shared/data/locomo10.json"

func TestNormalizeEvidence(t *testing.T) {
	for raw, want := range map[string]string{
		"D8:6; D9:17":    "D8:6 D9:17",
		"D:11:26":        "D11:26",
		"D30:05":         "D30:5",
		"D":              "",
		"D9:1 D4:4 D4:6": "D9:1 D4:4 D4:6",
		"D1:3":           "D1:3",
		" D2:14 ":        "D2:14",
		"session 3 turn": "",
	} {
		if got := strings.Join(NormalizeEvidence(raw), " "); got != want {
			t.Errorf("NormalizeEvidence(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestParseLoCoMo(t *testing.T) {
	const doc = `[{"sample_id": "conv-x", "conversation": {
	  "speaker_a": "Caroline", "speaker_b": "Melanie",
	  "session_2_date_time": "10:37 am on 27 June, 2023",
	  "session_2": [{"speaker": "Melanie", "dia_id": "D2:1", "text": "Look!", "blip_caption": "a photo of a lake", "img_url": ["x"]},
	                {"speaker": "Caroline", "dia_id": "D2:05", "text": "Lovely."}],
	  "session_1_date_time": "1:56 pm on 8 May, 2023",
	  "session_1": [{"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel!"}],
	  "session_3_date_time": "2:00 pm on 1 July, 2023"},
	 "qa": [
	  {"question": "Q1?", "answer": 2022, "evidence": ["D1:1; D2:5", "D", "D2:1"], "category": 2},
	  {"question": "Q2?", "adversarial_answer": "no", "evidence": ["D:2:1", "D9:9", "D2:1"], "category": 5},
	  {"question": "Q3?", "answer": "yes", "evidence": [], "category": 3}]}]`
	l, err := ParseLoCoMo(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := l.Conversations[0]
	if c.SampleID != "conv-x" || c.SpeakerA != "Caroline" || len(c.Sessions) != 2 || c.Sessions[0].Number != 1 || c.Sessions[1].Number != 2 {
		t.Fatalf("conversation %+v", c)
	}
	if want := time.Date(2023, 6, 27, 10, 37, 0, 0, time.UTC); !c.Sessions[1].At.Equal(want) {
		t.Fatalf("session 2 at %v", c.Sessions[1].At)
	}
	turns := c.Turns()
	if len(turns) != 3 || turns[1].DiaID != "D2:1" || turns[1].ImageCaption != "a photo of a lake" || turns[2].DiaID != "D2:5" {
		t.Fatalf("turns %+v", turns)
	}
	if TurnDocument(turns[1]) != "Melanie: Look! a photo of a lake" {
		t.Fatalf("document %q", TurnDocument(turns[1]))
	}
	q1, q2, q3 := c.QA[0], c.QA[1], c.QA[2]
	if q1.Answer != "2022" || q1.Category != CategoryTemporal || strings.Join(q1.Evidence, " ") != "D1:1 D2:5 D2:1" {
		t.Fatalf("q1 %+v", q1)
	}
	if q2.AdversarialAnswer != "no" || q2.Answer != "" || q2.Category.String() != "adversarial" || strings.Join(q2.Evidence, " ") != "D2:1" {
		t.Fatalf("q2 %+v", q2)
	}
	if len(q3.Evidence) != 0 || strings.Join(l.DroppedEvidence, " ") != "conv-x:D9:9" {
		t.Fatalf("q3 %+v dropped %v", q3, l.DroppedEvidence)
	}
}

func TestRecallAtK(t *testing.T) {
	r := NewRecallAtK(10, 1)
	r.Add(CategorySingleHop, []string{"D1:1", "D1:2"}, []string{"D1:2", "D5:5", "D1:1"})
	r.Add(CategoryTemporal, []string{"D3:3"}, []string{"D3:3"})
	r.Add(CategoryTemporal, nil, []string{"D3:3"}) // no evidence: not counted
	if r.Questions() != 2 || r.Count(CategoryTemporal) != 1 {
		t.Fatalf("questions %d", r.Questions())
	}
	if r.Category(1, CategorySingleHop) != 0.5 || r.Category(10, CategorySingleHop) != 1 || r.Overall(1) != 0.75 || r.Overall(10) != 1 {
		t.Fatalf("R@1 %v R@10 %v", r.Overall(1), r.Overall(10))
	}
	tab := r.Table()
	if tab["R@1"]["overall"] != 0.75 || tab["R@1"]["single-hop"] != 0.5 || tab["R@1"]["temporal"] != 1 {
		t.Fatalf("table %v", tab)
	}
	if _, ok := tab["R@1"]["multi-hop"]; ok {
		t.Fatal("a category with no questions has no figure")
	}
}

func TestReferenceBM25Rank(t *testing.T) {
	c := &Conversation{Sessions: []Session{{Turns: []Turn{
		{DiaID: "D1:1", Speaker: "Caroline", Text: "I went to the LGBTQ support group yesterday."},
		{DiaID: "D1:2", Speaker: "Melanie", Text: "That is great! What happened at the group?"},
		{DiaID: "D1:3", Speaker: "Melanie", Text: "I painted a lake.", ImageCaption: "a photo of a sunrise over a lake"},
	}}}}
	b := NewReferenceBM25(c)
	if got := strings.Join(b.Rank("When did Caroline go to the LGBTQ support group?", 10), " "); got != "D1:1 D1:2" {
		t.Fatalf("rank %q", got)
	}
	if got := strings.Join(b.Rank("What did Melanie paint? A sunrise", 1), " "); got != "D1:3" {
		t.Fatalf("caption is indexed: %q", got)
	}
	if got := b.Rank("the of and", 10); len(got) != 0 {
		t.Fatalf("stop words only: %v", got)
	}
}

// TestReferenceFigure reproduces the data README's plain BM25 figures.
func TestReferenceFigure(t *testing.T) {
	l := loadLoCoMo(t, "the BM25 reference figures of the data README")
	if len(l.Conversations) != 10 {
		t.Fatalf("%d conversations", len(l.Conversations))
	}
	turns, questions := 0, 0
	for i := range l.Conversations {
		turns += len(l.Conversations[i].Turns())
		questions += len(l.Conversations[i].QA)
	}
	if turns != 5882 || questions != 1986 {
		t.Fatalf("%d turns, %d questions", turns, questions)
	}
	r, err := ReferenceRecall(context.Background(), l, 5, 10, 25, 50)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("questions %d: R@5 %.4f R@10 %.4f R@25 %.4f R@50 %.4f; dropped evidence %v", r.Questions(),
		r.Overall(5), r.Overall(10), r.Overall(25), r.Overall(50), l.DroppedEvidence)
	if q := r.Questions(); q < 1980 || q > 1983 {
		t.Fatalf("%d questions with evidence, README says 1,981", q)
	}
	for k, want := range map[int]float64{5: 0.518, 10: 0.586, 25: 0.668, 50: 0.712} {
		if got := r.Overall(k); math.Abs(got-want) > 0.01 {
			t.Errorf("R@%d = %.4f, README says %.3f (±0.01)", k, got, want)
		}
	}
}

// BenchmarkReferenceOneConversation indexes one LoCoMo conversation and
// ranks all of its questions with the BM25 reference.
func BenchmarkReferenceOneConversation(b *testing.B) {
	l := loadLoCoMo(b, "the BM25 reference's speed")
	c := &l.Conversations[0]
	for b.Loop() {
		idx := NewReferenceBM25(c)
		for _, q := range c.QA {
			idx.Rank(q.Question, 50)
		}
	}
}
