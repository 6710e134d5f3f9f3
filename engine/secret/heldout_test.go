package secret

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// heldoutCase is one line of testdata/heldout/secrets/cases.jsonl, written
// by someone who had not read this package: Secret is the exact substring
// that must never be stored, "" for a look-alike that must stay as it is.
type heldoutCase struct {
	ID     string  `json:"id"`
	Lang   string  `json:"lang"`
	Text   string  `json:"text"`
	Secret *string `json:"secret"`
	Kind   *string `json:"kind"`
}

// The held-out floors: what the table reaches on the set, so that a change
// that loses a case fails here. README.md states the figures.
const (
	heldoutPositiveFloor = 52 // of 52
	heldoutNegativeFloor = 44 // of 44
)

func TestHeldoutSecrets(t *testing.T) {
	f, err := os.Open("../../testdata/heldout/secrets/cases.jsonl")
	if err != nil {
		t.Fatalf("the held-out secrets set is part of the repository: %v", err)
	}
	defer f.Close()
	var pos, posOK, neg, negOK int
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		var c heldoutCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("case %q: %v", sc.Text(), err)
		}
		out := Redact(c.Text).Text
		if c.Secret == nil {
			neg++
			if out == c.Text {
				negOK++
			} else {
				t.Logf("false redaction %s (%s): %q → %q", c.ID, c.Lang, c.Text, out)
			}
			continue
		}
		pos++
		if leak := leaked(out, *c.Secret); leak == "" {
			posOK++
		} else {
			t.Logf("missed %s (%s, %s): %q → %q keeps %q", c.ID, c.Lang, *c.Kind, c.Text, out, leak)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out secrets: positives %d/%d redacted, negatives %d/%d untouched", posOK, pos, negOK, neg)
	if posOK < heldoutPositiveFloor || negOK < heldoutNegativeFloor {
		t.Errorf("held-out secrets: positives %d/%d (floor %d), negatives %d/%d (floor %d)", posOK, pos, heldoutPositiveFloor, negOK, neg, heldoutNegativeFloor)
	}
}

// leaked is a piece of secret still in out: the secret itself, or any run
// of 6 of its bytes (a value cut in half is still a leak), placeholders
// left aside; "" when none.
func leaked(out, secret string) string {
	out = placeholderRe.ReplaceAllString(out, "")
	n := min(6, len(secret))
	for i := 0; i+n <= len(secret); i++ {
		if strings.Contains(out, secret[i:i+n]) {
			return secret[i : i+n]
		}
	}
	return ""
}
