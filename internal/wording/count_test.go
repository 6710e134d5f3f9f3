package wording

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{1, "probe", "1 probe"}, {2, "probe", "2 probes"}, {0, "probe", "0 probes"},
		{1, "survivor", "1 survivor"}, {7, "survivor", "7 survivors"},
		{1, "memory", "1 memory"}, {3, "memory", "3 memories"},
		{2, "batch", "2 batches"}, {2, "key", "2 keys"}, {2, "keep record", "2 keep records"},
		{2, "time", "2 times"}, {2, "pass", "2 passes"}, {2, "memory line", "2 memory lines"},
		{1, "기억", "1 기억"}, {3, "기억", "3 기억"}, {5, "개", "5 개"}, {2, "검색 결과", "2 검색 결과"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if got := Memories(1) + ", " + Memories(2); got != "1 memory, 2 memories" {
		t.Errorf("Memories: %s", got)
	}
}
