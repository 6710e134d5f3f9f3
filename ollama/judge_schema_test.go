package ollama

import (
	"strings"
	"testing"
)

func TestValidateAnswer(t *testing.T) {
	ok := `{"store":true,"kind":"fact","type":"preference","importance":70,"reason":"r"}`
	for _, tc := range []struct{ answer, wantErr string }{
		{ok, ""},
		{`{"store":false,"kind":"episode","type":"note","importance":0,"reason":""}`, ""},
		{`{"store":"yes","kind":"fact","type":"note","importance":50,"reason":"r"}`, "store: want true or false"},
		{`{"store":true,"kind":"event","type":"note","importance":50,"reason":"r"}`, `"event" is not one of fact, episode`},
		{`{"store":true,"kind":"fact","type":"}","importance":50,"reason":"r"}`, `type: "}" is not one of preference`},
		{`{"store":true,"kind":"fact","type":"","importance":50,"reason":"r"}`, `type: "" is not one of`},
		{`{"store":true,"kind":"fact","type":"note","importance":992.93,"reason":"r"}`, "992.93 is not a whole number"},
		{`{"store":true,"kind":"fact","type":"note","importance":5e5555755555555555,"reason":"r"}`, "not a finite number"},
		{`{"store":true,"kind":"fact","type":"note","importance":0.7,"reason":"r"}`, "0.7 is not a whole number"},
		{`{"store":true,"kind":"fact","type":"note","importance":120,"reason":"r"}`, "above the maximum 100"},
		{`{"store":true,"kind":"fact","type":"note","importance":-1,"reason":"r"}`, "below the minimum 0"},
		{`{"store":true,"kind":"fact","type":"note","importance":"high","reason":"r"}`, "importance: want a number"},
		{`{"store":true,"kind":"fact","type":"note","reason":"r"}`, `missing required field "importance"`},
		{`{"store":true,"kind":"fact","type":"note","importance":50,"reason":"r","extra":1}`, `unexpected field "extra"`},
		{`{"store":true,"kind":"fact","type":"note","importance":50,"reason":"` + strings.Repeat("가", 201) + `"}`, "201 characters, more than the 200"},
		{ok + ` trailing`, "text after the JSON"},
		{"```json\n" + ok + "\n```", "not JSON"},
		{`[1,2]`, "want an object"},
	} {
		_, err := validateAnswer(captureSchema, tc.answer)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tc.answer, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: err = %v, want %q", tc.answer, err, tc.wantErr)
		}
	}
}

// TestValidateAnyOf: retype requires retype_to from the labels other than
// the one under review; a promotion reject may leave scope and wording
// empty, as its prompt says.
func TestValidateAnyOf(t *testing.T) {
	tri := triageSchemaFor("milestone", DefaultTypes)
	for _, tc := range []struct{ answer, wantErr string }{
		{`{"verdict":"keep","reason":"r","confidence":90}`, ""},
		{`{"verdict":"retype","retype_to":"preference","reason":"r","confidence":80}`, ""},
		{`{"verdict":"retype","reason":"r","confidence":80}`, `missing required field "retype_to"`},
		{`{"verdict":"retype","retype_to":"milestone","reason":"r","confidence":80}`, `retype_to: "milestone" is not one of`},
		{`{"verdict":"keep","retype_to":"note","reason":"r","confidence":80}`, `unexpected field "retype_to"`},
		{`{"verdict":"maybe","reason":"r","confidence":80}`, `"maybe" is not one of keep, echo, roleplay_scene`},
		{`{"verdict":"echo","reason":"r","confidence":0.9}`, "not a whole number"},
	} {
		_, err := validateAnswer(tri, tc.answer)
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("triage %s: err = %v, want %q", tc.answer, err, tc.wantErr)
		}
	}
	for _, tc := range []struct{ answer, wantErr string }{
		{`{"verdict":"reject","wording":"","scope":"","reason":"a one-off","confidence":80}`, ""},
		{`{"verdict":"promote","wording":"Run the tests first.","scope":"global","reason":"r","confidence":80}`, ""},
		{`{"verdict":"promote","wording":"","scope":"global","reason":"r","confidence":80}`, "shorter than 1"},
		{`{"verdict":"promote","wording":"w","scope":"project:x","reason":"r","confidence":80}`, `scope: "project:x" is not one of global`},
		{`{"verdict":"keep_warm","wording":"w","scope":"project:memtrace","reason":"r","confidence":80}`, ""},
	} {
		f, err := validateAnswer(promotionSchema, tc.answer)
		if err == nil {
			err = checkPromotion(f)
		}
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("promotion %s: err = %v, want %q", tc.answer, err, tc.wantErr)
		}
	}
}

// TestValidateUpdates: the optional "updates" array names each shown label
// at most once, and no more labels than were shown.
func TestValidateUpdates(t *testing.T) {
	s := captureSchemaWithUpdates(DefaultTypes, []string{"C1", "C2"})
	answer := func(updates string) string {
		return `{"store":true,"kind":"fact","type":"note","importance":50,"updates":` + updates + `,"reason":"r"}`
	}
	for _, tc := range []struct{ updates, wantErr string }{
		{`[]`, ""},
		{`["C2","C1"]`, ""},
		{`["C7"]`, `updates[0]: "C7" is not one of C1, C2`},
		{`["C1","C1"]`, "updates: C1 is listed twice"},
		{`["C1","C2","C1"]`, "updates: 3 items, more than the 2 allowed"},
		{`"C1"`, "updates: want an array, got a string"},
	} {
		_, err := validateAnswer(s, answer(tc.updates))
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr) {
			t.Errorf("updates %s: err = %v, want %q", tc.updates, err, tc.wantErr)
		}
	}
}

// TestValidateMessageIsStable: the library visits properties in map
// order; an answer that breaks several fields is still always reported by
// the first of them by name, so a retry with temperature 0 repeats.
func TestValidateMessageIsStable(t *testing.T) {
	answer := `{"store":"yes","kind":"event","type":"}","importance":150,"reason":"r"}`
	want := `importance: 150 is above the maximum 100`
	for range 50 {
		if _, err := validateAnswer(captureSchema, answer); err == nil || err.Error() != want {
			t.Fatalf("err = %v, want %q every time", err, want)
		}
	}
}
