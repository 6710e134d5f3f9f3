package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// --k 0 or --budget 0 is refused with what to do, as a negative one is;
// left out, each is the config's.
func TestRecallRefusesAZeroK(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	if code, _, errOut := runMemtrace(t, "", "--db", db, "add", "Our apartment is in Daejeon, close to the river."); code != 0 {
		t.Fatalf("add: exit %d %s", code, errOut)
	}
	for _, args := range [][]string{{"--k", "0"}, {"--budget", "0"}, {"--k", "-1"}} {
		code, _, errOut := runMemtrace(t, "", append([]string{"--db", db, "recall", "apartment"}, args...)...)
		if code != 2 || !strings.Contains(errOut, "must be positive") || !strings.Contains(errOut, "leave one out") {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
	if code, out, errOut := runMemtrace(t, "", "--db", db, "recall", "apartment", "--k", "1"); code != 0 || !strings.Contains(out, "Daejeon") {
		t.Fatalf("--k 1: exit %d %q %q", code, out, errOut)
	}
}
