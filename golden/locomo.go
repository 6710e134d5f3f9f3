package golden

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// LoCoMo is the long-conversation memory benchmark (Maharana et al. 2024):
// conversations of many dated sessions, and questions whose evidence is
// the dialogue turns that answer them.
type LoCoMo struct {
	Conversations []Conversation
	// DroppedEvidence lists evidence references that name no turn of their
	// conversation (after normalising), as "sample_id:ref".
	DroppedEvidence []string
}

// Conversation is one LoCoMo sample.
type Conversation struct {
	SampleID string
	SpeakerA string
	SpeakerB string
	Sessions []Session
	QA       []QA
}

// Session is one dated sitting of a conversation.
type Session struct {
	Number   int
	DateTime string    // as written, e.g. "1:56 pm on 8 May, 2023"
	At       time.Time // DateTime parsed (UTC); zero when it does not parse
	Turns    []Turn
}

// Turn is one utterance.
type Turn struct {
	DiaID        string // "D<session>:<turn>"
	Speaker      string
	Text         string
	ImageCaption string // the BLIP caption of a shared image, if any
}

// Category is a LoCoMo question category.
type Category int

// The LoCoMo categories as numbered in the data.
const (
	CategoryMultiHop    Category = 1
	CategoryTemporal    Category = 2
	CategoryOpenDomain  Category = 3
	CategorySingleHop   Category = 4
	CategoryAdversarial Category = 5
)

// Categories lists the categories in order.
var Categories = [...]Category{CategoryMultiHop, CategoryTemporal, CategoryOpenDomain, CategorySingleHop, CategoryAdversarial}

func (c Category) String() string {
	switch c {
	case CategoryMultiHop:
		return "multi-hop"
	case CategoryTemporal:
		return "temporal"
	case CategoryOpenDomain:
		return "open-domain"
	case CategorySingleHop:
		return "single-hop"
	case CategoryAdversarial:
		return "adversarial"
	}
	return "category-" + strconv.Itoa(int(c))
}

// QA is one question.
type QA struct {
	Question string
	Answer   string // "" for adversarial questions, which carry AdversarialAnswer
	// AdversarialAnswer is the plausible wrong answer of category 5.
	AdversarialAnswer string
	// Evidence are the normalised dia_ids of the answering turns that exist
	// in the conversation, in order, without repeats.
	Evidence []string
	Category Category
}

// LoadLoCoMo reads locomo10.json.
func LoadLoCoMo(path string) (*LoCoMo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open LoCoMo: %w", err)
	}
	defer f.Close()
	l, err := ParseLoCoMo(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

type rawSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []struct {
		Question          string          `json:"question"`
		Answer            json.RawMessage `json:"answer"`
		AdversarialAnswer json.RawMessage `json:"adversarial_answer"`
		Evidence          []string        `json:"evidence"`
		Category          int             `json:"category"`
	} `json:"qa"`
}

type rawTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

// sessionLayout is how LoCoMo writes session times.
const sessionLayout = "3:04 pm on 2 January, 2006"

// ParseLoCoMo decodes the LoCoMo JSON.
func ParseLoCoMo(r io.Reader) (*LoCoMo, error) {
	var raw []rawSample
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("not LoCoMo JSON (a list of samples): %w", err)
	}
	l := &LoCoMo{}
	for _, rs := range raw {
		c := Conversation{SampleID: rs.SampleID}
		_ = json.Unmarshal(rs.Conversation["speaker_a"], &c.SpeakerA)
		_ = json.Unmarshal(rs.Conversation["speaker_b"], &c.SpeakerB)
		var numbers []int
		for k := range rs.Conversation {
			if m := sessionKey.FindStringSubmatch(k); m != nil {
				n, _ := strconv.Atoi(m[1])
				numbers = append(numbers, n)
			}
		}
		sort.Ints(numbers)
		turnIDs := map[string]bool{}
		for _, n := range numbers {
			s := Session{Number: n}
			var turns []rawTurn
			if err := json.Unmarshal(rs.Conversation[fmt.Sprintf("session_%d", n)], &turns); err != nil {
				return nil, fmt.Errorf("%s session %d: %w", rs.SampleID, n, err)
			}
			_ = json.Unmarshal(rs.Conversation[fmt.Sprintf("session_%d_date_time", n)], &s.DateTime)
			if t, err := time.Parse(sessionLayout, s.DateTime); err == nil {
				s.At = t
			}
			for _, t := range turns {
				id := normalizeDiaID(t.DiaID)
				turnIDs[id] = true
				s.Turns = append(s.Turns, Turn{DiaID: id, Speaker: t.Speaker, Text: t.Text, ImageCaption: t.BlipCaption})
			}
			c.Sessions = append(c.Sessions, s)
		}
		for _, q := range rs.QA {
			qa := QA{Question: q.Question, Answer: rawText(q.Answer), AdversarialAnswer: rawText(q.AdversarialAnswer), Category: Category(q.Category)}
			seen := map[string]bool{}
			for _, ev := range q.Evidence {
				for _, id := range NormalizeEvidence(ev) {
					switch {
					case !turnIDs[id]:
						l.DroppedEvidence = append(l.DroppedEvidence, rs.SampleID+":"+id)
					case !seen[id]:
						seen[id] = true
						qa.Evidence = append(qa.Evidence, id)
					}
				}
			}
			c.QA = append(c.QA, qa)
		}
		l.Conversations = append(l.Conversations, c)
	}
	return l, nil
}

// rawText renders a JSON answer (a string, a number, or null) as text.
func rawText(m json.RawMessage) string {
	var s string
	if json.Unmarshal(m, &s) == nil {
		return s
	}
	if len(m) == 0 || string(m) == "null" {
		return ""
	}
	return string(m)
}

var diaID = regexp.MustCompile(`^D:?(\d+):(\d+)$`)

// NormalizeEvidence splits one raw evidence entry into dia_ids and repairs
// the known slips of the data: "D8:6; D9:17" and "D9:1 D4:4" hold several
// ids, "D:11:26" is D11:26, "D30:05" is D30:5, and a bare "D" (or anything
// else that is not an id) is dropped.
func NormalizeEvidence(raw string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(raw, func(r rune) bool { return r == ';' || r == ',' || r == ' ' || r == '\t' }) {
		if id := normalizeDiaID(part); id != "" {
			out = append(out, id)
		}
	}
	return out
}

func normalizeDiaID(s string) string {
	m := diaID.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return ""
	}
	session, err1 := strconv.Atoi(m[1])
	turn, err2 := strconv.Atoi(m[2])
	if err1 != nil || err2 != nil {
		return ""
	}
	return fmt.Sprintf("D%d:%d", session, turn)
}

// Turns returns every turn of the conversation in order.
func (c *Conversation) Turns() []Turn {
	var out []Turn
	for _, s := range c.Sessions {
		out = append(out, s.Turns...)
	}
	return out
}

// RecallAtK accumulates turn-level recall@k of ranked dia_ids against
// evidence, per category and overall. A question's recall@k is the fraction
// of its evidence turns found in the top k; figures are means over
// questions (a fraction 0..1).
type RecallAtK struct {
	ks     []int
	sums   map[int]map[Category]float64
	counts map[Category]int
}

// NewRecallAtK returns an accumulator for the given cut-offs.
func NewRecallAtK(ks ...int) *RecallAtK {
	r := &RecallAtK{ks: append([]int(nil), ks...), sums: map[int]map[Category]float64{}, counts: map[Category]int{}}
	sort.Ints(r.ks)
	for _, k := range r.ks {
		r.sums[k] = map[Category]float64{}
	}
	return r
}

// Add scores one question; questions without evidence are not counted.
func (r *RecallAtK) Add(cat Category, evidence, ranked []string) {
	if len(evidence) == 0 {
		return
	}
	r.counts[cat]++
	rank := make(map[string]int, len(ranked))
	for i, id := range ranked {
		if _, dup := rank[id]; !dup {
			rank[id] = i
		}
	}
	for _, k := range r.ks {
		found := 0
		for _, e := range evidence {
			if i, ok := rank[e]; ok && i < k {
				found++
			}
		}
		r.sums[k][cat] += float64(found) / float64(len(evidence))
	}
}

// Questions is how many questions were scored.
func (r *RecallAtK) Questions() int {
	n := 0
	for _, c := range r.counts {
		n += c
	}
	return n
}

// Ks returns the cut-offs, ascending.
func (r *RecallAtK) Ks() []int { return append([]int(nil), r.ks...) }

// Overall is the mean recall@k over every question.
func (r *RecallAtK) Overall(k int) float64 {
	var sum float64
	for _, s := range r.sums[k] {
		sum += s
	}
	if n := r.Questions(); n > 0 {
		return sum / float64(n)
	}
	return 0
}

// Category is the mean recall@k over one category's questions.
func (r *RecallAtK) Category(k int, c Category) float64 {
	if r.counts[c] == 0 {
		return 0
	}
	return r.sums[k][c] / float64(r.counts[c])
}

// Count is how many questions of a category were scored.
func (r *RecallAtK) Count(c Category) int { return r.counts[c] }

// Table is the `bench locomo --json` shape of one system:
// {"R@10": {"overall": x, "single-hop": x, …}, …}, rounded to 4 places.
func (r *RecallAtK) Table() map[string]map[string]float64 {
	out := make(map[string]map[string]float64, len(r.ks))
	for _, k := range r.ks {
		row := map[string]float64{"overall": round4(r.Overall(k))}
		for _, c := range Categories {
			if r.counts[c] > 0 {
				row[c.String()] = round4(r.Category(k, c))
			}
		}
		out["R@"+strconv.Itoa(k)] = row
	}
	return out
}

func round4(x float64) float64 { return float64(int64(x*1e4+0.5)) / 1e4 }
