package secret

import (
	"strings"
	"testing"
)

// Every row of the table redacts its own example, by its own name, and
// leaves no byte of the value (the example's text minus the placeholder).
func TestPatternExamples(t *testing.T) {
	for _, p := range Patterns {
		r := Redact(p.Example)
		if len(r.Findings) == 0 {
			t.Errorf("%s: example %q not redacted", p.Name, p.Example)
			continue
		}
		if r.Findings[0].Pattern != p.Name {
			t.Errorf("%s: example %q found as %s", p.Name, p.Example, r.Findings[0].Pattern)
		}
		value := p.Example[r.Findings[0].Start:r.Findings[0].End]
		if strings.Contains(r.Text, value) {
			t.Errorf("%s: %q still holds the value %q", p.Name, r.Text, value)
		}
		if !strings.Contains(r.Text, Placeholder(placeholderType(p.Name))) {
			t.Errorf("%s: %q has no placeholder", p.Name, r.Text)
		}
		if again := Redact(r.Text); again.Text != r.Text || len(again.Findings) != 0 {
			t.Errorf("%s: redacting twice changed %q to %q", p.Name, r.Text, again.Text)
		}
	}
}

func TestRedact(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"My password is hunter2-staging-9", "My password is [secret:password]"},
		{"my password is hunter2-staging-9.", "my password is [secret:password]."},
		{"PGPASSWORD=abc123 psql -h db", "PGPASSWORD=[secret:password] psql -h db"},
		{"비밀번호는 hunter2야.", "비밀번호는 [secret:password]야."},
		{"와이파이 비번: cafe2024!", "와이파이 비번: [secret:password]"},
		{"my password is abc123xyz? no", "my password is [secret:password]? no"},
		{"DATABASE_URL=mysql://root:pa55w0rd@localhost/app", "DATABASE_URL=mysql://root:[secret:password]@localhost/app"},
		{"pay with 5555-5555-5555-4444 please", "pay with [secret:card_number] please"},
		// Not secrets: prose after the keyword, Korean with no value, phone
		// numbers, digits that fail Luhn, counts of tokens.
		{"the password is stored in the vault", ""},
		{"Password: use a manager", ""},
		{"token is expired", ""},
		{"비밀번호를 바꿨어", ""},
		{"비밀번호는 나중에 알려줄게", ""},
		{"my phone is 010-1234-5678", ""},
		{"order 1234567890123 shipped", ""},
		{"max_tokens=512 and 4111 apples", ""},
		{"I use sk-learn and a well-known-hyphenated-phrase-here", ""},
		{"password=${DB_PASSWORD}", ""},
		// A product named after the keyword, then a Korean word: its length
		// is 4 characters, not its 12 bytes.
		{"1Password 해지하고 Bitwarden으로 갈아탔어", ""},
		{"password 바꿔야지", ""},
	} {
		want := c.want
		if want == "" {
			want = c.in
		}
		if got := Redact(c.in).Text; got != want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, want)
		}
	}
}

func TestLuhn(t *testing.T) {
	for _, c := range []struct {
		n  string
		ok bool
	}{{"4111111111111111", true}, {"4111111111111112", false}, {"378282246310005", true}, {"0000000000000", false}} {
		if got := luhnValue(c.n, ""); got != c.ok {
			t.Errorf("luhnValue(%s) = %v", c.n, got)
		}
	}
}
