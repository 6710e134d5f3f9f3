package capture

import (
	"strings"
	"testing"

	"memtrace/engine"
)

func TestUserScopeIsAValidScopeForAnyUserID(t *testing.T) {
	for id, want := range map[string]string{
		"dana":          "domain:user-dana",
		" minho ":       "domain:user-minho",
		"org/team:lead": "domain:user-org_team_lead",
		"a\x00b|c":      "domain:user-a_b_c",
	} {
		if got := UserScope(id); got != want || !engine.ValidScope(got) {
			t.Errorf("UserScope(%q) = %q (valid %v), want %q", id, got, engine.ValidScope(got), want)
		}
	}
	long := UserScope(strings.Repeat("서연", 60))
	if !engine.ValidScope(long) || !strings.HasPrefix(long, "domain:user-서연") {
		t.Errorf("a long Korean id gives %q (valid %v)", long, engine.ValidScope(long))
	}
}
