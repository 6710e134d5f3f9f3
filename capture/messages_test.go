package capture

import (
	"errors"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
)

func TestReadMessages(t *testing.T) {
	big := strings.Repeat("가나다라 abc ", 10<<20/14)
	input := strings.Join([]string{
		`{"id":"m1","session":"s1","role":"user","text":"first","at":"2026-03-01T09:00:00+09:00"}`,
		`{"id":"m2","session":"s1","role":"user","text":"no time"}`,
		`not json at all`,
		``,
		`{"id":"m3","session":"s1","role":"assistant","text":"` + big + `","at":1772323200}`,
		"{\"id\":\"m4\",\"session\":\"s1\",\"role\":\"user\",\"text\":\"bad \xff byte\",\"at\":1772323200.5}",
		"{\"id\":\"m5\",\"session\":\"s1\",\"role\":\"user\",\"text\":\"nul\\u0000 in text\",\"at\":\"2026-03-01T00:00:00Z\"}\r",
		`{"id":"m6","session":"s1","role":"robot","text":"x","at":"2026-03-01T00:00:00Z"}`,
		`{"id":"m7","session":"s1","role":"user","text":"x","at":"yesterday"}`,
		`{"id":8,"session":"s2","role":"tool","text":"last line without newline","at":"2026-03-02T00:00:00Z"}`,
	}, "\n")
	var got []engine.Message
	var lines []int
	errs, err := ReadMessages(strings.NewReader(input), func(line int, m engine.Message) error {
		got = append(got, m)
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, m := range got {
		ids = append(ids, m.ID)
	}
	if strings.Join(ids, ",") != "m1,m4,m5,8" {
		t.Fatalf("read ids %v", ids)
	}
	if want := []int{1, 6, 7, 10}; len(lines) != 4 || lines[1] != want[1] || lines[3] != want[3] {
		t.Fatalf("line numbers %v, want %v", lines, want)
	}
	if !got[0].At.Equal(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) || got[0].At.Location() != time.UTC {
		t.Errorf("RFC 3339 with offset: %v", got[0].At)
	}
	// The 10 MB line is read whole, and refused by its number: no
	// message over engine.MaxTextChars becomes a memory.
	if got[1].At.UnixMilli() != 1772323200500 || !strings.Contains(got[1].Text, "\uFFFD") {
		t.Errorf("unix seconds / UTF-8 repair: %v %q", got[1].At, got[1].Text)
	}
	if got[2].Text != "nul in text" {
		t.Errorf("NUL not removed: %q", got[2].Text)
	}
	want := map[int]string{2: `missing "at"`, 3: "not a JSON object", 5: "at most 20000 are taken", 6: "invalid UTF-8", 7: `\u0000 removed`, 8: `role "robot"`, 9: `"at" "yesterday"`}
	for _, le := range errs {
		w, ok := want[le.Line]
		if !ok || !strings.Contains(le.Error, w) {
			t.Errorf("unexpected %s", le)
		}
		delete(want, le.Line)
		if !strings.HasPrefix(le.String(), "line ") {
			t.Errorf("String() = %q", le.String())
		}
	}
	if len(want) > 0 {
		t.Errorf("not reported: %v", want)
	}
}

func TestReadMessagesStopsOnCallbackError(t *testing.T) {
	boom := errors.New("disk full")
	in := `{"session":"s","role":"user","text":"a","at":1}` + "\n" + `{"session":"s","role":"user","text":"b","at":2}`
	n := 0
	_, err := ReadMessages(strings.NewReader(in), func(int, engine.Message) error { n++; return boom })
	if !errors.Is(err, boom) || n != 1 {
		t.Fatalf("err %v after %d calls", err, n)
	}
}

func FuzzReadMessages(f *testing.F) {
	f.Add([]byte(`{"id":"m1","session":"s1","role":"user","text":"hi","at":"2026-03-01T09:00:00Z"}` + "\n{bad\n"))
	f.Add([]byte("{\"session\":\"s\",\"role\":\"tool\",\"text\":\"\xff\x00\",\"at\":12}\r\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := strings.Count(string(data), "\n") + 1
		seen := map[int]bool{}
		errs, err := ReadMessages(strings.NewReader(string(data)), func(line int, m engine.Message) error {
			if line < 1 || line > lines || seen[line] {
				t.Fatalf("bad line number %d", line)
			}
			seen[line] = true
			if m.Session == "" || m.Role == "" || m.At.IsZero() && m.At.Location() != time.UTC {
				t.Fatalf("invalid message accepted: %+v", m)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, le := range errs {
			if le.Line < 1 || le.Line > lines || le.Error == "" {
				t.Fatalf("bad line error %+v", le)
			}
		}
	})
}
