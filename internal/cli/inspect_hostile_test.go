package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// hostileText holds a bidi override, a C1 CSI and a raw ESC sequence.
const hostileText = "Deploy key rotated \u202eyadot\u202c; run \u009b2J and \x1b]0;pwned\x07 after the green tea check"

// inert reports the first rune of out that would act on a terminal.
func inertJSON(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		if (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x1b || r == 0x07 {
			t.Fatalf("%s writes raw %U to stdout", what, r)
		}
	}
}

// --json output carries hostile memory text as escapes: the bytes are inert
// and the document decodes to the text as stored.
func TestJSONOutputsAreTerminalSafe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	if code, _, errOut := runMemtrace(t, "", "--db", db, "add", "--kind", "fact", "--type", "note", "--key", "evil", hostileText); code != 0 {
		t.Fatalf("add: %s", errOut)
	}
	for _, args := range [][]string{{"list", "--json"}, {"show", "key:evil", "--json"}, {"recall", "green tea check", "--json"}} {
		code, out, errOut := runMemtrace(t, "", append([]string{"--db", db}, args...)...)
		if code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
		inertJSON(t, strings.Join(args, " "), out)
		if !strings.Contains(out, `\u202e`) || !strings.Contains(out, `\u009b`) {
			t.Errorf("%v does not carry the controls as escapes:\n%s", args, out)
		}
		var doc any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v is not JSON: %v", args, err)
		}
		if b, _ := json.Marshal(doc); !strings.Contains(string(b), "yadot") {
			t.Fatalf("%v lost the text", args)
		}
	}
	code, out, _ := runMemtrace(t, "", "--db", db, "list", "--json")
	var l struct{ Memories []struct{ Content string } }
	if code != 0 || json.Unmarshal([]byte(out), &l) != nil || len(l.Memories) != 1 || l.Memories[0].Content != hostileText {
		t.Fatalf("list --json does not decode to the stored text: %q", out)
	}
}
