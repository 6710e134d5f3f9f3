package importer

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/locomotest"
)

const locomoSampleJSON = `[{"sample_id":"conv-x","qa":[],"conversation":{
 "speaker_a":"Caroline","speaker_b":"Melanie",
 "session_10_date_time":"10:04 am on 19 December, 2023",
 "session_10":[{"speaker":"Melanie","dia_id":"D10:1","text":"Back again!"}],
 "session_2_date_time":"1:56 pm on 8 May, 2023",
 "session_2":[{"speaker":"Caroline","dia_id":"D2:1","text":"Hey Mel!"},
              {"speaker":"Melanie","dia_id":"D2:2","text":"Look at this.","img_url":["http://x"],"blip_caption":"a photo of a dog on a beach"}]}}]`

func TestReadLoCoMo(t *testing.T) {
	var ms []engine.Message
	if err := ReadLoCoMo(strings.NewReader(locomoSampleJSON), func(m engine.Message) error {
		ms = append(ms, m)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(ms) != 3 {
		t.Fatalf("%d messages", len(ms))
	}
	want := []engine.Message{
		{ID: "conv-x:D2:1", Session: "conv-x:session_2", Role: "Caroline", Text: "Hey Mel!", At: time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)},
		{ID: "conv-x:D2:2", Session: "conv-x:session_2", Role: "Melanie", Text: "Look at this. [image: a photo of a dog on a beach]", At: time.Date(2023, 5, 8, 13, 56, 1, 0, time.UTC)},
		{ID: "conv-x:D10:1", Session: "conv-x:session_10", Role: "Melanie", Text: "Back again!", At: time.Date(2023, 12, 19, 10, 4, 0, 0, time.UTC)},
	}
	for i := range want {
		if ms[i].ID != want[i].ID || ms[i].Session != want[i].Session || ms[i].Role != want[i].Role ||
			ms[i].Text != want[i].Text || !ms[i].At.Equal(want[i].At) {
			t.Errorf("message %d = %+v, want %+v", i, ms[i], want[i])
		}
	}
}

func TestReadLoCoMoRejects(t *testing.T) {
	for name, in := range map[string]string{
		"not json":  `{`,
		"object":    `{"sample_id":"x"}`,
		"no sample": `[{"conversation":{}}]`,
		"bad date":  `[{"sample_id":"x","conversation":{"session_1_date_time":"May 8","session_1":[]}}]`,
		"no dia_id": `[{"sample_id":"x","conversation":{"session_1_date_time":"1:56 pm on 8 May, 2023","session_1":[{"speaker":"a","text":"b"}]}}]`,
	} {
		err := ReadLoCoMo(strings.NewReader(in), func(engine.Message) error { return nil })
		if engine.ErrorCode(err) != engine.EINVALID {
			t.Errorf("%s: err %v, want an invalid-input error", name, err)
		}
	}
}

func TestParseLoCoMoTime(t *testing.T) {
	for in, want := range map[string]time.Time{
		"1:56 pm on 8 May, 2023":         time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC),
		"12:09 am on 13 September, 2023": time.Date(2023, 9, 13, 0, 9, 0, 0, time.UTC),
		"10:04 AM on 19 December, 2023":  time.Date(2023, 12, 19, 10, 4, 0, 0, time.UTC),
	} {
		got, err := ParseLoCoMoTime(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
}

// TestReadLoCoMoFile reads the real benchmark file when it is present.
func TestReadLoCoMoFile(t *testing.T) {
	const path = "../../shared/data/locomo10.json"
	locomotest.Require(t, path, "the LoCoMo reader on the real file")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := map[string]bool{}
	var first engine.Message
	if err := ReadLoCoMo(f, func(m engine.Message) error {
		if len(ids) == 0 {
			first = m
		}
		if ids[m.ID] {
			t.Fatalf("duplicate id %s", m.ID)
		}
		ids[m.ID] = true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(ids) != 5882 {
		t.Fatalf("%d turns, want 5882", len(ids))
	}
	if first.ID != "conv-26:D1:1" || first.Session != "conv-26:session_1" || first.Role != "Caroline" ||
		!first.At.Equal(time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)) {
		t.Fatalf("first turn %+v", first)
	}
}

// ReadLoCoMo is ReadLoCoMoLenient that fails on the first bad item, for
// the tests that need every turn.
func ReadLoCoMo(r io.Reader, fn func(m engine.Message) error) error {
	problems, err := ReadLoCoMoLenient(r, fn)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return engine.Errorf(engine.EINVALID, "%s", problems[0])
	}
	return nil
}
