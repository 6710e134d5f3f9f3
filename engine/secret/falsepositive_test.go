package secret

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// No false redaction on the demo conversation and the LoCoMo set: neither
// holds a secret, so every text comes out as it went in (0 placeholders).
func TestNoRedactionOnDemoAndLoCoMo(t *testing.T) {
	t.Run("Demo", func(t *testing.T) {
		f, err := os.Open("../../testdata/demo.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		n := 0
		for sc.Scan() {
			var m struct{ Text string }
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatal(err)
			}
			n++
			if r := Redact(m.Text); len(r.Findings) > 0 {
				t.Errorf("demo text redacted (%v): %q → %q", r.Names(), m.Text, r.Text)
			}
		}
		if n < 100 {
			t.Fatalf("read %d demo messages; the demo has more", n)
		}
	})
	t.Run("LoCoMo", func(t *testing.T) {
		data, err := os.ReadFile("../../../shared/data/locomo10.json")
		if os.IsNotExist(err) {
			t.Skip("LOUD SKIP: ../shared/data/locomo10.json is not on this machine; the LoCoMo false-positive count did not run")
		} else if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		n, hits := 0, 0
		var walk func(any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				n++
				if r := Redact(x); len(r.Findings) > 0 {
					hits++
					t.Errorf("LoCoMo text redacted (%v): %q → %q", r.Names(), x, r.Text)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		walk(v)
		t.Logf("LoCoMo: %d strings, %d redacted", n, hits)
		if n < 5000 {
			t.Fatalf("read %d LoCoMo strings; the set has more", n)
		}
	})
}
