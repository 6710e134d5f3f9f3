package capture

import (
	"encoding/json"
	"strings"
	"testing"
)

// An imported memory's metadata loses its secret values like its text: a
// string that holds one, and a value its key names, at any depth, in
// English and Korean; ordinary fields stay as they were.
func TestRedactFields(t *testing.T) {
	var meta map[string]any
	if err := json.Unmarshal([]byte(`{"source": "agent-v1", "token_count": "120", "password": "hunter2hunter2",
		"nested": {"db": "postgres://app:s3cr3t-pw@db.internal/app", "비밀번호": "sunflower77"},
		"notes": ["call Mina on Monday", "api_key=9f8e7d6c5b4a3f2e1d0c"], "n": 3}`), &meta); err != nil {
		t.Fatal(err)
	}
	redactFields("", meta)
	b, _ := json.Marshal(meta)
	out := string(b)
	for _, v := range []string{"hunter2hunter2", "s3cr3t-pw", "sunflower77", "9f8e7d6c5b4a3f2e1d0c"} {
		if strings.Contains(out, v) {
			t.Errorf("metadata keeps %q: %s", v, out)
		}
	}
	for _, v := range []string{`"source":"agent-v1"`, `"token_count":"120"`, `"call Mina on Monday"`, `"n":3`, `"password":"[secret:password]"`} {
		if !strings.Contains(out, v) {
			t.Errorf("metadata lost %s: %s", v, out)
		}
	}
}
