package importer

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// LoCoMoTimeLayout is the layout of LoCoMo's session_N_date_time values,
// e.g. "1:56 pm on 8 May, 2023".
const LoCoMoTimeLayout = "3:04 pm on 2 January, 2006"

// locomoSample is one conversation of locomo10.json. Only the conversation
// is read; the QA and summaries belong to the benchmark.
type locomoSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
}

type locomoTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

// ParseLoCoMoTime parses a LoCoMo session date ("1:56 pm on 8 May, 2023")
// as UTC.
func ParseLoCoMoTime(s string) (time.Time, error) {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.Replace(strings.Replace(s, " AM ", " am ", 1), " PM ", " pm ", 1)
	t, err := time.Parse(LoCoMoTimeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("session date %q is not like %q", s, "1:56 pm on 8 May, 2023")
	}
	return t, nil
}

// ReadLoCoMoLenient reads a LoCoMo file (a JSON array of conversations, the
// format of locomo10.json) and calls fn for every turn, conversation by
// conversation and session by session in number order:
//
//   - id "<sample_id>:<dia_id>" (e.g. "conv-26:D1:3"), the key the benchmark
//     names evidence by;
//   - session "<sample_id>:session_N";
//   - role = the speaker's name;
//   - text = the turn's text, followed by "[image: <caption>]" when the
//     speaker shared an image;
//   - at = the session's date plus one second per turn, so the order of the
//     turns survives sorting by time.
//
// Whether the turns bypass the noise filter is the caller's decision. A
// conversation, a
// session or a turn that cannot be read is listed in problems, by sample,
// session and turn, and the rest is read: an import never stops half-way
// without saying where. Only a file that is not a LoCoMo array at all, or
// an error of fn, ends it.
func ReadLoCoMoLenient(r io.Reader, fn func(m engine.Message) error) (problems []string, err error) {
	var samples []locomoSample
	if err := json.NewDecoder(r).Decode(&samples); err != nil {
		return nil, engine.Errorf(engine.EINVALID, "not a LoCoMo file (a JSON array of conversations like locomo10.json): %s", capture.JSONProblem(err))
	}
	for i, s := range samples {
		if s.SampleID == "" {
			problems = append(problems, fmt.Sprintf("conversation %d has no sample_id; skipped", i+1))
			continue
		}
		for _, n := range sessionNumbers(s.Conversation) {
			name := "session_" + strconv.Itoa(n)
			var turns []locomoTurn
			if err := json.Unmarshal(s.Conversation[name], &turns); err != nil {
				problems = append(problems, fmt.Sprintf("%s %s: %s; session skipped", s.SampleID, name, capture.JSONProblem(err)))
				continue
			}
			var date string
			if raw, ok := s.Conversation[name+"_date_time"]; ok {
				if err := json.Unmarshal(raw, &date); err != nil {
					problems = append(problems, fmt.Sprintf("%s %s_date_time: %s; session skipped", s.SampleID, name, capture.JSONProblem(err)))
					continue
				}
			}
			at, err := ParseLoCoMoTime(date)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s %s: %s; session skipped", s.SampleID, name, engine.ErrorMessage(err)))
				continue
			}
			for j, t := range turns {
				if t.DiaID == "" {
					problems = append(problems, fmt.Sprintf("%s %s turn %d has no dia_id; turn skipped", s.SampleID, name, j+1))
					continue
				}
				text := t.Text
				if c := strings.TrimSpace(t.BlipCaption); c != "" {
					text = strings.TrimSpace(text + " [image: " + c + "]")
				}
				m := engine.Message{
					ID:      s.SampleID + ":" + t.DiaID,
					Session: s.SampleID + ":" + name,
					Role:    t.Speaker,
					Text:    text,
					At:      at.Add(time.Duration(j) * time.Second),
				}
				if err := fn(m); err != nil {
					return problems, err
				}
			}
		}
	}
	return problems, nil
}

// sessionNumbers lists N for every "session_N" list in a conversation,
// ascending.
func sessionNumbers(conv map[string]json.RawMessage) []int {
	var ns []int
	for k := range conv {
		rest, ok := strings.CutPrefix(k, "session_")
		if !ok {
			continue
		}
		if n, err := strconv.Atoi(rest); err == nil {
			ns = append(ns, n)
		}
	}
	sort.Ints(ns)
	return ns
}
