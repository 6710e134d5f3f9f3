package recall

import "testing"

// nameSound: one name's romanisations sound alike; different names and
// common words do not.
func TestNameSound(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"세나", "Sena", true}, {"승호", "Seungho", true}, {"모찌", "Mochi", true}, {"보리", "Bori", true},
		{"민지", "Minji", true}, {"도윤", "Doyun", true}, {"시내", "Sena", false}, {"민지", "Sena", false},
		{"보리", "Bora", false},
	} {
		ka, kb := nameSound(c.a), nameSound(c.b)
		if ka == "" || kb == "" || (ka == kb) != c.same {
			t.Errorf("nameSound(%s) = %q, nameSound(%s) = %q, want same: %v", c.a, ka, c.b, kb, c.same)
		}
	}
	if k := nameSound("Al"); k != "" {
		t.Errorf("nameSound(Al) = %q, want none (too short to name anyone)", k)
	}
}
